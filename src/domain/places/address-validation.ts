import { AppError } from '../../errors.ts';
import { resolveDestination } from '../coverage/destination.ts';
import type { PricingZone } from '../coverage/zones.ts';
import { type SortCodeRule, sortCodeTable } from '../labels/sort-codes.ts';
import type { DeliveryLocation, LocationPrecision } from './location.ts';
import type { PlaceService } from './place-service.ts';
import type { AddressWarning } from './warnings.ts';

/** `POST /addresses/validate`'s answer (snake_case at the edge, as every resource). */
interface AddressValidationJson {
  /** Whether an order to this address would be accepted (its creation would not answer 422). */
  available: boolean;
  /** Why not: the error code an order's creation would answer, and its message. */
  reason: { code: 'invalid_address' | 'out_of_zone'; message: string } | null;
  /** The address as the geocoder writes it, else as given (trimmed). */
  address: string;
  postcode: string | null;
  city: string | null;
  zone: PricingZone | null;
  /** The hub's sort code for it (the labels' table, SPEC §10). */
  sort_code: string | null;
  /** The geocoder's score (0 to 1); null without a geocoder's answer. */
  score: number | null;
  precision: LocationPrecision | null;
  location: DeliveryLocation | null;
  warnings: AddressWarning[];
}

export interface AddressValidator {
  validate(input: { address: string; postcode?: string | null }): Promise<AddressValidationJson>;
}

/** An address not placed (out of zone, no postcode): nothing known of where it is. */
const nothing = () => ({
  zone: null,
  sort_code: null,
  score: null,
  precision: null,
  location: null,
  warnings: [] as AddressWarning[],
});

/**
 * The check a checkout or a shop makes before an order (SPEC §11): where the address is, whether it
 * is served, its sort code and what may be wrong with it. A geocoder outage is a warning
 * (`address_check_unavailable`), never an error.
 */
export function addressValidator(deps: {
  places: Pick<PlaceService, 'check'>;
  sortCodes: () => Promise<SortCodeRule[]>;
}): AddressValidator {
  return {
    async validate(input) {
      const address = input.address.trim();
      if (address === '')
        throw new AppError('invalid_request', 'address: must not be empty', [
          { field: 'address', message: 'must not be empty' },
        ]);
      const destination = resolveDestination({
        deliveryZip: input.postcode ?? null,
        deliveryAddress: address,
      });
      if (destination.kind === 'unknown_postcode') {
        return {
          available: false,
          reason: {
            code: 'invalid_address',
            message: destination.postcode
              ? `"${destination.postcode}" is not a French postcode.`
              : 'No French postcode (5 digits) found in the address.',
          },
          address,
          postcode: destination.postcode,
          city: null,
          ...nothing(),
        };
      }
      if (destination.kind === 'out_of_zone') {
        return {
          available: false,
          reason: {
            code: 'out_of_zone',
            message: `${destination.postcode} (${destination.city}) is outside the delivery zone: only Île-de-France is served.`,
          },
          address,
          postcode: destination.postcode,
          city: destination.city,
          ...nothing(),
        };
      }
      const place = { postcode: destination.postcode, city: destination.city, zone: destination.zone };
      const [checked, rules] = await Promise.all([deps.places.check(address, place), deps.sortCodes()]);
      const elsewhere = checked.elsewhere;
      return {
        available: elsewhere === null,
        reason: elsewhere
          ? {
              code: 'invalid_address',
              message: `The address is in ${elsewhere.postcode}${elsewhere.city ? ` ${elsewhere.city}` : ''} (département ${elsewhere.departement}), not in ${place.postcode}: correct the postcode or the street.`,
            }
          : null,
        address: checked.label,
        postcode: place.postcode,
        city: place.city,
        zone: place.zone,
        sort_code: sortCodeTable(rules).codeFor(place.postcode, place.zone),
        score: checked.score,
        precision: checked.location?.precision ?? null,
        location: checked.location,
        warnings: checked.warnings,
      };
    },
  };
}
