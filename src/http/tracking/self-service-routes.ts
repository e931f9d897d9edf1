import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isIsoDate } from '../../domain/calendar/iso-date.ts';
import { ChoiceRefusal } from '../../domain/recipients/delivery-choices.ts';
import { CHANNELS, type Channel } from '../../domain/recipients/ports.ts';
import type { SelfService } from '../../domain/recipients/self-service.ts';
import { SelfServiceRefusal } from '../../domain/recipients/self-service-refusal.ts';
import type { TrackingKey } from '../../i18n/tracking.ts';
import { trackingWording } from '../../i18n/tracking.ts';
import type { RateLimiter } from '../../infra/rate-limit/token-bucket.ts';
import { type CookieSigner, safeEqual } from '../account/session-cookies.ts';
import type { SafeHtml as Html } from '../shared/html.ts';
import type { BrandLook, LayoutContext } from './views/layout.ts';
import {
  type ChoiceValues,
  choicesPage,
  closedPage,
  codeEntryPage,
  codeRequestPage,
  formatSelfServiceDay,
  type Notice,
  valuesOf,
} from './views/self-service-pages.ts';

/** The recipient's session once the code was right: sealed, bound to the order, 30 minutes. */
const RECIPIENT_COOKIE = 'dlv_recipient';
/** The self-service forms' CSRF token (double-submit: this signed cookie and the form's field). */
const TRACKING_CSRF_COOKIE = 'dlv_track_csrf';
const SESSION_SECONDS = 30 * 60;

interface SelfServiceRouteContext {
  selfService: SelfService;
  signer: CookieSigner;
  publicBaseUrl: string | null;
  /** The tracking pages' per-address limiter (every self-service request takes from it too). */
  pageLimiter: RateLimiter;
  /** Codes asked for and typed, per address: a stricter bucket on top of the per-order limits. */
  codeLimiter: RateLimiter;
  context(request: FastifyRequest): LayoutContext;
  sendPage(reply: FastifyReply, status: number, page: Html, styleNonce?: string | null): FastifyReply;
  /** The brand's logo and colour for its pages (brand-look.ts). */
  lookOf(brandId: string): Promise<BrandLook>;
  tooMany(retryAfterSeconds: number): Error;
}

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

const ROUTE = { config: { auth: 'none' as const }, schema: { hide: true } };

/** A form field as sent: '' when absent, the first when repeated, cut (the checks measure what is left). */
function field(request: FastifyRequest, name: string, max: number): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, max) : '';
}

const sessionContext = (orderId: number) => `${RECIPIENT_COOKIE}:${orderId}`;

/** A closed order's page: shown as it is (200), a refused form keeps its 403, any other refusal 422. */
const closedStatus = (status: number) => (status === 200 || status === 403 ? status : 422);

/**
 * The self-service routes under `/track/{token}` (decision 0007): `GET …/change` (choose a
 * channel, type the code, then the form), `POST …/code`, `POST …/verify`, `POST …/change`.
 * Server-rendered, no script; every POST carries the CSRF token and answers with a redirect when
 * it succeeds (post/redirect/get).
 */
export async function selfServiceRoutes(app: FastifyInstance, deps: SelfServiceRouteContext): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });

  const secure = (request: FastifyRequest) =>
    deps.publicBaseUrl?.startsWith('https://') === true || request.protocol === 'https';
  const cookieOptions = (request: TokenRequest) => ({
    path: `/track/${request.params.token}`,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: secure(request),
  });

  // Each bucket under its own key (a Redis limiter keeps one count per key, whatever its policy).
  const limited =
    (...limiters: RateLimiter[]) =>
    async (request: FastifyRequest) => {
      for (const limiter of limiters) {
        const key = limiter === deps.pageLimiter ? `track:${request.ip}` : `track-code:${request.ip}`;
        const decision = await limiter.take(key);
        if (!decision.allowed) throw deps.tooMany(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
      }
    };

  async function csrfOf(request: TokenRequest, reply: FastifyReply): Promise<string> {
    const existing = await deps.signer.unsign(request.cookies[TRACKING_CSRF_COOKIE]);
    if (existing) return existing;
    const token = randomBytes(24).toString('base64url');
    reply.setCookie(TRACKING_CSRF_COOKIE, await deps.signer.sign(token), cookieOptions(request));
    return token;
  }

  async function csrfValid(request: TokenRequest): Promise<boolean> {
    const expected = await deps.signer.unsign(request.cookies[TRACKING_CSRF_COOKIE]);
    const sent = field(request, '_csrf', 100);
    return expected !== null && sent !== '' && safeEqual(sent, expected);
  }

  /** Whether the request carries this order's recipient session, still valid. */
  async function signedIn(request: TokenRequest, orderId: number): Promise<boolean> {
    const opened = await deps.signer.open(request.cookies[RECIPIENT_COOKIE], sessionContext(orderId));
    if (!opened) return false;
    const [id, until] = opened.split(':');
    return id === String(orderId) && Number(until) > Date.now();
  }

  const base = (request: TokenRequest) => `/track/${request.params.token}`;
  const changeUrl = (request: TokenRequest, query = '') => {
    const lang = deps.context(request).lang;
    return `${base(request)}/change?lang=${lang}${query}`;
  };

  /** The first step's page (or the code's), with a notice. */
  async function codePage(
    request: TokenRequest,
    reply: FastifyReply,
    status: number,
    notice: Notice,
    sentBy: Channel | null,
  ) {
    const ctx = deps.context(request);
    const door = await deps.selfService.door(request.params.token);
    const look = await deps.lookOf(door.brandId);
    const nonce = look.colour?.nonce ?? null;
    const view = {
      brandName: door.brandName,
      look,
      trackingRef: door.trackingRef,
      base: base(request),
      csrf: await csrfOf(request, reply),
    };
    if (!door.open) return deps.sendPage(reply, closedStatus(status), closedPage(ctx, view), nonce);
    const page =
      sentBy !== null
        ? codeEntryPage(ctx, { ...view, sentBy, channels: door.channels, notice })
        : codeRequestPage(ctx, { ...view, channels: door.channels, notice });
    return deps.sendPage(reply, status, page, nonce);
  }

  async function formPage(
    request: TokenRequest,
    reply: FastifyReply,
    status: number,
    notice: Notice,
    typed?: { values: ChoiceValues; problems: ReadonlyMap<string, TrackingKey> },
  ) {
    const ctx = deps.context(request);
    const form = await deps.selfService.form(request.params.token);
    const look = await deps.lookOf(form.brandId);
    const nonce = look.colour?.nonce ?? null;
    const view = {
      brandName: form.brandName,
      look,
      trackingRef: form.trackingRef,
      base: base(request),
      csrf: await csrfOf(request, reply),
    };
    if (!form.open) return deps.sendPage(reply, closedStatus(status), closedPage(ctx, view), nonce);
    return deps.sendPage(
      reply,
      status,
      choicesPage(ctx, {
        ...view,
        promisedDate: form.promisedDate,
        days: form.days,
        values: typed?.values ?? valuesOf(form.choices),
        problems: typed?.problems ?? new Map(),
        notice,
      }),
      nonce,
    );
  }

  const refusalNotice = (request: FastifyRequest, refusal: SelfServiceRefusal): Notice => ({
    tone: 'error',
    text: trackingWording(deps.context(request).lang)(`self.refused.${refusal.reason}`, {
      tries: refusal.triesLeft ?? 0,
    }),
  });

  const csrfRefused = (request: TokenRequest, reply: FastifyReply, signed: boolean) => {
    const notice: Notice = {
      tone: 'error',
      text: trackingWording(deps.context(request).lang)('self.refused.csrf'),
    };
    return signed ? formPage(request, reply, 403, notice) : codePage(request, reply, 403, notice, null);
  };

  app.get<{ Params: { token: string } }>(
    '/:token/change',
    { ...ROUTE, onRequest: limited(deps.pageLimiter) },
    async (request, reply) => {
      const door = await deps.selfService.door(request.params.token);
      const query = request.query as Record<string, unknown>;
      if (await signedIn(request, door.orderId)) {
        const t = trackingWording(deps.context(request).lang);
        // Only a real calendar date is worded (the query is the reader's to edit).
        const day = typeof query.day === 'string' && isIsoDate(query.day) ? query.day : null;
        const notice: Notice =
          query.saved === '1'
            ? {
                tone: 'done',
                text: day
                  ? t('self.savedRescheduled', { day: formatSelfServiceDay(deps.context(request).lang, day) })
                  : t('self.saved'),
              }
            : null;
        return formPage(request, reply, 200, notice);
      }
      const sent = CHANNELS.find((c) => c === query.sent) ?? null;
      return codePage(request, reply, 200, null, sent);
    },
  );

  // The pages a POST answers with (a refused code) switch language by a link to their own URL:
  // a GET there goes back to the self-service's page, in the language asked.
  for (const path of ['/:token/code', '/:token/verify'])
    app.get<{ Params: { token: string } }>(
      path,
      { ...ROUTE, onRequest: limited(deps.pageLimiter) },
      async (request, reply) => {
        await deps.selfService.door(request.params.token);
        return reply.redirect(changeUrl(request), 303);
      },
    );

  app.post<{ Params: { token: string } }>(
    '/:token/code',
    { ...ROUTE, onRequest: limited(deps.pageLimiter, deps.codeLimiter) },
    async (request, reply) => {
      if (!(await csrfValid(request))) return csrfRefused(request, reply, false);
      const channel = CHANNELS.find((c) => c === field(request, 'channel', 10));
      try {
        if (!channel) throw new SelfServiceRefusal('no_address');
        await deps.selfService.sendCode(request.params.token, channel, deps.context(request).lang);
      } catch (err) {
        if (!(err instanceof SelfServiceRefusal)) throw err;
        return codePage(request, reply, err.status, refusalNotice(request, err), null);
      }
      return reply.redirect(changeUrl(request, `&sent=${channel}`), 303);
    },
  );

  app.post<{ Params: { token: string } }>(
    '/:token/verify',
    { ...ROUTE, onRequest: limited(deps.pageLimiter, deps.codeLimiter) },
    async (request, reply) => {
      if (!(await csrfValid(request))) return csrfRefused(request, reply, false);
      let orderId: number;
      try {
        orderId = await deps.selfService.verifyCode(request.params.token, field(request, 'code', 20));
      } catch (err) {
        if (!(err instanceof SelfServiceRefusal)) throw err;
        // A wrong code may be typed again (the page says again where it went); a burnt, expired or
        // missing one needs a new code first.
        const sentBy = CHANNELS.find((c) => c === field(request, 'sent', 10)) ?? 'email';
        return codePage(
          request,
          reply,
          err.status,
          refusalNotice(request, err),
          err.reason === 'wrong_code' ? sentBy : null,
        );
      }
      const until = Date.now() + SESSION_SECONDS * 1000;
      reply.setCookie(
        RECIPIENT_COOKIE,
        await deps.signer.seal(`${orderId}:${until}`, sessionContext(orderId)),
        { ...cookieOptions(request), maxAge: SESSION_SECONDS },
      );
      return reply.redirect(changeUrl(request), 303);
    },
  );

  app.post<{ Params: { token: string } }>(
    '/:token/change',
    { ...ROUTE, onRequest: limited(deps.pageLimiter) },
    async (request, reply) => {
      const door = await deps.selfService.door(request.params.token);
      const signed = await signedIn(request, door.orderId);
      if (!(await csrfValid(request))) return csrfRefused(request, reply, signed);
      // Without the session (another order's cookie, an expired one), back to the code.
      if (!signed) return reply.redirect(changeUrl(request), 303);
      const values: ChoiceValues = {
        instructions: field(request, 'instructions', 5000),
        safePlace: field(request, 'safe_place', 50),
        safePlaceDetail: field(request, 'safe_place_detail', 5000),
        date: field(request, 'date', 20),
      };
      let rescheduled: boolean;
      try {
        ({ rescheduled } = await deps.selfService.change(request.params.token, values));
      } catch (err) {
        if (err instanceof ChoiceRefusal) {
          const problems = new Map(
            err.problems.map((p) => [p.field, `self.problem.${p.field}.${p.reason}` as TrackingKey]),
          );
          return formPage(request, reply, 400, null, { values, problems });
        }
        if (err instanceof SelfServiceRefusal)
          return formPage(request, reply, err.status, refusalNotice(request, err));
        throw err;
      }
      return reply.redirect(
        changeUrl(request, `&saved=1${rescheduled ? `&day=${values.date.trim()}` : ''}`),
        303,
      );
    },
  );
}
