import { AppError, type ErrorDetail, problemDetail } from '../../errors.ts';
import { extractPostcode } from './extract-postcode.ts';
import { communeInAddress, lookupPostcode } from './postcodes.ts';
import type { PricingZone } from './zones.ts';

/** The address fields of this API that must be served places (SPEC §5). */
export type AddressField = 'delivery_address' | 'pickup_address';

export interface Place {
  postcode: string;
  city: string;
  zone: PricingZone;
}

const IDF = 'Île-de-France (75, 77, 78, 91, 92, 93, 94, 95)';

/**
 * Where an address is: 422 `invalid_address` when no real French postcode is in it, 422
 * `out_of_zone` when it is outside Île-de-France; the error names `field`. The one check of every
 * address the service must reach: delivery and pickup addresses, and a brand's default pickup.
 */
export function locateAddress(address: string, field: AddressField): Place {
  const postcode = extractPostcode(address);
  const info = postcode ? lookupPostcode(postcode) : null;
  if (!postcode || !info) {
    throw new AppError(
      'invalid_address',
      postcode
        ? `${field}: "${postcode}" is not a French postcode.`
        : `${field}: no French postcode (5 digits) found in the address.`,
      [problemDetail(field, { code: 'address.noPostcode' })],
    );
  }
  if (info.zone === null) {
    throw new AppError(
      'out_of_zone',
      `${field}: ${postcode} (${info.city}) is outside the delivery zone; only ${IDF} is served.`,
      [problemDetail(field, { code: 'address.outsideZone' })],
    );
  }
  return { postcode, city: communeInAddress(postcode, address) ?? info.city, zone: info.zone };
}

/**
 * Locates several addresses and reports every wrong one in a single 422: a detail per field, in
 * the order given (delivery before pickup), with the code of the first wrong one. A `null` address
 * is a required one that is missing (`missing` says what to do).
 */
export function locateAddresses<F extends AddressField>(
  addresses: Partial<Record<F, string | null>>,
  missing: (field: F) => AppError,
): Partial<Record<F, Place>> {
  const places: Partial<Record<F, Place>> = {};
  const errors: AppError[] = [];
  for (const [field, address] of Object.entries(addresses) as [F, string | null | undefined][]) {
    if (address === undefined) continue;
    try {
      if (address === null) throw missing(field);
      places[field] = locateAddress(address, field);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) {
    const details: ErrorDetail[] = errors.flatMap((e) => e.details ?? []);
    throw new AppError(errors[0]!.code, errors.map((e) => e.message).join(' '), details);
  }
  return places;
}
