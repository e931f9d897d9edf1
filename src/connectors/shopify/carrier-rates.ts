import type { RateService } from '../../domain/rates/rate-service.ts';
import { isAppError } from '../../errors.ts';
import type { ConnectorDirectory } from '../connector-directory.ts';
import { type ShopifyItem, shopifyUnits } from './order-mapping.ts';

/** The `rate` of Shopify's carrier-service request (the members we read). */
export interface ShopifyRateRequest {
  rate?: {
    destination?: {
      country?: string | null;
      postal_code?: string | null;
      city?: string | null;
      address1?: string | null;
      address2?: string | null;
    } | null;
    items?: ShopifyItem[] | null;
    currency?: string | null;
  } | null;
}

export interface ShopifyRate {
  service_name: string;
  service_code: string;
  total_price: string;
  currency: 'EUR';
  description: string;
  min_delivery_date: string;
  max_delivery_date: string;
}

const NO_RATES: { rates: ShopifyRate[] } = Object.freeze({
  rates: Object.freeze([]) as unknown as ShopifyRate[],
});

/**
 * Shopify's delivery dates are instants (`2013-04-12 14:48:45 -0400`); ours are Paris days. Noon UTC
 * falls on that same day in every timezone a French shop's buyers live in.
 */
const deliveryInstant = (day: string) => `${day} 12:00:00 +0000`;

/**
 * Live rates at checkout: the shop's brand's quote for the destination and the cart, from the very
 * function `POST /rates` uses, in Shopify's answer shape. Anything we cannot deliver (outside
 * France or our zone, an unknown postcode, an incomplete grid, a shop no longer linked) is no rate
 * at all, which Shopify shows as our service not being offered; never an error at checkout.
 */
export function shopifyCarrierRates(deps: {
  rates: RateService;
  directory: ConnectorDirectory;
  carrierName: string;
}) {
  return {
    async quote(shop: string, request: ShopifyRateRequest): Promise<{ rates: ShopifyRate[] }> {
      const found = deps.directory.brandOfShop('shopify', shop);
      const brandId = found instanceof Promise ? await found : found;
      const destination = request.rate?.destination;
      if (brandId === null || !destination) return NO_RATES;
      if (typeof destination.country === 'string' && destination.country.toUpperCase() !== 'FR')
        return NO_RATES;
      const zip = typeof destination.postal_code === 'string' ? destination.postal_code.trim() : '';
      if (zip === '') return NO_RATES;
      let quote: Awaited<ReturnType<RateService['quote']>>;
      try {
        quote = await deps.rates.quote(brandId, {
          delivery_zip: zip,
          ...shopifyUnits(request.rate?.items ?? []),
        });
      } catch (err) {
        // A cart we cannot price (too heavy, too many units…) is not offered, rather than failing checkout.
        if (isAppError(err) && err.status < 500) return NO_RATES;
        throw err;
      }
      return {
        rates: quote.rates.map((rate) => ({
          service_name: `${deps.carrierName} — ${rate.name}`,
          service_code: rate.service,
          total_price: String(Math.round(rate.price_eur * 100)),
          currency: 'EUR',
          description: rate.name,
          min_delivery_date: deliveryInstant(rate.promised_date),
          max_delivery_date: deliveryInstant(rate.promised_date),
        })),
      };
    },
  };
}
