/** Outbound HTTP, as the webhooks need it: the SSRF guard and one delivery attempt. */
/** The SSRF guard for outbound destinations chosen by others (webhook endpoints, next shop URLs). */
export interface DestinationGuard {
  /** Static checks: absolute URL, https (unless insecure is allowed), no credentials, length. */
  validate(url: string): URL;
  /** The host resolves only to public addresses; checked again on every attempt (DNS changes). */
  assertPublic(url: URL): Promise<string[]>;
}

export interface DeliveryAttemptResult {
  ok: boolean;
  /** Null when no HTTP response arrived (refused destination, DNS, connection, timeout). */
  status: number | null;
  durationMs: number;
  /** The first 1 KiB of the response body, UTF-8. */
  responseExcerpt: string;
  error: string | null;
  /** The raw Retry-After header, for the retry schedule to honour on 429/503. */
  retryAfter: string | null;
}

export interface SendWebhookInput {
  url: string;
  /** From signPayload: the signature and content headers. */
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}
