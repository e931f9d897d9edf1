import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import { resolveDestination } from '../../domain/coverage/destination.ts';
import type { RateRequest, RateService } from '../../domain/rates/rate-service.ts';
import { fieldProblem } from '../../errors.ts';
import { publicServerUrl } from '../public/server-url.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { asked, query } from './form.ts';
import { type RatesForm, ratesPage } from './views/rates-page.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const DESTINATION = { name: 'to', label: 'rates.address' } as const;
const RATE_FIELDS = {
  delivery_zip: DESTINATION,
  delivery_address: DESTINATION,
  unit_type: { name: 'unit_type', label: 'rates.unitType' },
  unit_weight: { name: 'unit_weight', label: 'rates.unitWeight' },
  quantity: { name: 'quantity', label: 'rates.quantity' },
} as const;

/**
 * The form as `POST /rates` would receive it: digits alone are a postcode (`delivery_zip`),
 * anything else an address; a blank field is left out, so the API's defaults apply.
 */
function rateRequestOf(form: RatesForm): RateRequest {
  if (form.to.length > 500) throw fieldProblem('delivery_address', 'length.atMost', { max: 500 });
  const to = form.to.trim();
  const request: RateRequest = /^[\d\s]+$/.test(to) ? { delivery_zip: to } : { delivery_address: to };
  if (form.unit_type.trim() !== '') request.unit_type = form.unit_type;
  if (form.unit_weight.trim() !== '') request.unit_weight = form.unit_weight;
  const quantity = form.quantity.trim();
  // Not an integer: NaN, which the service refuses with its own message.
  if (quantity !== '') request.quantity = /^\d{1,9}$/.test(quantity) ? Number(quantity) : Number.NaN;
  return request;
}

/** What the rates page uses (it shows the API's address). */
interface RatesRoutesContext {
  rates: RateService;
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>;
}

/**
 * `/account/rates`: the brand's own quote, from the very service `POST /rates` calls. Every role
 * may use it: finance people check invoices against these negotiated prices.
 */
export function ratesRoutes(
  app: FastifyInstance,
  deps: RatesRoutesContext,
  { context }: { context: PageContextOf },
): void {
  app.get('/rates', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const ctx = await context(request, reply);
    const apiBaseUrl = publicServerUrl(deps);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typed = (): RatesForm => ({
      to: query(request, 'to', 501),
      unit_type: query(request, 'unit_type', 30) || 'parcel',
      unit_weight: query(request, 'unit_weight', 30),
      quantity: query(request, 'quantity', 10),
    });
    try {
      const values = typed();
      if (!asked(request, 'to')) return sendPage(reply, ratesPage(ctx, { values }, apiBaseUrl));
      const body = rateRequestOf(values);
      const quote = await deps.rates.quote(session.user.brandId, body);
      // Only to say why a quote is unavailable (out of zone, unknown, or the grid's gap).
      const destination = resolveDestination({
        deliveryZip: body.delivery_zip,
        deliveryAddress: body.delivery_address,
      });
      return sendPage(reply, ratesPage(ctx, { values, result: { quote, destination, body } }, apiBaseUrl));
    } catch (err) {
      const errors = fieldErrors(err, ctx, RATE_FIELDS);
      return sendPage(reply, ratesPage(ctx, { values: typed(), errors }, apiBaseUrl), 400);
    }
  });
}
