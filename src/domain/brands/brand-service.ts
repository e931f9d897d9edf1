import { AppError } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import { changedFields } from '../audit/changes.ts';
import type { AuditStore } from '../audit/ports.ts';
import { prefixedId } from '../ids.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { type CompanyInput, validateCompany } from './billing.ts';
import { BRAND_ID_PATTERN, type Brand, validateBrandName, validatePickupAddress } from './brand.ts';
import type { BrandStore } from './ports.ts';

/** Each change is recorded in the audit trail with `by`, in the change's transaction. */
export interface BrandService {
  create(input: { name: string; pickupAddress?: string | null }, by: Author): Promise<Brand>;
  list(): Promise<Brand[]>;
  get(id: string): Promise<Brand>;
  /** The account area's company page: billing details and default pickup, all checked first. */
  updateCompany(id: string, input: CompanyInput, by: Author): Promise<Brand>;
  /** `dlv brands allow-webhooks` / `disallow-webhooks`: the brand's request, granted or withdrawn. */
  setWebhooksAllowed(
    id: string,
    allowed: boolean,
    by: Author,
    at?: Date,
  ): Promise<{ brand: Brand; disabledSubscriptions: number }>;
  disable(id: string, by: Author): Promise<Brand>;
  /** The id of a live brand's test twin (test mode), made on first use; 404 for no live brand. */
  testTwinId(liveBrandId: string): Promise<string>;
}

/** The brand's settings as the trail compares them (a company's details are not a person's). */
const settingsOf = (b: Brand) => ({
  name: b.name,
  default_pickup_address: b.defaultPickupAddress,
  legal_name: b.legalName,
  billing_address: b.billingAddress,
  siren: b.siren,
  vat_number: b.vatNumber,
  webhooks_allowed: b.webhooksAllowed,
});
const NOTHING_PERSONAL: ReadonlySet<string> = new Set();

type BrandStores = { brands: BrandStore; audit: AuditStore };

export function brandService(deps: { brands: BrandStore; transact: UnitOfWork<BrandStores> }): BrandService {
  const { brands, transact } = deps;
  const notFound = (id: string) => new AppError('not_found', `no brand with id "${id}"`);

  /** Changes the brand with `change` and records the settings that moved, in one transaction. */
  async function changeBrand<T extends { brand: Brand }>(
    id: string,
    by: Author,
    action: 'brand.settings_changed' | 'brand.disabled',
    change: (stores: BrandStores) => Promise<T | null>,
  ): Promise<T> {
    if (!BRAND_ID_PATTERN.test(id)) throw notFound(id);
    return transact(async (stores) => {
      const before = await stores.brands.findById(id);
      const changed = before ? await change(stores) : null;
      if (!before || !changed) throw notFound(id);
      const changes = changedFields(
        { ...settingsOf(before), disabled_at: before.disabledAt?.toISOString() ?? null },
        { ...settingsOf(changed.brand), disabled_at: changed.brand.disabledAt?.toISOString() ?? null },
        NOTHING_PERSONAL,
      );
      if (changes)
        await stores.audit.record({ action, by, object: { type: 'brand', id }, brandId: id, changes });
      return changed;
    });
  }

  return {
    async create(input, by) {
      const brand = {
        id: prefixedId('brd'),
        name: validateBrandName(input.name),
        defaultPickupAddress: validatePickupAddress(input.pickupAddress),
      };
      return transact(async (stores) => {
        const created = await stores.brands.insert(brand);
        await stores.audit.record(brandCreated(created, by));
        return created;
      });
    },
    list: () => brands.list(),
    async get(id: string): Promise<Brand> {
      const brand = BRAND_ID_PATTERN.test(id) ? await brands.findById(id) : null;
      if (!brand) throw notFound(id);
      return brand;
    },
    async updateCompany(id, input, by) {
      const details = validateCompany(input);
      const { brand } = await changeBrand(id, by, 'brand.settings_changed', async (stores) => {
        const updated = await stores.brands.updateCompany(id, details);
        return updated && { brand: updated };
      });
      return brand;
    },
    setWebhooksAllowed: (id, allowed, by, at = new Date()) =>
      changeBrand(id, by, 'brand.settings_changed', (stores) =>
        stores.brands.setWebhooksAllowed(id, allowed, at),
      ),
    async testTwinId(liveBrandId: string): Promise<string> {
      const live = BRAND_ID_PATTERN.test(liveBrandId) ? await brands.findById(liveBrandId) : null;
      if (!live) throw notFound(liveBrandId);
      return brands.testTwin(live.id, prefixedId('brd'));
    },
    async disable(id, by) {
      const { brand } = await changeBrand(id, by, 'brand.disabled', async (stores) => {
        const disabled = await stores.brands.disable(id);
        return disabled && { brand: disabled };
      });
      return brand;
    },
  };
}

/** A new brand in the audit trail: its settings as created. */
export function brandCreated(brand: Brand, by: Author) {
  return {
    action: 'brand.created' as const,
    by,
    object: { type: 'brand' as const, id: brand.id },
    brandId: brand.id,
    changes: changedFields(null, settingsOf(brand), NOTHING_PERSONAL),
  };
}

/** The service on the stores of a transaction already open: its changes are made in it. */
export const brandsIn = (stores: BrandStores): BrandService =>
  brandService({ brands: stores.brands, transact: (work) => work(stores) });
