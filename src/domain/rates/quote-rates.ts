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

export interface RatesQuote {
  available: boolean;
  rates: Rate[];
}

/**
 * Every service the grid offers, priced for this destination and load, cheapest first; at equal
 * price the faster service first. An unknown or out-of-zone destination is not an error here, nor
 * an incomplete grid — one where any service it offers has no price for this zone, unit type and
 * weight: the answer is simply `available: false` with no rates (SPEC §7), rather than a partial
 * list a checkout would take for the brand's whole offer.
 */
export function quoteRates(input: QuoteRatesInput): RatesQuote {
  const { destination } = input;
  if (destination.kind !== 'in_zone') return { available: false, rates: [] };

  const priced: Array<{ rate: Rate; inclCents: number; rank: number }> = [];
  for (const service of input.grid.services) {
    const price = priceFor(input.grid, {
      service,
      zone: destination.zone,
      unitType: input.unitType,
      weightGrams: input.weightGrams,
      quantity: input.quantity,
    });
    if (!price) return { available: false, rates: [] };
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
  return { available: rates.length > 0, rates };
}
