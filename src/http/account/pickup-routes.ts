import type { FastifyInstance, FastifyReply } from 'fastify';
import { canCancelOrders } from '../../domain/accounts/account-orders.ts';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import { nextBusinessDay } from '../../domain/calendar/business-days.ts';
import { isIsoDate } from '../../domain/calendar/iso-date.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
import { DEFAULT_WINDOW } from '../../domain/pickups/pickup-day.ts';
import type { PickupService } from '../../domain/pickups/pickup-service.ts';
import type { Clock } from '../../domain/shared/clock.ts';
import { isAppError } from '../../errors.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { query, text } from './form.ts';
import { type PickupForm, pickupsPage } from './views/pickup-pages.ts';
import type { MessageKey } from './words.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const FIELDS = {
  date: { name: 'date', label: 'pickups.date' },
  'window.start': { name: 'window_start', label: 'pickups.windowStart' },
  'window.end': { name: 'window_end', label: 'pickups.windowEnd' },
} as const;

/** The refusals of a day the form words in the reader's language (the API's message is English). */
const DAY_REFUSALS = [
  'date_in_past',
  'not_a_business_day',
  'pickup_cutoff_passed',
  'no_pickup_address',
  'pickup_closed',
] as const;

/** What the pickups page uses. Asking for a collection is for those who may cancel orders (not finance). */
interface PickupRoutesContext {
  pickups: PickupService;
  brands: BrandService;
  clock: Clock;
}

/** `/account/pickups`: the brand's pickups with the missing parcels, their manifests, and a request form. */
export function pickupRoutes(
  app: FastifyInstance,
  deps: PickupRoutesContext,
  { context }: { context: PageContextOf },
): void {
  const page = async (brandId: string) => ({
    today: parisToday(deps.clock()),
    pickups: await deps.pickups.list(brandId, {}),
  });

  app.get('/pickups', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const asked = query(request, 'asked', 10);
    const data = await page(session.user.brandId);
    const form = { date: nextBusinessDay(data.today), ...DEFAULT_WINDOW };
    return sendPage(
      reply,
      pickupsPage(await context(request, reply), {
        ...data,
        canAsk: canCancelOrders(session.user.role),
        form,
        ...(isIsoDate(asked) ? { asked } : {}),
      }),
    );
  });

  app.post('/pickups', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const typed = (): PickupForm => ({
      date: text(request, 'date', 11),
      start: text(request, 'window_start', 6) || DEFAULT_WINDOW.start,
      end: text(request, 'window_end', 6) || DEFAULT_WINDOW.end,
    });
    if (!canCancelOrders(session.user.role)) {
      return reply.redirect('/account/pickups', 303);
    }
    try {
      const form = typed();
      const brand = await deps.brands.get(session.user.brandId);
      await deps.pickups.request(brand, { date: form.date, window: { start: form.start, end: form.end } });
      return reply.redirect(`/account/pickups?asked=${form.date}`, 303);
    } catch (err) {
      const ctx = await context(request, reply);
      let errors: Record<string, string>;
      const code = isAppError(err)
        ? (DAY_REFUSALS as readonly string[]).find((c) => c === err.code)
        : undefined;
      if (code) {
        const date = isIsoDate(typed().date) ? typed().date : parisToday(deps.clock());
        const key = `pickups.error.${code}` as MessageKey;
        errors = { date: ctx.t(key, { next: nextBusinessDay(date) }) };
      } else {
        errors = fieldErrors(err, ctx, FIELDS);
      }
      const data = await page(session.user.brandId);
      return sendPage(reply, pickupsPage(ctx, { ...data, canAsk: true, form: typed(), errors }), 400);
    }
  });

  app.get('/pickups/:id/manifest', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const { pickup, pdf } = await deps.pickups.manifest(
      session.user.brandId,
      (request.params as { id: string }).id,
    );
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="manifest-${pickup.date}-${pickup.id}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
