import type { CompanyDetails } from '../../domain/brands/billing.ts';
import type { Brand } from '../../domain/brands/brand.ts';
import type { Queryable } from '../pool.ts';

interface BrandRow {
  id: string;
  name: string;
  default_pickup_address: string | null;
  legal_name: string | null;
  billing_address: string | null;
  siren: string | null;
  vat_number: string | null;
  created_at: Date;
  disabled_at: Date | null;
}

const toBrand = (r: BrandRow): Brand => ({
  id: r.id,
  name: r.name,
  defaultPickupAddress: r.default_pickup_address,
  legalName: r.legal_name,
  billingAddress: r.billing_address,
  siren: r.siren,
  vatNumber: r.vat_number,
  createdAt: r.created_at,
  disabledAt: r.disabled_at,
});

export function brandsRepository(db: Queryable) {
  return {
    async insert(brand: Pick<Brand, 'id' | 'name' | 'defaultPickupAddress'>): Promise<Brand> {
      const { rows } = await db.query<BrandRow>(
        'INSERT INTO brands (id, name, default_pickup_address) VALUES ($1, $2, $3) RETURNING *',
        [brand.id, brand.name, brand.defaultPickupAddress],
      );
      return toBrand(rows[0]!);
    },
    async findById(id: string): Promise<Brand | null> {
      const { rows } = await db.query<BrandRow>('SELECT * FROM brands WHERE id = $1', [id]);
      return rows[0] ? toBrand(rows[0]) : null;
    },
    async list(): Promise<Brand[]> {
      const { rows } = await db.query<BrandRow>('SELECT * FROM brands ORDER BY created_at, id');
      return rows.map(toBrand);
    },
    /** Null when no such brand; disabling twice keeps the first date. */
    async disable(id: string): Promise<Brand | null> {
      const { rows } = await db.query<BrandRow>(
        'UPDATE brands SET disabled_at = coalesce(disabled_at, now()) WHERE id = $1 RETURNING *',
        [id],
      );
      return rows[0] ? toBrand(rows[0]) : null;
    },
    async updateCompany(id: string, details: CompanyDetails): Promise<Brand | null> {
      const { rows } = await db.query<BrandRow>(
        `UPDATE brands SET legal_name = $2, billing_address = $3, siren = $4, vat_number = $5,
           default_pickup_address = $6 WHERE id = $1 RETURNING *`,
        [
          id,
          details.legalName,
          details.billingAddress,
          details.siren,
          details.vatNumber,
          details.defaultPickupAddress,
        ],
      );
      return rows[0] ? toBrand(rows[0]) : null;
    },
    async count(): Promise<number> {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM brands');
      return rows[0]!.n;
    },
  };
}

export type BrandsRepository = ReturnType<typeof brandsRepository>;
