import type { FastifyReply } from 'fastify';
import type { RatesQuote } from '../../../../domain/rates/quote-rates.ts';
import type { RateService } from '../../../../domain/rates/rate-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { sendJsonText } from '../../../shared/json-text.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { RatesRequest, RatesResponse } from '../../../shared/schemas/rates.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

const serialized = new WeakMap<RatesQuote, Buffer>();

/**
 * The service hands out the same (frozen) quote for the same question within a minute, so its JSON
 * is kept with it, as UTF-8 bytes, and sent as is: no serializer run and no re-encoding (the
 * services' names carry a non-Latin-1 dash, which makes the text a two-byte string).
 */
function send(reply: FastifyReply, quote: RatesQuote): void {
  let body = serialized.get(quote);
  if (body === undefined) {
    body = Buffer.from(JSON.stringify({ ok: true, ...quote }));
    serialized.set(quote, body);
  }
  sendJsonText(reply, body);
}

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
    // Not an async function: with the brand's grid in memory the quote is there at once, and the
    // answer goes out without a promise or a turn of the microtask queue (this route is the hot one).
    // The reply is sent here, so nothing is returned (or a promise of nothing, when the grid loads).
    (request, reply) => {
      const quote = deps.rates.quote(principalOf(request).brand.id, request.body);
      if (quote instanceof Promise) return quote.then((q) => send(reply, q));
      send(reply, quote);
    },
  );
}
