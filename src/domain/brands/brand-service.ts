import { AppError } from '../../errors.ts';
import { prefixedId } from '../ids.ts';
import { type CompanyInput, validateCompany } from './billing.ts';
import { BRAND_ID_PATTERN, type Brand, validateBrandName, validatePickupAddress } from './brand.ts';
import type { BrandStore } from './ports.ts';

export interface BrandService {
  create(input: { name: string; pickupAddress?: string | null }): Promise<Brand>;
  list(): Promise<Brand[]>;
  get(id: string): Promise<Brand>;
  /** The account area's company page: billing details and default pickup, all checked first. */
  updateCompany(id: string, input: CompanyInput): Promise<Brand>;
  /** `dlv brands allow-webhooks` / `disallow-webhooks`: the brand's request, granted or withdrawn. */
  setWebhooksAllowed(
    id: string,
    allowed: boolean,
    at?: Date,
  ): Promise<{ brand: Brand; disabledSubscriptions: number }>;
  disable(id: string): Promise<Brand>;
}

export function brandService(brands: BrandStore): BrandService {
  return {
    async create(input: { name: string; pickupAddress?: string | null }): Promise<Brand> {
      return brands.insert({
        id: prefixedId('brd'),
        name: validateBrandName(input.name),
        defaultPickupAddress: validatePickupAddress(input.pickupAddress),
      });
    },
    list: () => brands.list(),
    async get(id: string): Promise<Brand> {
      const brand = BRAND_ID_PATTERN.test(id) ? await brands.findById(id) : null;
      if (!brand) throw new AppError('not_found', `no brand with id "${id}"`);
      return brand;
    },
    async updateCompany(id: string, input: CompanyInput): Promise<Brand> {
      const details = validateCompany(input);
      const brand = BRAND_ID_PATTERN.test(id) ? await brands.updateCompany(id, details) : null;
      if (!brand) throw new AppError('not_found', `no brand with id "${id}"`);
      return brand;
    },
    async setWebhooksAllowed(id: string, allowed: boolean, at: Date = new Date()) {
      const changed = BRAND_ID_PATTERN.test(id) ? await brands.setWebhooksAllowed(id, allowed, at) : null;
      if (!changed) throw new AppError('not_found', `no brand with id "${id}"`);
      return changed;
    },
    async disable(id: string): Promise<Brand> {
      const brand = BRAND_ID_PATTERN.test(id) ? await brands.disable(id) : null;
      if (!brand) throw new AppError('not_found', `no brand with id "${id}"`);
      return brand;
    },
  };
}
