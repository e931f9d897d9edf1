import type { FastifyInstance, FastifyReply, preParsingHookHandler } from 'fastify';
import type { ApiKeyAuthenticator, KeyIdentity } from '../../../domain/api-keys/authenticator.ts';
import type { Scope } from '../../../domain/api-keys/keys.ts';
import type { OpsScope } from '../../../domain/operators/scopes.ts';
import { AppError } from '../../../errors.ts';
import { bearerToken } from '../bearer.ts';
import { type FailedAttemptLimit, isTooManyAttempts, type TooManyAttempts } from '../failed-attempt-limit.ts';
import { OPS_UNAUTHORIZED_MESSAGE, type OperatorAccess } from '../operator-access.ts';
import { type OperatorRequirement, operatorRefusal } from '../operator-requirements.ts';
import { type ApiKeyPrincipal, principalOf } from '../principal.ts';
import { routeConfig } from '../route-config.ts';

export { principalOf };

/**
 * What a route needs: `'none'` (public), `'any'` (any valid key), one scope, `{ ops: … }` (an
 * operator of the operations API: a person's session, a machine token or the bootstrap OPS_TOKEN,
 * holding the scope named, or `any` / `own_session`: operator-requirements.ts), or `'session'` (a
 * signed-in person: the account area resolves its cookie itself, and redirects to sign-in rather
 * than answering 401), or `'courier'` (a signed-in courier: `/courier` resolves its own cookie the
 * same way). Every route states it in `config.auth`; a route that forgets is refused at start-up
 * rather than left open.
 */
type AuthRequirement =
  | 'none'
  | 'any'
  | 'session'
  | 'courier'
  | Scope
  | { ops: OperatorRequirement }
  | { console: ConsoleRequirement };

/**
 * What a console page (`/console`) requires of its signed-in operator: a scope their role grants,
 * `any` (any signed-in operator) or `setup` (a session still choosing its password or enrolling its
 * second factor may use it too). The console resolves its own cookie and answers with pages.
 */
export type ConsoleRequirement = OpsScope | 'any' | 'setup';

export interface RouteAuthInfo {
  method: string;
  url: string;
  /** `'ops'` for every operations route, whose requirement is then `ops`. */
  auth:
    | Exclude<AuthRequirement, { ops: OperatorRequirement } | { console: ConsoleRequirement }>
    | 'ops'
    | 'console';
  ops?: OperatorRequirement;
  /** A console page's requirement (`auth` is then `'console'`). */
  console?: ConsoleRequirement;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with what it requires: the shared security test suite walks this list. */
    routeCatalog: RouteAuthInfo[];
  }
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /**
     * A feature the operator opens brand by brand, checked before the scope: a brand without it
     * cannot hold the scope at all, so it is told how to ask for the feature rather than which
     * scope its key lacks.
     */
    brandFeature?: 'webhooks';
  }
}

// One principal per cached key identity, so the hot path allocates none per request.
const principals = new WeakMap<KeyIdentity, ApiKeyPrincipal>();
function apiKeyPrincipal(key: KeyIdentity): ApiKeyPrincipal {
  let principal = principals.get(key);
  if (!principal) {
    principal = { kind: 'apiKey', ...key };
    principals.set(key, principal);
  }
  return principal;
}

/** Whether a brand has each feature of `config.brandFeature`; read when such a route is called. */
export interface BrandFeatures {
  webhooksAllowed(brandId: string): Promise<boolean>;
}

/** The 403 of a brand without webhook subscriptions: how to get them. */
export const WEBHOOKS_NOT_ENABLED_MESSAGE =
  'Webhook subscriptions are not enabled for this brand. Request access in the account area ' +
  '(Webhooks page, "Request access"), or ask the operator; then create an API key with the "webhooks:write" scope.';

export function registerAuth(
  app: FastifyInstance,
  authenticator: ApiKeyAuthenticator,
  /** The operations API's credentials and its count of wrong tokens; null: no operations API. */
  operators: OperatorAccess | null,
  features: BrandFeatures,
  /** Counts each address's unknown keys and refuses it past the limit (null: no such limit). */
  unknownKeys: FailedAttemptLimit | null = null,
): void {
  app.decorateRequest('principal', null);
  const catalog: RouteAuthInfo[] = [];
  app.decorate('routeCatalog', catalog);

  app.addHook('onRoute', (route) => {
    if (route.config?.auth === undefined) {
      // Hidden routes (the docs page and its assets) are public by nature; any other must say.
      if (!(route.schema as { hide?: boolean } | undefined)?.hide && !route.url.includes('*')) {
        throw new Error(`route ${route.method} ${route.url} does not declare config.auth`);
      }
      route.config = { ...route.config, auth: 'none' };
    }
    const auth = route.config.auth!;
    if (auth !== 'none' && auth !== 'any') {
      // Fastify makes a GET's HEAD route from the GET's options, hook included: added once.
      const hooks = [route.preParsing ?? []].flat();
      if (!hooks.includes(checkAccess)) route.preParsing = [...hooks, checkAccess];
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      catalog.push(
        typeof auth !== 'object'
          ? { method, url: route.url, auth }
          : 'console' in auth
            ? { method, url: route.url, auth: 'console', console: auth.console }
            : { method, url: route.url, auth: 'ops', ops: auth.ops },
      );
    }
  });

  // onRequest runs before the body is read: an unauthenticated caller costs no parsing.
  // Both hooks are callback-style and finish synchronously in the common case (a key this instance
  // knows, no brand feature to read): a promise per hook and request is measurable on hot routes.
  app.addHook('onRequest', (request, reply, done) => {
    const auth = routeConfig(request).auth;
    if (auth === undefined || auth === 'none' || auth === 'session' || auth === 'courier') return done();
    // The console resolves its own cookie (src/http/console).
    if (typeof auth === 'object' && 'console' in auth) return done();
    if (typeof auth === 'object') {
      if (operators === null) return done(new AppError('unauthorized', OPS_UNAUTHORIZED_MESSAGE));
      operators.authenticate(request.headers.authorization, request.ip).then(
        (operator) => {
          request.principal = { kind: 'operator', address: request.ip, ...operator };
          done();
        },
        (err: Error) => done(isTooManyAttempts(err) ? withRetryAfter(reply, err) : err),
      );
      return;
    }
    const presented = bearerToken(request.headers.authorization);
    let known: KeyIdentity | null;
    try {
      known = authenticator.authenticateCached(presented);
    } catch (err) {
      return done(err as Error);
    }
    if (known) {
      request.principal = apiKeyPrincipal(known);
      return done();
    }
    if (unknownKeys === null) {
      authenticator.authenticate(presented).then((key) => {
        request.principal = apiKeyPrincipal(key);
        done();
      }, done);
      return;
    }
    // Only the database can tell: an address that sent too many unknown keys is refused first.
    const blocked = unknownKeys.refusal(request.ip);
    if (blocked) return done(withRetryAfter(reply, blocked));
    authenticator.authenticate(presented).then(
      (key) => {
        request.principal = apiKeyPrincipal(key);
        done();
      },
      (err: Error) => {
        // `unauthorized` here is a well-formed key the database does not know (or no longer honours).
        if (!(err instanceof AppError) || err.code !== 'unauthorized') return done(err);
        unknownKeys.failed(request.ip).then(
          (tooMany) => done(tooMany ? withRetryAfter(reply, tooMany) : err),
          () => done(err),
        );
      },
    );
  });

  // The scope is checked once every onRequest hook has run, so a valid key refused for its scope
  // still counts against its rate limit (and gets the RateLimit headers), yet before the body is read.
  // A hook of the routes that have something to check (see the onRoute hook above): a route open
  // to anyone or to any key (`'none'`, `'any'`: the quotes, the hot route) goes without the phase.
  const checkAccess: preParsingHookHandler = (request, _reply, payload, done) => {
    const auth = routeConfig(request).auth;
    // A 'session' route registered outside the account area (whose hook sets the user) stays shut.
    if (auth === 'session') {
      if (request.principal?.kind !== 'user') return done(new AppError('unauthorized', 'Sign in first.'));
      return done(null, payload);
    }
    // Likewise a 'courier' route outside `/courier` (whose hook sets the courier).
    if (auth === 'courier') {
      if (request.principal?.kind !== 'courier') return done(new AppError('unauthorized', 'Sign in first.'));
      return done(null, payload);
    }
    if (auth === undefined || auth === 'none' || auth === 'any') return done(null, payload);
    // Likewise a console route outside `/console` (whose hook sets the operator of its cookie).
    if (typeof auth === 'object' && 'console' in auth) {
      const principal = request.principal;
      if (principal?.kind !== 'operator' || principal.credential !== 'session')
        return done(new AppError('unauthorized', 'Sign in first.'));
      return done(null, payload);
    }
    if (typeof auth === 'object') {
      // Unreachable after the onRequest hook above, which refuses without an operator; fail closed anyway.
      if (request.principal?.kind !== 'operator')
        return done(new AppError('unauthorized', OPS_UNAUTHORIZED_MESSAGE));
      return done(operatorRefusal(request.principal, auth.ops), payload);
    }
    const principal = request.principal;
    // Unreachable after the onRequest hook above, which refuses without a valid key; fail closed anyway.
    if (principal?.kind !== 'apiKey')
      return done(new AppError('unauthorized', 'A valid API key is required.'));
    if (routeConfig(request).brandFeature !== 'webhooks') return done(scopeError(principal, auth), payload);
    features
      .webhooksAllowed(principal.brand.id)
      .then(
        (allowed) =>
          allowed
            ? done(scopeError(principal, auth), payload)
            : done(new AppError('webhooks_not_enabled', WEBHOOKS_NOT_ENABLED_MESSAGE)),
        done,
      );
  };
}

function withRetryAfter(reply: FastifyReply, err: TooManyAttempts): AppError {
  reply.header('retry-after', String(err.retryAfterSeconds));
  return err;
}

/**
 * Null when the key has the route's scope. A function, not a closure made per request: under tsx,
 * which keeps function names, each such closure costs a defineProperty.
 */
function scopeError(principal: { key: { scopes: readonly string[] } }, scope: string): AppError | null {
  return principal.key.scopes.includes(scope)
    ? null
    : new AppError('insufficient_scope', `This API key lacks the "${scope}" scope needed here.`);
}
