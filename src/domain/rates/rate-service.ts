import { fieldProblem, validateFields } from '../../errors.ts';
import { hasDestination, resolveDestination } from '../coverage/destination.ts';
import type { GridIndex } from '../pricing/grid.ts';
import type { GridService } from '../pricing/grid-service.ts';
import { DEFAULT_UNIT_TYPE, parseQuantity, parseUnitType, parseWeightGrams } from '../pricing/units.ts';
import type { Clock } from '../shared/clock.ts';
import { quoteRates, type RatesQuote, unavailable } from './quote-rates.ts';

export interface RateRequest {
  delivery_address?: string;
  delivery_zip?: string;
  unit_type?: string;
  quantity?: number;
  unit_weight?: string | number;
}

const DEFAULT_UNIT_WEIGHT = '1kg';

// Defined once: quoting is the hottest route and these run on every call.
const RATE_CHECKS = {
  destination: (request: RateRequest) => {
    const given = { deliveryZip: request.delivery_zip, deliveryAddress: request.delivery_address };
    if (!hasDestination(given)) {
      throw fieldProblem('delivery_zip', 'destination.required');
    }
    return resolveDestination(given);
  },
  unitType: (request: RateRequest) => parseUnitType(request.unit_type ?? DEFAULT_UNIT_TYPE),
  weightGrams: (request: RateRequest) => parseWeightGrams(request.unit_weight ?? DEFAULT_UNIT_WEIGHT),
  quantity: (request: RateRequest) => parseQuantity(request.quantity ?? 1),
};

// Shared by every caller, hence frozen: out of zone and unknown postcodes need no grid.
const OUT_OF_ZONE: RatesQuote = deepFreeze(unavailable('out_of_zone'));
const UNKNOWN_POSTCODE: RatesQuote = deepFreeze(unavailable('unknown_postcode'));

/**
 * A quote is a pure function of the grid, the zone, the load and the minute (cut-offs fall on whole
 * hours), and checkout asks the same few questions again and again: the current minute's answers
 * are kept per grid. An imported grid is a new object, so its quotes start afresh; the old ones go
 * with it. Quotes are frozen, since callers share them.
 */
const cachedQuotes = new WeakMap<GridIndex, { minute: number; quotes: Map<string, RatesQuote> }>();
const MAX_CACHED_QUOTES = 10_000;

function deepFreeze(quote: RatesQuote): RatesQuote {
  for (const rate of quote.rates) Object.freeze(rate);
  Object.freeze(quote.rates);
  return Object.freeze(quote);
}

/** `POST /rates`: which services, prices and dates the brand's grid offers for a destination. */
export interface RateService {
  quote(brandId: string, request: RateRequest): Promise<RatesQuote>;
}

export function rateService(grids: GridService, clock: Clock): RateService {
  return {
    async quote(brandId: string, request: RateRequest): Promise<RatesQuote> {
      const input = validateFields(request, RATE_CHECKS);
      // Out of zone or unknown postcode is an answer, not an error: no grid needed for it.
      if (input.destination.kind === 'out_of_zone') return OUT_OF_ZONE;
      if (input.destination.kind === 'unknown_postcode') return UNKNOWN_POSTCODE;
      const { index } = await grids.gridFor(brandId);
      const now = clock();
      const minute = Math.floor(now.getTime() / 60_000);
      let cache = cachedQuotes.get(index);
      if (cache?.minute !== minute) {
        cache = { minute, quotes: new Map() };
        cachedQuotes.set(index, cache);
      }
      const key = `${input.destination.zone}|${input.unitType}|${input.weightGrams}|${input.quantity}`;
      let quote = cache.quotes.get(key);
      if (quote === undefined) {
        quote = deepFreeze(quoteRates({ grid: index, ...input, now }));
        if (cache.quotes.size < MAX_CACHED_QUOTES) cache.quotes.set(key, quote);
      }
      return quote;
    },
  };
}
