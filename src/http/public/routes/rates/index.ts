import type { RatesQuote } from '../../../../domain/rates/quote-rates.ts';
import type { RateService } from '../../../../domain/rates/rate-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { sendJsonText } from '../../../shared/json-text.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { RatesRequest, RatesResponse } from '../../../shared/schemas/rates.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

const serialized = new WeakMap<RatesQuote, string>();

/** What the rates route uses. */
interface RatesRouteContext {
  rates: RateService;
}

export function postRatesRoute(app: TypedApp, deps: RatesRouteContext): void {
  app.post(
    '/rates',
    {
      config: { auth: 'any' },
      schema: {
        operationId: 'quoteRates',
        summary: 'Delivery services, prices and dates for a destination',
        description:
          "Prices come from the brand's negotiated grid (else the default grid). An out-of-zone or unknown destination, " +
          'or one no service is priced for, answers 200 with `available: false`, no rates and (**extension**) its ' +
          '`reason`: `out_of_zone`, `unknown_postcode` or `incomplete_grid`. ' +
          'A quote is a read (nothing is written, asking again is always safe): it takes no `Idempotency-Key`, ' +
          'and one sent is ignored.',
        tags: ['Rates'],
        body: RatesRequest,
        response: { 200: RatesResponse, ...errorResponses([400, 401, 413, 415, 429]) },
      },
    },
    async (request, reply) => {
      const quote = await deps.rates.quote(principalOf(request).brand.id, request.body);
      // The service hands out the same (frozen) quote for the same question within a minute, so
      // its JSON is kept with it and sent as is.
      let body = serialized.get(quote);
      if (body === undefined) {
        body = JSON.stringify({ ok: true, ...quote });
        serialized.set(quote, body);
      }
      return sendJsonText(reply, body);
    },
  );
}
