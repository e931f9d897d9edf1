import { parsePostalAddress } from '../einvoicing/postal-address.ts';
import type { Brand } from './brand.ts';

/**
 * What an e-invoice needs of its buyer (EN 16931 and the French reform): the brand's SIREN and a
 * billing address with a postcode and a city. A brand lacking either is not invoiced: its month is
 * held, told to the operator (`dlv invoices issue`, the ops API, the job's log) and to the brand
 * (its Company and Invoices pages), and issued by the first run after the details are given.
 */
export interface MissingCompanyData {
  field: 'siren' | 'billing_address';
  /** English, for the operator; the account area words the field itself. */
  message: string;
}

export function missingForInvoicing(brand: Pick<Brand, 'siren' | 'billingAddress'>): MissingCompanyData[] {
  const missing: MissingCompanyData[] = [];
  if (!brand.siren) missing.push({ field: 'siren', message: 'no SIREN' });
  if (!brand.billingAddress) missing.push({ field: 'billing_address', message: 'no billing address' });
  else if (!parsePostalAddress(brand.billingAddress))
    missing.push({ field: 'billing_address', message: 'a billing address without a "postcode city" line' });
  return missing;
}

/** One sentence for the operator: what is missing and who gives it. */
export function heldBecause(brandId: string, missing: readonly MissingCompanyData[]): string {
  return (
    `brand ${brandId} cannot be invoiced: ${missing.map((m) => m.message).join(' and ')} ` +
    `(its owner sets them on the account area's Company page, or the operator with "dlv brands company ${brandId} --siren … --billing-address …")`
  );
}
