import type { JsonRequest, JsonRequester, JsonResponse } from '../../infra/http/json-request.ts';
import { requestShop, ShopApiError, shopApiFailureOf } from '../shop-api-error.ts';

// The shop's failures are ShopApiErrors (src/connectors/shop-api-error.ts): `unauthorized`, our key
// refused (revoked, deleted, read-only); `retry_later` (down, maintenance 503, 429, no answer);
// `request_failed` (404, 400 with a WordPress error code as `code`). Their former names, as
// `instanceof` checks:
export const WooRetryLater = shopApiFailureOf('woocommerce', 'retry_later');
export const WooRequestFailed = shopApiFailureOf('woocommerce', 'request_failed');

/** A key pair of WooCommerce › Settings › Advanced › REST API, as stored encrypted. */
export interface WooKeys {
  consumerKey: string;
  consumerSecret: string;
}

export interface WooAnswer<T> {
  body: T;
  /** X-WP-TotalPages of a collection (1 when absent). */
  totalPages: number;
}

type Method = NonNullable<JsonRequest['method']>;

/**
 * WooCommerce's REST API (`{store}/wp-json/…`) with a key pair as HTTP Basic — what WooCommerce
 * reads over https (a plain-http shop, allowed only with CONNECTORS_ALLOW_INSECURE for local
 * development, would need OAuth 1.0a on a real WordPress). The shop's address was chosen by a
 * brand, so every call goes through the shops' outbound client (`request`): it connects only to
 * addresses its SSRF guard has just checked, never follows redirects, and bounds answers. Never
 * logs: headers carry the key.
 */
export function wooRestClient(options: { request: JsonRequester; timeoutMs?: number }) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const { request } = options;

  function describeError(response: JsonResponse): { message: string; code: string | null } {
    try {
      const body = JSON.parse(response.text) as { code?: unknown; message?: unknown };
      const code = typeof body.code === 'string' ? body.code : null;
      const message = typeof body.message === 'string' ? body.message : '';
      return { code, message: `${code ?? 'error'}: ${message}`.slice(0, 300) };
    } catch {
      return { code: null, message: 'not a WooCommerce REST answer' };
    }
  }

  async function call<T>(
    store: string,
    keys: WooKeys,
    method: Method,
    path: string,
    body?: unknown,
  ): Promise<WooAnswer<T>> {
    const url = new URL(`${store}/wp-json${path}`);
    const auth = Buffer.from(`${keys.consumerKey}:${keys.consumerSecret}`, 'utf8').toString('base64');
    const response = await requestShop('woocommerce', request, {
      url: url.toString(),
      method,
      headers: { authorization: `Basic ${auth}` },
      body,
      timeoutMs,
    });
    const { status } = response;
    if (status === 401) {
      throw new ShopApiError(
        'woocommerce',
        'unauthorized',
        `the shop refused the API key (401 ${describeError(response).message})`,
      );
    }
    if (status === 429 || status >= 500)
      throw new ShopApiError(
        'woocommerce',
        'retry_later',
        `the shop answered ${status}${status === 503 ? ' (maintenance?)' : ''}`,
      );
    if (status < 200 || status >= 300) {
      const { message, code } = describeError(response);
      throw new ShopApiError('woocommerce', 'request_failed', `the shop answered ${status} (${message})`, {
        status: status,
        code: code,
      });
    }
    let parsed: T;
    try {
      parsed = JSON.parse(response.text) as T;
    } catch {
      // A page in front of WordPress (a cache, a firewall) answering 200 with HTML.
      throw new ShopApiError('woocommerce', 'retry_later', 'the shop answered something that is not JSON');
    }
    const pages = Number(response.headers?.['x-wp-totalpages']);
    return { body: parsed, totalPages: Number.isInteger(pages) && pages > 0 ? pages : 1 };
  }

  return {
    get: <T>(store: string, keys: WooKeys, path: string) => call<T>(store, keys, 'GET', path),
    post: <T>(store: string, keys: WooKeys, path: string, body: unknown) =>
      call<T>(store, keys, 'POST', path, body),
    put: <T>(store: string, keys: WooKeys, path: string, body: unknown) =>
      call<T>(store, keys, 'PUT', path, body),
    delete: <T>(store: string, keys: WooKeys, path: string) => call<T>(store, keys, 'DELETE', path),
  };
}

export type WooRestClient = ReturnType<typeof wooRestClient>;
