import { lookupPostcode } from '../coverage/postcodes.ts';
import { type DeliveryLocation, type LocationPrecision, roundCoordinate } from './location.ts';
import type { GeocodeCandidate, GeocodeType, KnownPlace } from './ports.ts';
import { type AddressWarning, addressWarning } from './warnings.ts';

/**
 * The thresholds of the address check (docs/places.md, "Address flags"), on BAN's score (0 to 1,
 * how well the best candidate matches what was typed). A correctly typed address scores 0.7 to
 * 0.97; a wrong number or a misspelt street 0.5 to 0.7; a street that does not exist in the
 * commune, under 0.5, where the best candidate is often another street or the commune itself.
 */
export const UNCERTAIN_BELOW = 0.5;
/**
 * A candidate in another département than the written postcode's refuses the order (422) only when
 * it scores at least this: the geocoder is sure the address is elsewhere, and pricing, sorting and
 * delivering it by its postcode would send the parcel to the wrong place.
 */
export const ELSEWHERE_FROM = 0.8;

const PRECISION_OF: Record<GeocodeType, LocationPrecision> = {
  housenumber: 'rooftop',
  street: 'street',
  locality: 'locality',
  // The commune's own point (its town hall, or centre): a named place, not a postcode's area.
  municipality: 'locality',
};

/** The geocoder's best candidate as a cache entry; `null`: it found nothing. */
export function knownPlaceOf(candidate: GeocodeCandidate | null): KnownPlace {
  if (candidate === null)
    return {
      source: 'geocoder',
      point: null,
      precision: null,
      score: null,
      postcode: null,
      citycode: null,
      city: null,
      label: null,
    };
  return {
    source: 'geocoder',
    point: { lat: roundCoordinate(candidate.point.lat), lng: roundCoordinate(candidate.point.lng) },
    precision: PRECISION_OF[candidate.type],
    score: candidate.score,
    postcode: candidate.postcode,
    citycode: candidate.citycode,
    city: candidate.city,
    label: candidate.label,
  };
}

/** What the geocoder's word says of an address written with `postcode`. */
export type Judgement =
  /** Placed: its point is the address's; maybe a postcode_mismatch warning. */
  | { kind: 'placed'; location: DeliveryLocation; warnings: AddressWarning[] }
  /** Not placed with confidence: the point stays the postcode's (or a delivery's). */
  | { kind: 'uncertain'; warnings: AddressWarning[] }
  /** Surely in another département than its postcode's: refused at creation (422). */
  | { kind: 'elsewhere'; place: KnownPlace & { postcode: string }; departement: string };

const departementOf = (place: KnownPlace): string | null =>
  (place.postcode ? lookupPostcode(place.postcode)?.departement : null) ??
  (place.citycode ? place.citycode.slice(0, 2) : null);

export function judge(writtenPostcode: string, answer: KnownPlace): Judgement {
  if (answer.point === null || answer.score === null || answer.precision === null)
    return { kind: 'uncertain', warnings: [addressWarning.uncertain(0, UNCERTAIN_BELOW, null)] };
  if (answer.score < UNCERTAIN_BELOW)
    return {
      kind: 'uncertain',
      warnings: [addressWarning.uncertain(answer.score, UNCERTAIN_BELOW, answer.label)],
    };
  const location: DeliveryLocation = { ...answer.point, precision: answer.precision, source: 'geocoder' };
  if (answer.postcode === null || answer.postcode === writtenPostcode)
    return { kind: 'placed', location, warnings: [] };
  const written = lookupPostcode(writtenPostcode)?.departement ?? null;
  const found = departementOf(answer);
  const mismatch = addressWarning.postcodeMismatch(writtenPostcode, answer.postcode, answer.label ?? '');
  if (written === found) return { kind: 'placed', location, warnings: [mismatch] };
  if (answer.score >= ELSEWHERE_FROM && found !== null)
    return { kind: 'elsewhere', place: { ...answer, postcode: answer.postcode }, departement: found };
  // Another département, loosely matched: the candidate is likely another street of the same name;
  // the parcel is placed at its written postcode and the brand told.
  return { kind: 'uncertain', warnings: [mismatch] };
}
