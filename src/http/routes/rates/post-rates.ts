import type { Deps } from '../../../deps.ts';
import type { PublicApp } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { RatesRequest, RatesResponse } from '../../schemas/rates.ts';
import { errorResponses } from '../../schemas/shared.ts';

export function postRatesRoute(app: PublicApp, deps: Deps): void {
  app.post(
    '/rates',
    {
      config: { auth: 'any' },
      schema: {
        operationId: 'quoteRates',
        summary: 'Delivery services, prices and dates for a destination',
        description:
          "Prices come from the brand's negotiated grid (else the default grid). An out-of-zone or unknown destination, " +
          'or one no service is priced for, answers 200 with `available: false` and no rates.',
        tags: ['Rates'],
        body: RatesRequest,
        response: { 200: RatesResponse, ...errorResponses([400, 401, 413, 415, 429]) },
      },
    },
    async (request) => {
      const quote = await deps.rates.quote(principalOf(request).brand.id, request.body);
      return { ok: true as const, ...quote };
    },
  );
}
