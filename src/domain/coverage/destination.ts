import { extractPostcode } from './extract-postcode.ts';
import { communeInAddress, lookupPostcode } from './postcodes.ts';
import type { PricingZone } from './zones.ts';

export type Destination =
  | { kind: 'in_zone'; postcode: string; city: string; zone: PricingZone }
  | { kind: 'out_of_zone'; postcode: string; city: string }
  | { kind: 'unknown_postcode'; postcode: string | null };

export interface DestinationInput {
  deliveryZip?: string | null;
  deliveryAddress?: string | null;
}

/** True when the caller gave something to resolve; the HTTP layer answers 400 otherwise (SPEC §7). */
export function hasDestination(input: DestinationInput): boolean {
  return !isBlank(input.deliveryZip) || !isBlank(input.deliveryAddress);
}

/**
 * `deliveryZip` wins over the address when both are given (SPEC §7). A blank zip counts as not
 * given. A zip that is not exactly 5 digits (spaces aside), an address without a 5-digit token, or a postcode
 * missing from the La Poste list is `unknown_postcode` (422 `invalid_address` for orders,
 * `available: false` for rates); a real postcode outside Île-de-France is `out_of_zone`.
 */
export function resolveDestination(input: DestinationInput): Destination {
  const fromZip = !isBlank(input.deliveryZip);
  const address = input.deliveryAddress ?? '';
  const postcode = fromZip ? zipPostcode(input.deliveryZip ?? '') : extractPostcode(address);
  if (postcode === null) return { kind: 'unknown_postcode', postcode: null };

  const info = lookupPostcode(postcode);
  if (info === null) return { kind: 'unknown_postcode', postcode };
  // "77000 Vaux-le-Pénil" is Vaux-le-Pénil, not the first commune 77000 serves.
  const city = (fromZip ? null : communeInAddress(postcode, address)) ?? info.city;
  if (info.zone === null) return { kind: 'out_of_zone', postcode, city };
  return { kind: 'in_zone', postcode, city, zone: info.zone };
}

/** A zip field holds nothing but the postcode, so spaces inside it ("75 011") can only be layout. */
function zipPostcode(zip: string): string | null {
  const digits = zip.normalize('NFKC').replace(/\s/g, '');
  return /^\d{5}$/.test(digits) ? digits : null;
}

function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}
