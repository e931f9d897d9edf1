import { invalidField, validateFields } from '../../errors.ts';
import { hasDestination, resolveDestination } from '../coverage/destination.ts';
import type { GridService } from '../pricing/grid-service.ts';
import { DEFAULT_UNIT_TYPE, parseQuantity, parseUnitType, parseWeightGrams } from '../pricing/units.ts';
import { quoteRates, type RatesQuote } from './quote-rates.ts';

export interface RateRequest {
  delivery_address?: string;
  delivery_zip?: string;
  unit_type?: string;
  quantity?: number;
  unit_weight?: string | number;
}

export const DEFAULT_UNIT_WEIGHT = '1kg';

// Defined once: quoting is the hottest route and these run on every call.
const RATE_CHECKS = {
  destination: (request: RateRequest) => {
    const given = { deliveryZip: request.delivery_zip, deliveryAddress: request.delivery_address };
    if (!hasDestination(given)) {
      throw invalidField('delivery_zip', 'give delivery_zip or delivery_address (a destination is required)');
    }
    return resolveDestination(given);
  },
  unitType: (request: RateRequest) => parseUnitType(request.unit_type ?? DEFAULT_UNIT_TYPE),
  weightGrams: (request: RateRequest) => parseWeightGrams(request.unit_weight ?? DEFAULT_UNIT_WEIGHT),
  quantity: (request: RateRequest) => parseQuantity(request.quantity ?? 1),
};

/** `POST /rates`: which services, prices and dates the brand's grid offers for a destination. */
export function rateService(grids: GridService, clock: () => Date) {
  return {
    async quote(brandId: string, request: RateRequest): Promise<RatesQuote> {
      const input = validateFields(request, RATE_CHECKS);
      // Out of zone or unknown postcode is an answer, not an error: no grid needed for it.
      if (input.destination.kind !== 'in_zone') return { available: false, rates: [] };
      const grid = await grids.gridFor(brandId);
      return quoteRates({ grid: grid.index, ...input, now: clock() });
    },
  };
}

export type RateService = ReturnType<typeof rateService>;
