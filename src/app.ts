import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Deps } from './deps.ts';
import { redisRateLimiter } from './domain/rate-limit/redis-rate-limiter.ts';
import { memoryRateLimiter } from './domain/rate-limit/token-bucket.ts';
import { AppError, invalidField } from './errors.ts';
import type { PublicApp } from './http/app-types.ts';
import { errorHandler, notFoundHandler, sendError } from './http/errors.ts';
import { registerAuth } from './http/plugins/auth.ts';
import { registerDocsPage, registerOpenApi } from './http/plugins/openapi.ts';
import { registerRateLimit } from './http/plugins/rate-limit.ts';
import { generateRequestId } from './http/plugins/request-id.ts';
import { applySecurityHeaders, registerSecurityHeaders } from './http/plugins/security-headers.ts';
import { invoiceRoutes } from './http/routes/invoices/invoice-routes.ts';
import { getMeRoute } from './http/routes/me/get-me.ts';
import { opsOrderRoutes } from './http/routes/ops/ops-orders.ts';
import { cancelOrderRoute } from './http/routes/orders/cancel-order.ts';
import { createOrderRoute } from './http/routes/orders/create-order.ts';
import { getOrderRoute } from './http/routes/orders/get-order.ts';
import { listOrdersRoute } from './http/routes/orders/list-orders.ts';
import { updateOrderRoute } from './http/routes/orders/update-order.ts';
import { postRatesRoute } from './http/routes/rates/post-rates.ts';
import { pingRoute } from './http/routes/system/ping.ts';
import { InvoiceSchema } from './http/schemas/invoices.ts';
import { OrderSchema, OrderSummarySchema } from './http/schemas/orders.ts';
import { ErrorSchema, PATH_PARAM_MAX_LENGTH } from './http/schemas/shared.ts';
import { PUBLIC_WEBHOOKS } from './http/schemas/webhooks.ts';
import { validatorCompiler } from './http/validation.ts';

export const PUBLIC_PREFIX = '/public/v1';
export const OPS_PREFIX = '/ops/v1';
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Schemas referenced by `$ref` from many routes, named in the OpenAPI components. */
const SHARED_SCHEMAS = [ErrorSchema, OrderSchema, OrderSummarySchema, InvoiceSchema];

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

export function publicServerUrl(deps: Deps): string {
  const base = deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`;
  return `${base}${PUBLIC_PREFIX}`;
}

/** Builds the whole HTTP application without listening: tests drive it with `app.inject`. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: generateRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
    // The router measures a parameter in UTF-16 code units, schemas (`maxLength`) in characters: with
    // twice the units, any parameter of at most PATH_PARAM_MAX_LENGTH characters reaches its route
    // (an unknown id is then a 404), and a longer one is a 400 from the router or from the schema.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2 * PATH_PARAM_MAX_LENGTH },
    // What Fastify refuses before routing (a URL with broken percent-encoding, an overlong path
    // parameter) gets the same 400 envelope and headers as any other invalid request.
    frameworkErrors: (err, request, reply) => {
      applySecurityHeaders(request, reply);
      const message =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? `A path parameter is longer than ${PATH_PARAM_MAX_LENGTH} characters.`
          : 'The URL is not valid (check its percent-encoding).';
      sendError(reply, new AppError('invalid_request', message));
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  // Shared schemas are added here, at the root: adding one inside a child context would give that
  // context its own schema controller, with Fastify's default (coercing) validator instead of ours.
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  registerJsonOnly(app);
  registerSecurityHeaders(app);
  registerAuth(app, deps.authenticator, deps.config.opsToken);
  // Registered after authentication: its onRequest hook runs once the key is known.
  if (deps.config.rateLimitPerSecond > 0) {
    const policy = { perSecond: deps.config.rateLimitPerSecond, burst: deps.config.rateLimitBurst };
    const limiter = deps.config.redisUrl
      ? redisRateLimiter(deps.config.redisUrl, policy, (err) =>
          app.log.warn({ err }, 'rate limiter: Redis unavailable, failing open'),
        )
      : memoryRateLimiter(policy);
    registerRateLimit(app, limiter, policy);
  }
  app.addHook('onReady', () => deps.grids.startWatching());
  app.addHook('onClose', async () => deps.grids.stopWatching());

  await app.register(
    async (api) => {
      await registerOpenApi(api, {
        title: 'Delivery Orders API',
        description:
          'Create and track last-mile delivery orders in Île-de-France, read invoices and quote rates at checkout. ' +
          'Authenticate with `Authorization: Bearer dlv_…`. Errors share one envelope: `{ ok: false, error, message, request_id }`.',
        serverUrl: publicServerUrl(deps),
        tags: [
          { name: 'System', description: 'Health and description of the API.' },
          { name: 'Account', description: 'The calling brand and key.' },
          { name: 'Orders', description: 'Delivery orders: create, list, track, complete, cancel.' },
          { name: 'Rates', description: 'Quotes at checkout.' },
          {
            name: 'Invoices',
            description: 'Monthly invoices: running draft, issued, paid; with lines and PDF.',
          },
        ],
        securityScheme: { name: 'bearerAuth', description: 'An API key `dlv_` + 64 hex characters.' },
        webhooks: PUBLIC_WEBHOOKS,
        internal: false,
        rateLimited: deps.config.rateLimitPerSecond > 0,
      });
      const typed = api.withTypeProvider() as unknown as PublicApp;
      pingRoute(typed);
      getMeRoute(typed);
      postRatesRoute(typed, deps);
      createOrderRoute(typed, deps);
      listOrdersRoute(typed, deps);
      getOrderRoute(typed, deps);
      updateOrderRoute(typed, deps);
      cancelOrderRoute(typed, deps);
      invoiceRoutes(typed, deps);
      await registerDocsPage(api, PUBLIC_PREFIX);
    },
    { prefix: PUBLIC_PREFIX },
  );

  // The operations API exists only when the operator has set a token for it.
  if (deps.config.opsToken) {
    await app.register(
      async (ops) => {
        await registerOpenApi(ops, {
          title: 'Delivery Orders — operations API',
          description:
            "For the operator's tools (couriers' scanners): read any order and move it through its states. Authenticate with `Authorization: Bearer <OPS_TOKEN>`.",
          serverUrl: `${deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`}${OPS_PREFIX}`,
          tags: [{ name: 'Operations', description: 'Order status changes.' }],
          securityScheme: { name: 'opsToken', description: 'The OPS_TOKEN of the deployment.' },
          // The operator's own tools: not rate limited, and not for brands.
          internal: true,
          rateLimited: false,
        });
        opsOrderRoutes(ops.withTypeProvider() as unknown as PublicApp, deps);
        await registerDocsPage(ops, OPS_PREFIX);
      },
      { prefix: OPS_PREFIX },
    );
  }
  return app;
}

/**
 * Bodies are JSON only: Fastify's built-in text/plain parser is removed so other types get 415.
 * An empty body is accepted (as no body) so that `POST …/cancel` works with or without `{}`.
 */
function registerJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // JSON escapes can carry U+0000 and unpaired surrogates (`\u0000`, `\ud800`), which PostgreSQL
    // cannot store (text, jsonb): such a body is refused with 400 naming the field, not a 500 when saved.
    if (!/\\u(0000|d[89a-f])/i.test(text)) {
      parseJson(request, text, done);
      return;
    }
    parseJson(request, text, (err, value) => {
      const field = err ? null : unstorableField(value, '');
      if (field === null) done(err, value);
      else done(invalidField(field || 'body', UNSTORABLE_MESSAGE), undefined);
    });
  });
}

const UNPAIRED_SURROGATE = /[\ud800-\udfff]/u;
const UNSTORABLE_MESSAGE =
  'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';

/** The path of the first string with a character PostgreSQL cannot store (`''`: the body itself), or null. */
function unstorableField(value: unknown, path: string): string | null {
  if (typeof value === 'string') {
    return value.includes('\u0000') || UNPAIRED_SURROGATE.test(value) ? path : null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = unstorableField(item, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}
