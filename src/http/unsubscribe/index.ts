import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Unsubscribes } from '../../domain/recipients/unsubscribe-service.ts';
import { AppError } from '../../errors.ts';
import { negotiateLocale } from '../../i18n/locales.ts';
import type { RedisHealth } from '../../infra/rate-limit/redis-health.ts';
import { redisRateLimiter } from '../../infra/rate-limit/redis-rate-limiter.ts';
import { type BucketPolicy, memoryRateLimiter } from '../../infra/rate-limit/token-bucket.ts';
import { toAppError } from '../shared/errors.ts';
import { type SafeHtml as Html, toText } from '../shared/html.ts';
import { STYLESHEET } from '../tracking/index.ts';
import type { LayoutContext } from '../tracking/views/layout.ts';
import { messagePage } from '../tracking/views/message-page.ts';
import { type UnsubscribeView, unsubscribePage } from './unsubscribe-page.ts';

export const UNSUBSCRIBE_PREFIX = '/unsubscribe';

/** Per client address, as the tracking page: 30 at once, then one a second (wrong tokens count too). */
const UNSUBSCRIBE_RATE_LIMIT: BucketPolicy = { perSecond: 1, burst: 30 };

/** A form of one or two short fields: anything bigger is not ours. */
const BODY_LIMIT = 2048;

// Not part of the API: hidden from the OpenAPI documents, public (the token is the credential).
const ROUTE = { config: { auth: 'none' as const }, schema: { hide: true }, bodyLimit: BODY_LIMIT };

function context(request: FastifyRequest): LayoutContext {
  const lang = negotiateLocale(request.headers['accept-language'], {
    asked: (request.query as { lang?: unknown } | undefined)?.lang,
    fallback: 'fr',
  });
  return { lang, stylesheet: STYLESHEET };
}

function sendPage(reply: FastifyReply, status: number, page: Html): FastifyReply {
  return reply
    .status(status)
    .header('vary', 'accept-language')
    .type('text/html; charset=utf-8')
    .send(toText(page));
}

const page = (request: FastifyRequest, reply: FastifyReply, status: number, view: UnsubscribeView) =>
  sendPage(reply, status, unsubscribePage(context(request), view));

/** The page of a link that is not ours, also for what the router refuses before routing (an overlong token). */
export const sendUnsubscribeNotFound = (request: FastifyRequest, reply: FastifyReply) =>
  page(request, reply, 404, { kind: 'invalid' });

/**
 * multipart/form-data (RFC 8058 §3.2: how one-click POSTs SHOULD come) read by @fastify/multipart
 * (busboy) into `request.body` as the url-encoded forms are: a few short text fields and no file.
 * A file part, a body past the limits or one cut before its closing delimiter is not a form: 400.
 */
async function readMultipartFields(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyMultipart, {
    limits: { files: 0, fields: 4, fieldSize: 100, fieldNameSize: 100, parts: 4, headerPairs: 10 },
  });
  scope.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    // The parser streams and keeps only the parts the limits allow: a declared length past ours is
    // refused here, as the url-encoded parser refuses it (a chunked body ends by REQUEST_TIMEOUT_MS).
    if (Number(request.headers['content-length']) > BODY_LIMIT)
      throw new AppError('invalid_request', 'The unsubscribe form is too large.');
    const fields: Record<string, string> = {};
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') throw new AppError('invalid_request', 'A file in an unsubscribe form.');
        fields[part.fieldname] = String(part.value);
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('invalid_request', 'The unsubscribe form could not be read (malformed multipart).');
    }
    request.body = fields;
  });
}

/** What the unsubscribe pages use. */
interface UnsubscribeContext {
  config: Config;
  unsubscribes: Unsubscribes;
  redisHealth: RedisHealth;
}

/**
 * `/unsubscribe/{token}` (decision 0007): the link of every recipient e-mail and its
 * `List-Unsubscribe` header. GET shows one button; POST opts the address out at once, for every
 * brand: with `List-Unsubscribe=One-Click` (a mail client, RFC 8058: no cookie, no CSRF token, no
 * redirect followed) or the page's form (then redirected to the page, which says it is done).
 */
export function unsubscribePages(deps: UnsubscribeContext) {
  return async (app: FastifyInstance) => {
    await app.register(fastifyFormbody, { bodyLimit: BODY_LIMIT });
    await readMultipartFields(app);
    const limiter = deps.config.redisUrl
      ? redisRateLimiter(deps.config.redisUrl, UNSUBSCRIBE_RATE_LIMIT, deps.redisHealth)
      : memoryRateLimiter(UNSUBSCRIBE_RATE_LIMIT);
    app.addHook('onClose', () => limiter.close());
    // Only links that are not ours count against an address: the one-click POSTs of a mailbox
    // provider come from a few of its servers for all of its users, and each must go through; a
    // genuine link costs one HMAC and an idempotent insert, while guessing tokens is what the
    // limit stops.
    app.addHook('preHandler', async (request) => {
      const token = (request.params as { token?: unknown } | undefined)?.token;
      if (typeof token === 'string' && (await deps.unsubscribes.isOurs(token))) return;
      const decision = await limiter.take(`unsubscribe:${request.ip}`);
      if (!decision.allowed) {
        throw Object.assign(new AppError('rate_limited', 'Too many unsubscribe requests.'), {
          retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
        });
      }
    });

    app.setNotFoundHandler(sendUnsubscribeNotFound);
    app.setErrorHandler((err, request, reply) => {
      const error = toAppError(err as Error);
      if (error.code === 'rate_limited') {
        const seconds = (err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 1;
        reply.header('retry-after', String(seconds));
        return sendPage(reply, 429, messagePage(context(request), 'tooMany', seconds));
      }
      if (error.status >= 500) request.log.error({ err }, 'unsubscribe page failed');
      const status =
        error.status >= 500 ? error.status : (err as { statusCode?: number }).statusCode === 415 ? 415 : 400;
      return sendPage(reply, status, messagePage(context(request), 'error'));
    });

    app.get<{ Params: { token: string } }>('/:token', ROUTE, async (request, reply) => {
      const state = await deps.unsubscribes.state(request.params.token);
      if (!state) return page(request, reply, 404, { kind: 'invalid' });
      if (state.optedOut) return page(request, reply, 200, { kind: 'done', channel: state.channel });
      return page(request, reply, 200, {
        kind: 'ask',
        channel: state.channel,
        action: `${UNSUBSCRIBE_PREFIX}/${request.params.token}`,
      });
    });

    app.post<{ Params: { token: string } }>('/:token', ROUTE, async (request, reply) => {
      const { token } = request.params;
      // A form (the page's, or a mail client's one-click); the app's JSON parser reaches here too.
      const type = (request.headers['content-type'] ?? '').toLowerCase();
      if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data'))
        return sendPage(reply, 415, messagePage(context(request), 'error'));
      const body = (request.body ?? {}) as Record<string, unknown>;
      const oneClick = body['List-Unsubscribe'] === 'One-Click';
      const confirmed = body.confirm === 'yes';
      if (!oneClick && !confirmed) {
        // Nothing recorded: the page again, with its button, and why.
        const state = await deps.unsubscribes.state(token);
        if (!state) return page(request, reply, 404, { kind: 'invalid' });
        return page(request, reply, 400, {
          kind: 'ask',
          channel: state.channel,
          action: `${UNSUBSCRIBE_PREFIX}/${token}`,
          problem: true,
        });
      }
      const channel = await deps.unsubscribes.optOut(token, oneClick ? 'one_click' : 'link');
      if (!channel) return page(request, reply, 404, { kind: 'invalid' });
      if (oneClick) return page(request, reply, 200, { kind: 'done', channel });
      // Post/redirect/get: a reload asks nothing again; the page says it is done.
      return reply.redirect(`${UNSUBSCRIBE_PREFIX}/${token}`, 303);
    });
  };
}
