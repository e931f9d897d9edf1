import type { CompanyDetails } from '../../domain/brands/billing.ts';
import type { Brand } from '../../domain/brands/brand.ts';
import type { BrandStore } from '../../domain/brands/ports.ts';
import type { Queryable } from '../pool.ts';

interface BrandRow {
  id: string;
  name: string;
  default_pickup_address: string | null;
  legal_name: string | null;
  billing_address: string | null;
  siren: string | null;
  siret: string | null;
  vat_number: string | null;
  created_at: Date;
  disabled_at: Date | null;
  webhooks_allowed: boolean;
}

const toBrand = (r: BrandRow): Brand => ({
  id: r.id,
  name: r.name,
  defaultPickupAddress: r.default_pickup_address,
  legalName: r.legal_name,
  billingAddress: r.billing_address,
  siren: r.siren,
  siret: r.siret,
  vatNumber: r.vat_number,
  createdAt: r.created_at,
  disabledAt: r.disabled_at,
  webhooksAllowed: r.webhooks_allowed,
});

export function brandsRepository(db: Queryable): BrandStore {
  return {
    async insert(brand: Pick<Brand, 'id' | 'name' | 'defaultPickupAddress'>): Promise<Brand> {
      const { rows } = await db.query<BrandRow>(
        'INSERT INTO brands (id, name, default_pickup_address) VALUES ($1, $2, $3) RETURNING *',
        [brand.id, brand.name, brand.defaultPickupAddress],
      );
      return toBrand(rows[0]!);
    },
    /**
     * When the brand has owners and none of them ever confirmed their address (a sign-up whose
     * e-mail may be someone else's), since when: its first owner's arrival; else null. What the
     * operator made before that (for a brand whose invited owner has not come yet) is not concerned,
     * nor is a brand the operator runs without people.
     */
    async unconfirmedSince(id: string): Promise<Date | null> {
      const { rows } = await db.query<{ since: Date | null }>(
        `SELECT CASE WHEN count(email_verified_at) = 0 THEN min(created_at) END AS since
           FROM users WHERE brand_id = $1 AND role = 'owner'`,
        [id],
      );
      return rows[0]?.since ?? null;
    },
    async findById(id: string): Promise<Brand | null> {
      // A test twin stands as its live brand does: open to webhooks, disabled with it.
      const { rows } = await db.query<BrandRow>(
        `SELECT b.*, coalesce(l.webhooks_allowed, b.webhooks_allowed) AS webhooks_allowed,
                coalesce(l.disabled_at, b.disabled_at) AS disabled_at
           FROM brands b LEFT JOIN brands l ON l.id = b.live_brand_id WHERE b.id = $1`,
        [id],
      );
      return rows[0] ? toBrand(rows[0]) : null;
    },
    async list(): Promise<Brand[]> {
      // Test twins are the brands' test data, not brands of their own.
      const { rows } = await db.query<BrandRow>(
        'SELECT * FROM brands WHERE live_brand_id IS NULL ORDER BY created_at, id',
      );
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
    /**
     * Opens or closes the webhook subscription API. Closing it also disables the brand's active API
     * subscriptions in the same statement: the operator's decision stops their deliveries at once,
     * and they stay listed (disabled, with the reason) for the brand's tools to see.
     */
    async setWebhooksAllowed(
      id: string,
      allowed: boolean,
      at: Date,
    ): Promise<{ brand: Brand; disabledSubscriptions: number } | null> {
      const { rows } = await db.query<BrandRow & { disabled_subscriptions: number }>(
        `WITH b AS (UPDATE brands SET webhooks_allowed = $2 WHERE id = $1 RETURNING *),
         d AS (
           UPDATE webhook_endpoints w SET status = 'disabled', disabled_reason = $4, disabled_at = $3, updated_at = $3
             FROM b WHERE NOT $2 AND w.brand_id = b.id AND w.origin = 'api' AND w.status = 'active'
           RETURNING w.id)
         SELECT b.*, (SELECT count(*)::int FROM d) AS disabled_subscriptions FROM b`,
        [id, allowed, at, 'webhook subscriptions closed by the operator'],
      );
      const row = rows[0];
      return row ? { brand: toBrand(row), disabledSubscriptions: row.disabled_subscriptions } : null;
    },
    async updateCompany(id: string, details: CompanyDetails): Promise<Brand | null> {
      const { rows } = await db.query<BrandRow>(
        `UPDATE brands SET legal_name = $2, billing_address = $3, siren = $4, vat_number = $5,
           default_pickup_address = $6, siret = $7 WHERE id = $1 RETURNING *`,
        [
          id,
          details.legalName,
          details.billingAddress,
          details.siren,
          details.vatNumber,
          details.defaultPickupAddress,
          details.siret,
        ],
      );
      return rows[0] ? toBrand(rows[0]) : null;
    },
    async testTwin(liveBrandId: string, newId: string): Promise<string> {
      // Made on first use; two callers at once both get the one twin (the unique live_brand_id).
      const { rows } = await db.query<{ id: string }>(
        `WITH made AS (
           INSERT INTO brands (id, name, live_brand_id)
           SELECT $2, name, id FROM brands WHERE id = $1 AND live_brand_id IS NULL
           ON CONFLICT (live_brand_id) DO NOTHING RETURNING id)
         SELECT id FROM made UNION ALL SELECT id FROM brands WHERE live_brand_id = $1`,
        [liveBrandId, newId],
      );
      if (!rows[0]) throw new Error(`no live brand ${liveBrandId} to give a test twin`);
      return rows[0].id;
    },
    async count(): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM brands WHERE live_brand_id IS NULL',
      );
      return rows[0]!.n;
    },
  };
}
