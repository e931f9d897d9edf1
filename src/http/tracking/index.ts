import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Pool } from '../../db/pool.ts';
import { serverSecretsRepository } from '../../db/repositories/server-secrets-repository.ts';
import type { ArrivalTimes } from '../../domain/arrivals/arrival-service.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { ProofService } from '../../domain/proofs/proof-service.ts';
import { isOpenForChanges } from '../../domain/recipients/delivery-choices.ts';
import type { SelfService } from '../../domain/recipients/self-service.ts';
import type { RecipientSettingsService } from '../../domain/recipients/settings-service.ts';
import { AppError } from '../../errors.ts';
import { negotiateLocale } from '../../i18n/locales.ts';
import type { RedisHealth } from '../../infra/rate-limit/redis-health.ts';
import { redisRateLimiter } from '../../infra/rate-limit/redis-rate-limiter.ts';
import {
  type BucketPolicy,
  memoryRateLimiter,
  type RateLimiter,
} from '../../infra/rate-limit/token-bucket.ts';
import { cookieSigner } from '../account/session-cookies.ts';
import { toAppError } from '../shared/errors.ts';
import { type SafeHtml as Html, toText } from '../shared/html.ts';
import { admitStyleNonce, brandLook, LOGO_FILE } from './brand-look.ts';
import { selfServiceRoutes } from './self-service-routes.ts';
import type { LayoutContext } from './views/layout.ts';
import { messagePage } from './views/message-page.ts';
import { trackingPage } from './views/tracking-page.ts';

export const TRACKING_PREFIX = '/track';

/**
 * Per client address: a recipient reloads now and then; someone trying tokens gets 30 at once,
 * then one a second, whatever the answers (404s count too, or guessing would be free).
 */
const TRACKING_RATE_LIMIT: BucketPolicy = { perSecond: 1, burst: 30 };
/**
 * Per client address, on asking for a code and typing one: 20 at once, then one every 30 s. The
 * per-order limits (5 codes a day, 5 tries a code) hold whatever the address.
 */
const CODE_RATE_LIMIT: BucketPolicy = { perSecond: 1 / 30, burst: 20 };

const CSS = readFileSync(new URL('./assets/tracking.css', import.meta.url));
// Cached for a year: its URL changes with its content.
export const STYLESHEET = `${TRACKING_PREFIX}/assets/tracking.css?v=${createHash('sha256').update(CSS).digest('hex').slice(0, 12)}`;

// Not part of the API: hidden from the OpenAPI documents, public (the token is the credential).
const ROUTE = { config: { auth: 'none' as const }, schema: { hide: true } };

function context(request: FastifyRequest): LayoutContext {
  const lang = negotiateLocale(request.headers['accept-language'], {
    asked: (request.query as { lang?: unknown } | undefined)?.lang,
    fallback: 'fr',
  });
  return { lang, stylesheet: STYLESHEET };
}

function sendPage(
  reply: FastifyReply,
  status: number,
  page: Html,
  styleNonce: string | null = null,
): FastifyReply {
  if (styleNonce) admitStyleNonce(reply, styleNonce);
  // The language follows Accept-Language: a shared cache must not serve one reader's to another.
  return reply
    .status(status)
    .header('vary', 'accept-language')
    .type('text/html; charset=utf-8')
    .send(toText(page));
}

/** The 404 page, also for what the router refuses before routing (an overlong token). */
export function sendTrackingNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendPage(reply, 404, messagePage(context(request), 'notFound'));
}

function tooMany(retryAfterSeconds: number) {
  return Object.assign(new AppError('rate_limited', 'Too many tracking requests.'), { retryAfterSeconds });
}

/** What the tracking pages use. */
interface TrackingContext {
  config: Config;
  orders: OrderService;
  proofs: Pick<ProofService, 'forTracking'>;
  recipientSettings: Pick<RecipientSettingsService, 'get' | 'logo'>;
  redisHealth: RedisHealth;
  /** The tracking cookies' key (server_secrets `tracking_cookie_key`). */
  pool: Pool;
  selfService: SelfService;
  /** The order's window and the stops before it (read only: a page view estimates nothing). */
  arrivals: Pick<ArrivalTimes, 'arrivalOf'>;
}

/** The recipients' tracking page (`/track/{token}`): server-rendered HTML, no account, no script. */
export function trackingPages(deps: TrackingContext) {
  return async (app: FastifyInstance) => {
    const bucketsOf = (policy: BucketPolicy): RateLimiter =>
      deps.config.redisUrl
        ? redisRateLimiter(deps.config.redisUrl, policy, deps.redisHealth)
        : memoryRateLimiter(policy);
    const limiter = bucketsOf(TRACKING_RATE_LIMIT);
    const codeLimiter = bucketsOf(CODE_RATE_LIMIT);
    app.addHook('onClose', async () => {
      await limiter.close();
      await codeLimiter.close();
    });

    app.setNotFoundHandler(sendTrackingNotFound);
    app.setErrorHandler((err, request, reply) => {
      const error = toAppError(err as Error);
      if (error.code === 'not_found') return sendTrackingNotFound(request, reply);
      if (error.code === 'rate_limited') {
        const seconds = (err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 1;
        reply.header('retry-after', String(seconds));
        return sendPage(reply, 429, messagePage(context(request), 'tooMany', seconds));
      }
      if (error.status >= 500) request.log.error({ err }, 'tracking page failed');
      return sendPage(
        reply,
        error.status >= 500 ? error.status : 400,
        messagePage(context(request), 'error'),
      );
    });

    app.get('/assets/tracking.css', ROUTE, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type('text/css; charset=utf-8')
        .send(CSS),
    );

    // The brand's logo (re-encoded by the service, never the uploaded bytes). Its URL carries its
    // SHA-256: another digest, an old one or another brand's is a 404; its own never changes.
    app.get<{ Params: { brandId: string; file: string } }>(
      '/assets/logo/:brandId/:file',
      {
        ...ROUTE,
        // Its own bucket: a page's logo must not spend the page's requests.
        onRequest: async (request) => {
          const decision = await limiter.take(`track-logo:${request.ip}`);
          if (!decision.allowed) throw tooMany(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
        },
      },
      async (request, reply) => {
        const sha = LOGO_FILE.exec(request.params.file)?.[1];
        const png = sha ? await deps.recipientSettings.logo(request.params.brandId, sha) : null;
        if (!png) return sendTrackingNotFound(request, reply);
        return reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .type('image/png')
          .send(png);
      },
    );

    app.get<{ Params: { token: string } }>(
      '/:token',
      {
        ...ROUTE,
        onRequest: async (request) => {
          const decision = await limiter.take(`track:${request.ip}`);
          if (!decision.allowed) throw tooMany(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
        },
      },
      async (request, reply) => {
        const { order, brandName } = await deps.orders.track(request.params.token);
        // Only a delivered order has a delivery to show (its time, and its photo if the brand allows).
        const proof = order.status === 'delivered' ? await deps.proofs.forTracking(order.id) : null;
        const look = brandLook(await deps.recipientSettings.get(order.brandId));
        const arrival =
          order.status === 'out_for_delivery'
            ? await deps.arrivals.arrivalOf(order.id, { estimate: false })
            : null;
        const page = trackingPage(context(request), {
          look,
          arrival,
          // The self-service's door, while the delivery can still be changed (decision 0007).
          changeUrl: isOpenForChanges(order.status)
            ? `${TRACKING_PREFIX}/${request.params.token}/change`
            : null,
          proof,
          brandName,
          trackingRef: order.trackingRef,
          status: order.status,
          livemode: order.livemode,
          promisedDate: order.promisedDate,
          postcode: order.deliveryPostcode,
          city: order.deliveryCity,
          events: order.events,
        });
        return sendPage(reply, 200, page, look.colour?.nonce ?? null);
      },
    );

    await selfServiceRoutes(app, {
      selfService: deps.selfService,
      signer: cookieSigner(() => serverSecretsRepository(deps.pool).getOrCreate('tracking_cookie_key')),
      publicBaseUrl: deps.config.publicBaseUrl,
      pageLimiter: limiter,
      codeLimiter,
      context,
      sendPage,
      lookOf: async (brandId) => brandLook(await deps.recipientSettings.get(brandId)),
      tooMany,
    });
  };
}
