import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Deps } from './deps.ts';
import { AppError } from './errors.ts';
import { ACCOUNT_PREFIX, accountArea, sendAccountNotFound } from './http/account/index.ts';
import { CONSOLE_PREFIX, consoleArea, sendConsoleNotFound } from './http/console/index.ts';
import { COURIER_SHELL_PREFIX, courierAppShell } from './http/courier/app-shell.ts';
import { COURIER_PREFIX, courierArea } from './http/courier/index.ts';
import { healthRoutes } from './http/health/index.ts';
import { OPS_PREFIX, opsApi } from './http/ops/index.ts';
import { PROOFS_PREFIX, proofFiles } from './http/proofs/index.ts';
import { PUBLIC_PREFIX, publicApi } from './http/public/index.ts';
import { errorHandler, notFoundHandler, sendError } from './http/shared/errors.ts';
import { opsAccess, WRONG_OPS_TOKEN_POLICY } from './http/shared/operator-access.ts';
import { registerAuth } from './http/shared/plugins/auth.ts';
import { type HttpMetricsSink, registerMetrics } from './http/shared/plugins/metrics.ts';
import { registerRateLimit } from './http/shared/plugins/rate-limit.ts';
import { generateRequestId } from './http/shared/plugins/request-id.ts';
import { applySecurityHeaders } from './http/shared/plugins/security-headers.ts';
import { nameSpansByRoute } from './http/shared/plugins/span-routes.ts';
import { refuseUnusableText, unstorableText } from './http/shared/plugins/text-inputs.ts';
import { registerRouteConfig, routeConfig } from './http/shared/route-config.ts';
import { InvoiceSchema } from './http/shared/schemas/invoices.ts';
import { OrderSchema, OrderSummarySchema } from './http/shared/schemas/orders.ts';
import { PickupSchema } from './http/shared/schemas/pickups.ts';
import { ErrorSchema, PATH_PARAM_MAX_LENGTH } from './http/shared/schemas/shared.ts';
import { SubscriptionSchema } from './http/shared/schemas/webhook-subscriptions.ts';
import { capConnectionsPerAddress, serverDeadlines } from './http/shared/slow-clients.ts';
import { UNKNOWN_KEY_POLICY, unknownKeyLimit } from './http/shared/unknown-key-limit.ts';
import { validatorCompiler } from './http/shared/validation.ts';
import { SMS_PREFIX, twilioWebhooks } from './http/sms/index.ts';
import { sendTrackingNotFound, TRACKING_PREFIX, trackingPages } from './http/tracking/index.ts';
import { sendUnsubscribeNotFound, UNSUBSCRIBE_PREFIX, unsubscribePages } from './http/unsubscribe/index.ts';
import { redisRateLimiter } from './infra/rate-limit/redis-rate-limiter.ts';
import { type BucketPolicy, memoryRateLimiter } from './infra/rate-limit/token-bucket.ts';
import { createReadiness, type Readiness } from './runtime/readiness.ts';

export { OPS_PREFIX };

const BODY_LIMIT_BYTES = 64 * 1024;

/** Schemas referenced by `$ref` from many routes, named in the OpenAPI components. */
const SHARED_SCHEMAS = [
  ErrorSchema,
  OrderSchema,
  OrderSummarySchema,
  InvoiceSchema,
  SubscriptionSchema,
  PickupSchema,
];

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** The process's readiness (drained on SIGTERM by src/service.ts); else one on the deps' pool. */
  readiness?: Readiness;
  /** The process's metrics (src/observability.ts): requests counted; `/metrics` here with a token. */
  metrics?: { sink: HttpMetricsSink; token: string | null };
}

/** Builds the whole HTTP application without listening: tests drive it with `app.inject`. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Slow clients (slowloris) are cut: a deadline for the headers, for the whole request, for idleness.
    ...serverDeadlines(deps.config),
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: generateRequestId,
    requestIdHeader: false,
    // Replaced by the 'closing' hooks below, so a request reaching a closing server gets our 503
    // envelope (Fastify's own answer has another shape and skips the security headers).
    return503OnClosing: false,
    // Widened: Fastify's overloads cannot pick one for a union-typed value.
    trustProxy: deps.config.trustProxy as FastifyServerOptions['trustProxy'],
    // The router measures a parameter in UTF-16 code units, schemas (`maxLength`) in characters: with
    // twice the units, any parameter of at most PATH_PARAM_MAX_LENGTH characters reaches its route
    // (an unknown id is then a 404), and a longer one is a 400 from the router or from the schema.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2 * PATH_PARAM_MAX_LENGTH },
    // What Fastify refuses before routing (a URL with broken percent-encoding, an overlong path
    // parameter) gets the same 400 envelope and headers as any other invalid request.
    frameworkErrors: (err, request, reply) => {
      applySecurityHeaders(request, reply);
      // A tracking link too long or badly encoded is one that does not exist, and says so in HTML.
      if (request.url.startsWith(`${TRACKING_PREFIX}/`)) return sendTrackingNotFound(request, reply);
      if (request.url.startsWith(`${UNSUBSCRIBE_PREFIX}/`)) return sendUnsubscribeNotFound(request, reply);
      if (request.url.startsWith(`${ACCOUNT_PREFIX}/`)) return sendAccountNotFound(request, reply);
      if (request.url.startsWith(`${CONSOLE_PREFIX}/`)) return sendConsoleNotFound(request, reply);
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
  registerRouteConfig(app);
  registerJsonOnly(app);
  frontDoor(app);
  capConnectionsPerAddress(app, deps.config.maxConnectionsPerAddress, deps.config.trustProxy);
  if (options.metrics) registerMetrics(app, options.metrics.sink, options.metrics.token);
  nameSpansByRoute(app);
  refuseUnusableText(app);
  const limiting = deps.config.rateLimitPerSecond > 0;
  deps.redisHealth.logTo((level, fields, message) => app.log[level](fields, message));
  const bucketsOf = (policy: BucketPolicy) =>
    deps.config.redisUrl
      ? redisRateLimiter(deps.config.redisUrl, policy, deps.redisHealth)
      : memoryRateLimiter(policy);
  const unknownKeys = limiting ? unknownKeyLimit(bucketsOf(UNKNOWN_KEY_POLICY)) : null;
  if (unknownKeys) app.addHook('onClose', () => unknownKeys.close());
  // Wrong operator credentials are counted whatever RATE_LIMIT_PER_SECOND says: this guards secrets,
  // not the service's capacity.
  const operators = opsAccess(
    deps.config.opsToken,
    { tokens: deps.opsTokens, sessions: deps.operatorSessions },
    bucketsOf(WRONG_OPS_TOKEN_POLICY),
  );
  app.addHook('onClose', () => operators.close());
  registerAuth(
    app,
    deps.authenticator,
    operators,
    {
      // Read from the database on each call: these routes are rare, and a brand's access must
      // follow the operator's decision at once.
      webhooksAllowed: async (brandId) => (await deps.brands.get(brandId)).webhooksAllowed,
    },
    unknownKeys,
  );
  // Registered after authentication: its onRequest hook runs once the key is known.
  if (limiting) {
    const policy = { perSecond: deps.config.rateLimitPerSecond, burst: deps.config.rateLimitBurst };
    registerRateLimit(app, bucketsOf(policy), policy);
  }
  app.addHook('onReady', async () => {
    await Promise.all(deps.watchers.map((w) => w.startWatching()));
  });
  app.addHook('onClose', async () => {
    for (const w of deps.watchers) w.stopWatching();
  });

  const readiness =
    options.readiness ??
    createReadiness({ pool: deps.pool, redis: deps.config.redisUrl ? deps.redisHealth : null });
  await app.register(healthRoutes({ readiness }));

  // Each surface is a plugin under its prefix; the connectors' signed callbacks among them.
  const surfaces = [
    { prefix: PUBLIC_PREFIX, plugin: publicApi(deps), enabled: true },
    // Operators' sessions and machine tokens open it; OPS_TOKEN, when set, is only its bootstrap.
    { prefix: OPS_PREFIX, plugin: opsApi(deps), enabled: true },
    { prefix: TRACKING_PREFIX, plugin: trackingPages(deps), enabled: true },
    // The recipients' unsubscribe links (their e-mails' List-Unsubscribe).
    { prefix: UNSUBSCRIBE_PREFIX, plugin: unsubscribePages(deps), enabled: true },
    { prefix: ACCOUNT_PREFIX, plugin: accountArea(deps), enabled: true },
    { prefix: PROOFS_PREFIX, plugin: proofFiles(deps), enabled: true },
    { prefix: COURIER_PREFIX, plugin: courierArea(deps), enabled: true },
    // The operator's console: named operators signed in with their second factor (issue 39).
    { prefix: CONSOLE_PREFIX, plugin: consoleArea(deps), enabled: true },
    // The courier app's shell, scripts, manifest and service worker (public: they hold no data).
    { prefix: COURIER_SHELL_PREFIX, plugin: courierAppShell(), enabled: true },
    // Twilio's delivery reports and the recipients' texts, signed with the auth token: only with Twilio.
    ...(deps.config.twilio
      ? [
          {
            prefix: SMS_PREFIX,
            plugin: twilioWebhooks({
              twilio: deps.config.twilio,
              publicBaseUrl: deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`,
              smsDeliveryReports: deps.smsDeliveryReports,
              smsReplies: deps.smsReplies,
            }),
            enabled: true,
          },
        ]
      : []),
    // Each shop platform that is on: the routes its shops call (src/connectors/<platform>/receivers.ts).
    ...deps.connectors.map(({ definition, instance }) => ({
      prefix: definition.receivers.prefix,
      plugin: definition.receivers.routes(instance, deps),
      enabled: true,
    })),
  ];
  for (const surface of surfaces) {
    if (surface.enabled) await app.register(surface.plugin, { prefix: surface.prefix });
  }
  return app;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Keep the body's bytes as received in `request.rawBody` (for HMAC checks), beside the parsed JSON. */
    rawBody?: boolean;
  }
  interface FastifyRequest {
    rawBody: Buffer | null;
  }
}

/**
 * The first hook every request meets: it sets the headers every response carries (so error
 * responses and 404s have them too), and once shutdown begins it refuses the requests still
 * arriving on kept-alive connections with the `unavailable` envelope and `Connection: close`, so
 * clients retry on another instance. One hook for both: one call less on every request.
 */
function frontDoor(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style: no promise per request for a check that is false until shutdown.
  app.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request, reply);
    if (!closing) return done();
    reply.header('connection', 'close');
    // Answered here: the request goes no further (done is not called).
    sendError(reply, new AppError('unavailable', 'The server is shutting down; retry in a moment.'));
  });
}

/**
 * Bodies are JSON only: Fastify's built-in text/plain parser is removed so other types get 415.
 * An empty body is accepted (as no body) so that `POST …/cancel` works with or without `{}`.
 */
function registerJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('rawBody', null);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // A route that verifies a signature over the bytes received (a shop's HMAC) asks for them: JSON
    // is UTF-8, so re-encoding the text gives them back (a body that is not valid UTF-8 would not,
    // and then fails its signature check, as it should). Parsing as text keeps the hot routes fast.
    if (routeConfig(request).rawBody) request.rawBody = Buffer.from(text, 'utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // Without a backslash no escape can spell `__proto__` or `constructor` (what secure-json-parse
    // looks for, with costly patterns) nor carry U+0000 or a lone surrogate: with neither word in
    // the text either, JSON.parse alone gives the same value. Anything else, and any syntax error
    // (for the same 400), goes the checked way below.
    if (!text.includes('\\') && !text.includes('__proto__') && !text.includes('constructor')) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        parseJson(request, text, done);
        return;
      }
      done(null, value);
      return;
    }
    // JSON escapes can carry U+0000 and unpaired surrogates (`\u0000`, `\ud800`), which PostgreSQL
    // cannot store (text, jsonb): such a body is refused with 400 naming the field, not a 500 when saved.
    if (!/\\u(0000|d[89a-f])/i.test(text)) {
      parseJson(request, text, done);
      return;
    }
    parseJson(request, text, (err, value) => {
      if (err) done(err, value);
      else {
        const refused = unstorableText(value);
        done(refused, refused ? undefined : value);
      }
    });
  });
}
