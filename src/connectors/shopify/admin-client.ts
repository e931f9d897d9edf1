import { systemClock } from '../../domain/shared/clock.ts';
import {
  type JsonRequest,
  type JsonRequester,
  type JsonResponse,
  NetworkError,
  retryAfterMs,
} from '../../infra/http/json-request.ts';
import { DestinationRefused } from '../../infra/http/outbound-client.ts';
import { ShopApiError, shopApiFailureOf } from '../shop-api-error.ts';
import { SHOPIFY_API_VERSION } from './api-version.ts';
import { adminOrigin } from './shop-domain.ts';

// Shopify's failures are ShopApiErrors (src/connectors/shop-api-error.ts): `unauthorized`, the shop
// refused our token (revoked, app uninstalled); `retry_later` (throttled, 429, 5xx, no answer) at
// `retryAt`, or after the queue's own backoff when Shopify gave no hint (null); `request_failed`,
// a GraphQL error or an unexpected status. Their former names, as `instanceof` checks:
export const ShopifyUnauthorized = shopApiFailureOf('shopify', 'unauthorized');
export const ShopifyRetryLater = shopApiFailureOf('shopify', 'retry_later');
export type ShopifyRetryLater = ShopApiError;
export const ShopifyRequestFailed = shopApiFailureOf('shopify', 'request_failed');

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface GraphqlBody {
  data?: unknown;
  errors?: unknown;
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

export interface AdminClientOptions {
  adminOriginTemplate: string;
  apiKey: string;
  apiSecret: string;
  clock?: () => Date;
  timeoutMs?: number;
  /** A throttle wait up to this long is slept inline; a longer one becomes a `retry_later` ShopApiError. */
  maxInlineWaitMs?: number;
  /** The Shopify outbound client's requester (deps.ts): guarded like every call that leaves. */
  request: JsonRequester;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_RETRY_AFTER_MS = 2000;
/** Keep this many points in the bucket: a call that would drain it waits for the refill first. */
const HEADROOM_POINTS = 50;

/**
 * Shopify's Admin API for one app: the OAuth code exchange and GraphQL calls at the pinned version.
 * GraphQL is rate-limited by a leaky bucket of cost points per shop (extensions.cost.throttleStatus):
 * the client remembers each shop's bucket, waits for the refill before draining it, and on a
 * THROTTLED answer waits (requested − available) / restoreRate seconds — inline when short, else it
 * tells the caller (a job) when to try again.
 */
export function shopifyAdminClient(options: AdminClientOptions) {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxInlineWaitMs = options.maxInlineWaitMs ?? 3000;
  const { request } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const buckets = new Map<string, { status: ThrottleStatus; at: number }>();

  const originOf = (shop: string) => adminOrigin(options.adminOriginTemplate, shop);

  async function send(req: Omit<JsonRequest, 'timeoutMs'>): Promise<JsonResponse> {
    try {
      return await request({ ...req, timeoutMs });
    } catch (err) {
      if (err instanceof DestinationRefused)
        throw new ShopApiError('shopify', 'request_failed', `Shopify's address is refused: ${err.message}`);
      if (err instanceof NetworkError)
        throw new ShopApiError('shopify', 'retry_later', `Shopify unreachable: ${err.message}`);
      throw err;
    }
  }

  /** Statuses every Admin endpoint shares: 401/403 (token), 429 and 5xx (retry later). */
  function checkStatus(response: JsonResponse): void {
    const { status } = response;
    if (status === 401 || status === 403)
      throw new ShopApiError('shopify', 'unauthorized', `Shopify answered ${status}`);
    if (status === 429 || status >= 500) {
      const wait =
        retryAfterMs(response.retryAfter, clock()) ?? (status === 429 ? DEFAULT_RETRY_AFTER_MS : null);
      throw new ShopApiError('shopify', 'retry_later', `Shopify answered ${status}`, {
        retryAt: wait === null ? null : new Date(clock().getTime() + wait),
      });
    }
    if (status < 200 || status >= 300)
      throw new ShopApiError('shopify', 'request_failed', `Shopify answered ${status}`);
  }

  function parse(text: string): GraphqlBody {
    try {
      return JSON.parse(text) as GraphqlBody;
    } catch {
      throw new ShopApiError('shopify', 'retry_later', 'Shopify answered something that is not JSON');
    }
  }

  /** How long until the shop's bucket holds `points` again, from what the last answer said. */
  function refillWaitMs(shop: string, points: number): number {
    const bucket = buckets.get(shop);
    if (!bucket || bucket.status.restoreRate <= 0) return 0;
    const elapsed = (clock().getTime() - bucket.at) / 1000;
    const now = Math.min(
      bucket.status.maximumAvailable,
      bucket.status.currentlyAvailable + elapsed * bucket.status.restoreRate,
    );
    return now >= points ? 0 : Math.ceil(((points - now) / bucket.status.restoreRate) * 1000);
  }

  async function waitOrDefer(waitMs: number, reason: string): Promise<void> {
    if (waitMs <= 0) return;
    if (waitMs > maxInlineWaitMs)
      throw new ShopApiError('shopify', 'retry_later', reason, {
        retryAt: new Date(clock().getTime() + waitMs),
      });
    await sleep(waitMs);
  }

  async function graphqlOnce(
    shop: string,
    token: string,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ data: unknown } | { throttledForMs: number }> {
    const response = await send({
      url: `${originOf(shop)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
      headers: { 'x-shopify-access-token': token },
      body: { query, variables },
    });
    checkStatus(response);
    const body = parse(response.text);
    const cost = body.extensions?.cost;
    if (cost?.throttleStatus) buckets.set(shop, { status: cost.throttleStatus, at: clock().getTime() });
    const errors = Array.isArray(body.errors)
      ? (body.errors as { message?: string; extensions?: { code?: string } }[])
      : [];
    if (errors.some((e) => e.extensions?.code === 'THROTTLED')) {
      const status = cost?.throttleStatus;
      const requested = cost?.requestedQueryCost ?? HEADROOM_POINTS;
      const waitMs =
        status && status.restoreRate > 0
          ? Math.ceil((Math.max(0, requested - status.currentlyAvailable) / status.restoreRate) * 1000)
          : DEFAULT_RETRY_AFTER_MS;
      return { throttledForMs: Math.max(waitMs, 100) };
    }
    if (errors.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR'))
      throw new ShopApiError('shopify', 'retry_later', 'Shopify had an internal error');
    if (errors.length > 0 || typeof body.errors === 'string') {
      const message = errors.map((e) => e.message).join('; ') || String(body.errors);
      throw new ShopApiError('shopify', 'request_failed', `GraphQL error: ${message.slice(0, 300)}`);
    }
    return { data: body.data };
  }

  return {
    /**
     * One GraphQL operation; resolves to its `data`. Throws a ShopApiError (unauthorized,
     * retry_later or request_failed); `userErrors` are the caller's to read.
     */
    async graphql<T>(
      shop: string,
      token: string,
      query: string,
      variables: Record<string, unknown> = {},
    ): Promise<T> {
      await waitOrDefer(
        refillWaitMs(shop, HEADROOM_POINTS),
        'Shopify rate limit: waiting for the bucket to refill',
      );
      for (let attempt = 0; ; attempt++) {
        const outcome = await graphqlOnce(shop, token, query, variables);
        if ('data' in outcome) return outcome.data as T;
        const reason = 'Shopify throttled the call (THROTTLED)';
        if (attempt >= 2)
          throw new ShopApiError('shopify', 'retry_later', reason, {
            retryAt: new Date(clock().getTime() + outcome.throttledForMs),
          });
        await waitOrDefer(outcome.throttledForMs, reason);
      }
    },

    /** The OAuth authorization code for an offline access token. */
    async exchangeCode(shop: string, code: string): Promise<{ accessToken: string; scope: string }> {
      const response = await send({
        url: `${originOf(shop)}/admin/oauth/access_token`,
        body: { client_id: options.apiKey, client_secret: options.apiSecret, code },
      });
      if (response.status === 400 || response.status === 401 || response.status === 403)
        throw new ShopApiError(
          'shopify',
          'request_failed',
          `Shopify refused the authorization code (${response.status})`,
        );
      checkStatus(response);
      const body = parse(response.text) as { access_token?: unknown; scope?: unknown };
      if (typeof body.access_token !== 'string' || body.access_token === '')
        throw new ShopApiError(
          'shopify',
          'request_failed',
          'Shopify answered the code exchange without an access token',
        );
      return { accessToken: body.access_token, scope: typeof body.scope === 'string' ? body.scope : '' };
    },
  };
}

export type ShopifyAdminClient = ReturnType<typeof shopifyAdminClient>;
