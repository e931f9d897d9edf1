import { fieldProblem, validateFields } from '../../errors.ts';
import { hasDestination, resolveDestination } from '../coverage/destination.ts';
import type { GridIndex } from '../pricing/grid.ts';
import type { ActiveGrid, GridService } from '../pricing/grid-service.ts';
import { DEFAULT_UNIT_TYPE, parseQuantity, parseUnitType, parseWeightGrams } from '../pricing/units.ts';
import { type Clock, millisOf } from '../shared/clock.ts';
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

/** A request's fields once checked. */
type RateInput = { [K in keyof typeof RATE_CHECKS]: ReturnType<(typeof RATE_CHECKS)[K]> };

// Shared by every caller, hence frozen: out of zone and unknown postcodes need no grid.
const OUT_OF_ZONE: RatesQuote = deepFreeze(unavailable('out_of_zone'));
const UNKNOWN_POSTCODE: RatesQuote = deepFreeze(unavailable('unknown_postcode'));

/**
 * A quote is a pure function of the grid, the zone, the load and the minute (cut-offs fall on whole
 * hours), and checkout asks the same few questions again and again: the current minute's answers
 * are kept per grid. An imported grid is a new object, so its quotes start afresh; the old ones go
 * with it. Quotes are frozen, since callers share them.
 */
interface MinuteQuotes {
  minute: number;
  /** By the question as resolved (zone, unit, grams, quantity). */
  quotes: Map<string, RatesQuote>;
  /**
   * By the question as asked (the request's fields, verbatim): a repeated question skips parsing and
   * resolving its destination. Only answers are kept here; an invalid request is checked every time.
   */
  asked: Map<string, RatesQuote>;
}
const cachedQuotes = new WeakMap<GridIndex, MinuteQuotes>();
const MAX_CACHED_QUOTES = 10_000;

/** One field of the request in the `asked` key: its type and length are part of it, so no two requests share a key. */
function keyPart(value: unknown): string {
  if (typeof value === 'string') return `s${value.length}:${value}`;
  if (typeof value === 'number') return `n${value};`;
  return value === undefined ? 'u;' : `j${JSON.stringify(value)};`;
}

function askedKey(request: RateRequest): string {
  return (
    keyPart(request.delivery_zip) +
    keyPart(request.delivery_address) +
    keyPart(request.unit_type) +
    keyPart(request.unit_weight) +
    keyPart(request.quantity)
  );
}

function minuteQuotes(index: GridIndex, minute: number): MinuteQuotes {
  let cache = cachedQuotes.get(index);
  if (cache?.minute !== minute) {
    cache = { minute, quotes: new Map(), asked: new Map() };
    cachedQuotes.set(index, cache);
  }
  return cache;
}

function deepFreeze(quote: RatesQuote): RatesQuote {
  for (const rate of quote.rates) Object.freeze(rate);
  Object.freeze(quote.rates);
  return Object.freeze(quote);
}

/** `POST /rates`: which services, prices and dates the brand's grid offers for a destination. */
export interface RateService {
  quote(brandId: string, request: RateRequest): RatesQuote | Promise<RatesQuote>;
}

export function rateService(grids: GridService, clock: Clock): RateService {
  const millis = millisOf(clock);
  return {
    quote(brandId: string, request: RateRequest): RatesQuote | Promise<RatesQuote> {
      const active = grids.gridFor(brandId);
      // The common case, a grid in memory and a question asked this minute, answers without a promise.
      if (!(active instanceof Promise)) {
        const now = millis();
        const cache = minuteQuotes(active.index, Math.floor(now / 60_000));
        const key = askedKey(request);
        // Validated only when the question is new this minute: a remembered answer was valid.
        return (
          cache.asked.get(key) ?? answer(active.index, cache, key, validateFields(request, RATE_CHECKS), now)
        );
      }
      return quoteOnceLoaded(active, request);
    },
  };

  async function quoteOnceLoaded(loading: Promise<ActiveGrid>, request: RateRequest): Promise<RatesQuote> {
    // Checked before waiting for the grid: an invalid request is a 400 whatever the grid, and a
    // destination out of zone or unknown needs none.
    const input = validateFields(request, RATE_CHECKS);
    if (input.destination.kind === 'out_of_zone') return OUT_OF_ZONE;
    if (input.destination.kind === 'unknown_postcode') return UNKNOWN_POSTCODE;
    const { index } = await loading;
    const now = millis();
    const cache = minuteQuotes(index, Math.floor(now / 60_000));
    return answer(index, cache, askedKey(request), input, now);
  }

  function answer(index: GridIndex, cache: MinuteQuotes, asked: string, input: RateInput, now: number) {
    let quote: RatesQuote;
    // Out of zone or unknown postcode is an answer, not an error: the grid does not price it.
    if (input.destination.kind === 'out_of_zone') quote = OUT_OF_ZONE;
    else if (input.destination.kind === 'unknown_postcode') quote = UNKNOWN_POSTCODE;
    else {
      const key = `${input.destination.zone}|${input.unitType}|${input.weightGrams}|${input.quantity}`;
      const known = cache.quotes.get(key);
      quote = known ?? deepFreeze(quoteRates({ grid: index, ...input, now: new Date(now) }));
      if (known === undefined && cache.quotes.size < MAX_CACHED_QUOTES) cache.quotes.set(key, quote);
    }
    if (cache.asked.size < MAX_CACHED_QUOTES) cache.asked.set(asked, quote);
    return quote;
  }
}
