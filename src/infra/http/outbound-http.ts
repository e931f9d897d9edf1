import { boundedMemo } from '../../domain/shared/bounded-memo.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from '../../domain/webhooks/outbound.ts';
import {
  describeNetworkError,
  type ExchangeAnswer,
  type OutboundClient,
  OutboundTimeout,
} from './outbound-client.ts';

export type { DeliveryAttemptResult, SendWebhookInput };

/** SPEC §8: a 2xx within 15 s is success. */
const DEFAULT_TIMEOUT_MS = 15_000;
/** Enough of the receiver's answer to debug a failure from the attempt log, without storing pages. */
const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * One delivery attempt, through the webhooks' outbound client (its SSRF guard is the connection's
 * own resolution, on every attempt). Never throws: every outcome is a result the job records in the
 * attempt log and feeds to the retry schedule. The timeout covers resolution, connection and response.
 */
export async function sendWebhook(
  client: OutboundClient,
  input: SendWebhookInput,
): Promise<DeliveryAttemptResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string): DeliveryAttemptResult => ({
    ok: false,
    status: null,
    durationMs: elapsed(),
    responseExcerpt: '',
    error,
    retryAfter: null,
  });
  const url = parsedUrl(input.url);
  if (url === null) return failure('url: is not a valid absolute URL');
  let answer: ExchangeAnswer;
  try {
    // Once the status is in, the attempt's outcome is known: a slow or broken body only shortens the
    // excerpt, it does not turn a 2xx into a failure.
    answer = await client.exchange(url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      timeoutMs,
      excerptBytes: RESPONSE_EXCERPT_BYTES,
    });
  } catch (err) {
    return failure(err instanceof OutboundTimeout ? err.message : describeNetworkError(err));
  }
  const ok = answer.status >= 200 && answer.status < 300;
  return {
    ok,
    status: answer.status,
    durationMs: elapsed(),
    responseExcerpt: decodeExcerpt(answer.excerpt),
    error: ok ? null : statusError(answer.status),
    retryAfter: answer.retryAfter,
  };
}

/** Endpoints' URLs parsed once each (every delivery to an endpoint parsed the same string); null: invalid. */
const parsedUrls = boundedMemo<string, URL | null>(10_000);
const parsedUrl = (text: string): URL | null =>
  parsedUrls(text, () => (URL.canParse(text) ? new URL(text) : null));

/**
 * Stream mode drops a multi-byte character cut at the 1 KiB boundary instead of showing U+FFFD.
 * Most receivers answer with no body (204) or a few bytes: no decoder for nothing.
 */
function decodeExcerpt(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  return new TextDecoder('utf-8').decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), {
    stream: true,
  });
}

function statusError(status: number): string {
  // Following a redirect would let a receiver point us at an address the guard never vetted.
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}
