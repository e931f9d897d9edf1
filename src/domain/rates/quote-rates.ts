import { promisedDate } from '../calendar/promised-date.ts';
import type { Destination } from '../coverage/destination.ts';
import type { GridIndex } from '../pricing/grid.ts';
import { priceFor } from '../pricing/grid.ts';
import { centsToEuros, VAT_RATE } from '../pricing/money.ts';
import { SERVICE_CODES, SERVICES, type ServiceCode } from '../pricing/services.ts';
import type { UnitType } from '../pricing/units.ts';

/** One offer of `POST /rates`, already in its JSON shape (SPEC §7). */
interface Rate {
  service: ServiceCode;
  name: string;
  price_eur: number;
  price_excl_tax_eur: number;
  vat_rate: number;
  currency: 'EUR';
  delay_business_days: number;
  promised_date: string;
}

export interface QuoteRatesInput {
  grid: GridIndex;
  destination: Destination;
  unitType: UnitType;
  /** Per unit, already parsed. */
  weightGrams: number;
  quantity: number;
  now: Date;
}

/**
 * Why a quote has no rate (extension `reason` of `POST /rates`), so a checkout can tell its shopper
 * the right thing: an address outside the delivery zone, a postcode that does not exist (a typo to
 * correct), or a brand grid that prices no service, or not every one, for this zone and load (the
 * brand's business, not the shopper's).
 */
export const UNAVAILABLE_REASONS = ['out_of_zone', 'unknown_postcode', 'incomplete_grid'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

export type RatesQuote =
  | { available: true; rates: Rate[] }
  | { available: false; rates: Rate[]; reason: UnavailableReason };

/** The answer without rates, for `reason`. */
export const unavailable = (reason: UnavailableReason): RatesQuote => ({
  available: false,
  rates: [],
  reason,
});

/**
 * Every service the grid offers, priced for this destination and load, cheapest first; at equal
 * price the faster service first. An unknown or out-of-zone destination is not an error here, nor
 * an incomplete grid — one where any service it offers has no price for this zone, unit type and
 * weight: the answer is simply `available: false` with no rates (SPEC §7) and its `reason`, rather
 * than a partial list a checkout would take for the brand's whole offer.
 */
export function quoteRates(input: QuoteRatesInput): RatesQuote {
  const { destination } = input;
  if (destination.kind !== 'in_zone') return unavailable(destination.kind);

  const priced: Array<{ rate: Rate; inclCents: number; rank: number }> = [];
  for (const service of input.grid.services) {
    const price = priceFor(input.grid, {
      service,
      zone: destination.zone,
      unitType: input.unitType,
      weightGrams: input.weightGrams,
      quantity: input.quantity,
    });
    if (!price) return unavailable('incomplete_grid');
    const info = SERVICES[service];
    priced.push({
      inclCents: price.inclTaxCents,
      rank: SERVICE_CODES.indexOf(service),
      rate: {
        service,
        name: info.name,
        price_eur: centsToEuros(price.inclTaxCents),
        price_excl_tax_eur: centsToEuros(price.exclTaxCents),
        vat_rate: VAT_RATE,
        currency: 'EUR',
        delay_business_days: info.delayBusinessDays,
        promised_date: promisedDate(service, input.now),
      },
    });
  }
  priced.sort((a, b) => a.inclCents - b.inclCents || a.rank - b.rank);
  const rates = priced.map((p) => p.rate);
  // A grid offering no service at all prices nothing: incomplete too.
  return rates.length > 0 ? { available: true, rates } : unavailable('incomplete_grid');
}
