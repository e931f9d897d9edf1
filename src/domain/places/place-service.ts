import { AppError, problemDetail } from '../../errors.ts';
import type { Place } from '../coverage/locate-address.ts';
import { lookupPostcode } from '../coverage/postcodes.ts';
import type { Clock } from '../shared/clock.ts';
import { judge, knownPlaceOf } from './address-check.ts';
import { addressKey } from './address-key.ts';
import type { KnownAddresses } from './known-addresses.ts';
import {
  betterLocation,
  type DeliveryLocation,
  distanceMetres,
  type GeoPoint,
  type LocationPrecision,
} from './location.ts';
import type { GeocodeAnswer, Geocoder, KnownPlace, PlaceStore, PlacesObserver } from './ports.ts';
import { isInIleDeFrance, postcodePoint } from './region.ts';
import { type AddressWarning, addressWarning } from './warnings.ts';

/** How long the cache keeps what it learns (docs/places.md, "Cache"). */
const DAY_MS = 86_400_000;
const PLACE_TTL_DAYS = { found: 90, notFound: 7, delivery: 365 } as const;

/**
 * A delivery's point teaches its address only when it is near where the address was thought to be:
 * a courier who scans "delivered" back in the van, streets away, must not move the address there.
 */
const LEARN_WITHIN_M: Record<LocationPrecision, number> = {
  rooftop: 500,
  street: 1_000,
  locality: 3_000,
  postcode: 5_000,
};

/** Where an order's delivery address is, what may be wrong with it, and whether a check is still due. */
export interface PlacedAddress {
  location: DeliveryLocation | null;
  warnings: AddressWarning[];
  /** The geocoder's word is still awaited (`address_check_pending` / `_unavailable`): the job asks again. */
  checkDue: boolean;
}

/** `POST /addresses/validate`'s answer, before the sort code and the zone's words are added. */
interface AddressCheck {
  /** The address as the geocoder writes it, else as given, trimmed. */
  label: string;
  postcode: string;
  city: string;
  score: number | null;
  location: DeliveryLocation | null;
  warnings: AddressWarning[];
  /** Set when an order to this address would be refused (422): the geocoder places it elsewhere. */
  elsewhere: { postcode: string; city: string | null; departement: string } | null;
}

export interface PlaceService {
  /** Whether a geocoder is configured (else every address is placed at its postcode, or a delivery's point). */
  readonly geocoding: boolean;
  /**
   * Places a new or corrected delivery address (SPEC §11): the brand's point when given (trusted, not
   * checked); else what the cache, then the geocoder within the creation's budget, say; else its
   * postcode's point. 422 `invalid_address` naming `delivery_address` when the geocoder is sure the
   * address is in another département than its postcode's. Never fails because of the geocoder.
   */
  placeDelivery(address: string, place: Place, brandPoint: GeoPoint | null): Promise<PlacedAddress>;
  /** The `check_addresses` job's second try: the geocoder waited for as long as its timeout. */
  recheck(address: string, place: Place): Promise<PlacedAddress>;
  /** `POST /addresses/validate`: the check of an address already located (zone, postcode). */
  check(address: string, place: Place): Promise<AddressCheck>;
  /**
   * A delivered parcel's point (its proof of delivery, to ~100 m) teaches its address where it is,
   * for the next orders to it; ignored when far from where the order was placed. Returns whether
   * it was kept.
   */
  learnFromDelivery(address: string, point: GeoPoint, placed: DeliveryLocation | null): Promise<boolean>;
}

export interface PlaceServiceDeps {
  /** null: no geocoder configured (the default: `npm start` makes no outside call). */
  geocoder: Geocoder | null;
  store: PlaceStore;
  known: KnownAddresses;
  clock: Clock;
  /** How long an order's creation waits for the geocoder, ms (GEOCODER_BUDGET_MS). */
  budgetMs: number;
  /** How long a check outside a creation waits (the job, the validate route), ms (GEOCODER_TIMEOUT_MS). */
  timeoutMs: number;
  observer?: PlacesObserver;
  log?: (message: string) => void;
}

type Outcome = { status: 'answered'; place: KnownPlace } | { status: 'pending' } | { status: 'unavailable' };

export function placeService(deps: PlaceServiceDeps): PlaceService {
  const { geocoder, store, known, clock, observer } = deps;
  // One request per address at a time: orders to one address created together share its answer.
  const inFlight = new Map<string, Promise<Outcome>>();

  async function cached(key: string, now: Date): Promise<KnownPlace[]> {
    if (!known.mayKnow(key)) return [];
    const places = (await store.find([key], now)).get(key) ?? [];
    observer?.cacheLookup(places.length > 0);
    return places;
  }

  /** Asks the geocoder and keeps its answer (a failure is not kept: the next order asks again). */
  function geocode(key: string, address: string): Promise<Outcome> {
    const running = inFlight.get(key);
    if (running) return running;
    const asking = (async (): Promise<Outcome> => {
      const answer: GeocodeAnswer = await geocoder!.search(address, clock().getTime() + deps.timeoutMs);
      if (answer.status === 'found' || answer.status === 'rejected') {
        const best = answer.status === 'found' ? (answer.candidates[0] ?? null) : null;
        observer?.geocoded(answer.status === 'rejected' ? 'rejected' : best ? 'found' : 'not_found');
        const place = knownPlaceOf(best);
        const now = clock();
        const days = place.point ? PLACE_TTL_DAYS.found : PLACE_TTL_DAYS.notFound;
        await store.saveGeocoded(key, place, now, new Date(now.getTime() + days * DAY_MS)).then(
          () => known.add(key),
          (err: unknown) => deps.log?.(`address cache not written: ${(err as Error).message}`),
        );
        return { status: 'answered', place };
      }
      observer?.geocoded(answer.status);
      // Slow or throttled: worth asking again soon (pending); refused or down: unavailable.
      return answer.status === 'timeout' || answer.status === 'throttled'
        ? { status: 'pending' }
        : { status: 'unavailable' };
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, asking);
    return asking;
  }

  /** The geocoder's word within `waitMs`, else pending (its answer, when it comes, is cached). */
  async function askWithin(key: string, address: string, waitMs: number): Promise<Outcome> {
    const asking = geocode(key, address).catch((err: unknown): Outcome => {
      deps.log?.(`geocoder call failed: ${(err as Error).message}`);
      return { status: 'unavailable' };
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ status: 'pending' }), waitMs);
    });
    try {
      return await Promise.race([asking, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  const postcodeLocation = (postcode: string): DeliveryLocation | null => {
    const point = postcodePoint(postcode);
    return point ? { ...point, precision: 'postcode', source: 'postcode' } : null;
  };
  const deliveryLocation = (places: KnownPlace[]): DeliveryLocation | null => {
    const learned = places.find((p) => p.source === 'delivery');
    return learned?.point && learned.precision
      ? { ...learned.point, precision: learned.precision, source: 'delivery' }
      : null;
  };

  /** From what is known of the address (and the geocoder's outcome), where it is and what is wrong. */
  function decide(place: Place, places: KnownPlace[], outcome: Outcome | null, address: string) {
    const learned = deliveryLocation(places);
    const fallback = learned ?? postcodeLocation(place.postcode);
    if (outcome === null) return { location: fallback, warnings: [], checkDue: false, elsewhere: null };
    if (outcome.status !== 'answered') {
      observer?.geocoderFallback(outcome.status);
      const warning = outcome.status === 'pending' ? addressWarning.pending() : addressWarning.unavailable();
      return { location: fallback, warnings: [warning], checkDue: true, elsewhere: null };
    }
    const judgement = judge(place.postcode, outcome.place);
    if (judgement.kind === 'elsewhere') {
      return {
        location: fallback,
        warnings: [
          addressWarning.postcodeMismatch(
            place.postcode,
            judgement.place.postcode,
            judgement.place.label ?? address,
          ),
        ],
        checkDue: false,
        elsewhere: judgement,
      };
    }
    if (judgement.kind === 'placed')
      return {
        location: betterLocation(judgement.location, learned),
        warnings: judgement.warnings,
        checkDue: false,
        elsewhere: null,
      };
    // Loosely matched, but a parcel was delivered there already: the address works in practice.
    const warnings = learned
      ? judgement.warnings.filter((w) => w.code !== 'address_uncertain')
      : judgement.warnings;
    return { location: fallback, warnings, checkDue: false, elsewhere: null };
  }

  async function outcomeFor(key: string, address: string, places: KnownPlace[], waitMs: number) {
    if (geocoder === null) return null;
    const answer = places.find((p) => p.source === 'geocoder');
    if (answer) return { status: 'answered', place: answer } as const;
    return askWithin(key, address, waitMs);
  }

  return {
    geocoding: geocoder !== null,

    async placeDelivery(address, place, brandPoint) {
      if (brandPoint !== null)
        return {
          location: { ...brandPoint, precision: 'rooftop', source: 'brand' },
          warnings: [],
          checkDue: false,
        };
      const key = addressKey(address);
      const places = await cached(key, clock());
      const decided = decide(place, places, await outcomeFor(key, address, places, deps.budgetMs), address);
      if (decided.elsewhere) {
        const { place: found, departement } = decided.elsewhere;
        const written = lookupPostcode(place.postcode)?.departement ?? place.postcode.slice(0, 2);
        throw new AppError(
          'invalid_address',
          `delivery_address: "${found.label}" (${found.postcode}${found.city ? ` ${found.city}` : ''}) is in département ` +
            `${departement}, not in ${written} as the postcode ${place.postcode} says; correct the postcode or the street.`,
          [
            problemDetail('delivery_address', {
              code: 'address.elsewhere',
              values: { postcode: place.postcode, found: found.postcode, departement },
            }),
          ],
        );
      }
      return { location: decided.location, warnings: decided.warnings, checkDue: decided.checkDue };
    },

    async recheck(address, place) {
      const key = addressKey(address);
      const places = await cached(key, clock());
      const decided = decide(place, places, await outcomeFor(key, address, places, deps.timeoutMs), address);
      // Too late to refuse the order: an address elsewhere is flagged (postcode_mismatch) instead.
      return { location: decided.location, warnings: decided.warnings, checkDue: decided.checkDue };
    },

    async check(address, place) {
      const key = addressKey(address);
      const places = await cached(key, clock());
      const outcome = await outcomeFor(key, address, places, deps.timeoutMs);
      const decided = decide(place, places, outcome, address);
      const answer = outcome?.status === 'answered' ? outcome.place : null;
      // Nothing is waited for after the answer: a check still pending is as good as unavailable here.
      const warnings = decided.warnings.map((w) =>
        w.code === 'address_check_pending' ? addressWarning.unavailable() : w,
      );
      return {
        label: answer?.label && answer.score !== null && answer.point ? answer.label : address.trim(),
        postcode: place.postcode,
        city: place.city,
        score: answer?.score ?? null,
        location: decided.location,
        warnings,
        elsewhere: decided.elsewhere
          ? {
              postcode: decided.elsewhere.place.postcode,
              city: decided.elsewhere.place.city,
              departement: decided.elsewhere.departement,
            }
          : null,
      };
    },

    async learnFromDelivery(address, point, placed) {
      if (!isInIleDeFrance(point)) return false;
      if (placed !== null && distanceMetres(point, placed) > LEARN_WITHIN_M[placed.precision]) return false;
      const key = addressKey(address);
      const now = clock();
      // The phone's point is kept to ~100 m (SPEC §10): a street's precision, not a door's.
      await store.learn(
        key,
        point,
        'street',
        now,
        new Date(now.getTime() + PLACE_TTL_DAYS.delivery * DAY_MS),
      );
      known.add(key);
      return true;
    },
  };
}
