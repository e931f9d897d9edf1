import {
  type JsonRequest,
  type JsonRequester,
  type JsonResponse,
  NetworkError,
} from '../infra/http/json-request.ts';
import { DestinationRefused } from '../infra/http/outbound-client.ts';
import type { Platform } from './connection.ts';

/**
 * How a shop's API failed: `unauthorized`, our credentials refused (revoked, deleted, read-only):
 * retrying cannot help; `retry_later`, the shop cannot take the call now (down, throttled, no
 * answer): try again, at `retryAt` when the shop said when; `request_failed`, it answered, but not
 * with what we asked (an error code, an unknown id, a refused address).
 */
export type ShopApiFailure = 'unauthorized' | 'retry_later' | 'request_failed';

/** Every shop API failure, whatever the platform: the callers decide on `failure`, never on the platform. */
export class ShopApiError extends Error {
  /** The HTTP status the shop answered (0: no answer), when it matters to the caller. */
  readonly status: number | null;
  /** The platform's own error code (a REST route's `rest_no_route`…). */
  readonly code: string | null;
  readonly retryAt: Date | null;

  constructor(
    readonly platform: Platform,
    readonly failure: ShopApiFailure,
    message: string,
    details: { status?: number; code?: string | null; retryAt?: Date | null } = {},
  ) {
    super(message);
    this.status = details.status ?? null;
    this.code = details.code ?? null;
    this.retryAt = details.retryAt ?? null;
  }
}

export const isShopApiFailure = (err: unknown, failure: ShopApiFailure): err is ShopApiError =>
  err instanceof ShopApiError && err.failure === failure;

/**
 * The names each client had for its failures (`<Platform>Unauthorized`…), kept as `instanceof` checks
 * of a ShopApiError of that platform and kind: the clients' tests read as before.
 */
export function shopApiFailureOf(platform: Platform, failure: ShopApiFailure) {
  return class extends ShopApiError {
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof ShopApiError && value.platform === platform && value.failure === failure;
    }
  };
}

/**
 * A merchant's shop (WooCommerce, PrestaShop) asked through `request`: its address refused (a shop
 * that moved to a private address is refused like any request it cannot serve) is `request_failed`,
 * no answer `retry_later`; whatever it answered is the caller's to read.
 */
export async function requestShop(
  platform: Platform,
  request: JsonRequester,
  shopRequest: JsonRequest,
): Promise<JsonResponse> {
  try {
    return await request(shopRequest);
  } catch (err) {
    if (err instanceof DestinationRefused)
      throw new ShopApiError(platform, 'request_failed', `the shop's address is refused: ${err.message}`, {
        status: 0,
      });
    if (err instanceof NetworkError)
      throw new ShopApiError(platform, 'retry_later', `the shop is unreachable: ${err.message}`);
    throw err;
  }
}
