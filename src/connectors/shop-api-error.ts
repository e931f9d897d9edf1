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
