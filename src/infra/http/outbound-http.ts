import type { IncomingMessage } from 'node:http';
import { boundedMemo } from '../../domain/shared/bounded-memo.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from '../../domain/webhooks/outbound.ts';
import { describeNetworkError, type OutboundClient, OutboundTimeout } from './outbound-client.ts';

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
  let response: IncomingMessage;
  try {
    // The client's timer, not an AbortSignal: it destroys the exchange at the deadline whatever its
    // stage, the response being read included (readAnswer then ends with what it has).
    response = await client.request(url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      timeoutMs,
    });
  } catch (err) {
    return failure(err instanceof OutboundTimeout ? err.message : describeNetworkError(err));
  }
  return await readAnswer(response, elapsed);
}

/** Endpoints' URLs parsed once each (every delivery to an endpoint parsed the same string); null: invalid. */
const parsedUrls = boundedMemo<string, URL | null>(10_000);
const parsedUrl = (text: string): URL | null =>
  parsedUrls(text, () => (URL.canParse(text) ? new URL(text) : null));

/**
 * Once the status is in, the attempt's outcome is known: a slow or broken body only shortens the
 * excerpt, it does not turn a 2xx into a failure.
 */
function readAnswer(response: IncomingMessage, elapsed: () => number): Promise<DeliveryAttemptResult> {
  return new Promise((resolve) => {
    const status = response.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      resolve({
        ok,
        status,
        durationMs: elapsed(),
        responseExcerpt: decodeExcerpt(chunks),
        error: ok ? null : statusError(status),
        retryAfter: headerValue(response.headers['retry-after']),
      });
      response.destroy();
    };
    response.on('data', (chunk: Buffer) => {
      if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - size));
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) done();
    });
    response.on('end', done);
    response.on('close', done);
    response.on('error', done);
  });
}

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

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
