import type { CompanyDetails } from './billing.ts';
import type { Brand } from './brand.ts';

export interface BrandStore {
  insert(brand: Pick<Brand, 'id' | 'name' | 'defaultPickupAddress'>): Promise<Brand>;
  /**
   * When the brand has owners and none of them ever confirmed their address (a sign-up whose
   * e-mail may be someone else's), since when: its first owner's arrival; else null. What the
   * operator made before that (for a brand whose invited owner has not come yet) is not concerned,
   * nor is a brand the operator runs without people.
   */
  unconfirmedSince(id: string): Promise<Date | null>;
  findById(id: string): Promise<Brand | null>;
  list(): Promise<Brand[]>;
  /** Null when no such brand; disabling twice keeps the first date. */
  disable(id: string): Promise<Brand | null>;
  /**
   * Opens or closes the webhook subscription API. Closing it also disables the brand's active API
   * subscriptions in the same statement: the operator's decision stops their deliveries at once,
   * and they stay listed (disabled, with the reason) for the brand's tools to see.
   */
  setWebhooksAllowed(
    id: string,
    allowed: boolean,
    at: Date,
  ): Promise<{
    brand: Brand;
    disabledSubscriptions: number;
  } | null>;
  updateCompany(id: string, details: CompanyDetails): Promise<Brand | null>;
  count(): Promise<number>;
  /**
   * The id of the brand's test twin (test mode: the brand its test keys and test orders belong
   * to), made with `newId` on first use. Throws when `liveBrandId` is no live brand.
   */
  testTwin(liveBrandId: string, newId: string): Promise<string>;
}
