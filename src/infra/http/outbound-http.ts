import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { assertPublicDestination, type ResolveHost, validateEndpointUrl } from './url-guard.ts';

/** SPEC §8: a 2xx within 15 s is success. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Enough of the receiver's answer to debug a failure from the attempt log, without storing pages. */
export const RESPONSE_EXCERPT_BYTES = 1024;

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
  allowInsecure: boolean;
  lookup?: ResolveHost;
}

/**
 * One delivery attempt. Never throws: every outcome is a result the job records in the attempt
 * log and feeds to the retry schedule. The timeout covers resolution, connection and response.
 */
export async function sendWebhook(input: SendWebhookInput): Promise<DeliveryAttemptResult> {
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
  const timeoutMessage = `timeout after ${timeoutMs} ms`;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    let url: URL;
    let addresses: string[];
    try {
      url = validateEndpointUrl(input.url, input);
      // Re-checked on every attempt: the host may resolve elsewhere than when it was added.
      addresses = await raceAbort(
        assertPublicDestination(url, { allowInsecure: input.allowInsecure, lookup: input.lookup }),
        deadline.signal,
      );
    } catch (err) {
      return failure(deadline.signal.aborted ? timeoutMessage : describeError(err));
    }
    return await post({ url, addresses, input, signal: deadline.signal, timeoutMessage, failure, elapsed });
  } catch (err) {
    return failure(describeError(err));
  } finally {
    clearTimeout(timer);
  }
}

interface PostContext {
  url: URL;
  addresses: string[];
  input: SendWebhookInput;
  signal: AbortSignal;
  timeoutMessage: string;
  failure: (error: string) => DeliveryAttemptResult;
  elapsed: () => number;
}

function post(ctx: PostContext): Promise<DeliveryAttemptResult> {
  const { url, input, signal } = ctx;
  return new Promise((resolve) => {
    let settled = false;
    // What a timeout means changes once the response has started; the listener stays the same.
    let onTimeout = () => {};
    const onAbort = () => onTimeout();
    const finish = (result: DeliveryAttemptResult) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) },
      // Connect only to the addresses just vetted, so a DNS answer changed between the check
      // and the connection (rebinding) cannot redirect us to an internal address.
      lookup: pinnedLookup(ctx.addresses),
      // A fresh connection each time: a pooled socket would skip the pinned lookup.
      agent: false,
    });
    onTimeout = () => {
      finish(ctx.failure(ctx.timeoutMessage));
      request.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err) => finish(ctx.failure(describeError(err))));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      // Once the status is in, the attempt's outcome is known: a slow or broken body only
      // shortens the excerpt, it does not turn a 2xx into a failure.
      const done = () => {
        finish({
          ok,
          status,
          durationMs: ctx.elapsed(),
          responseExcerpt: decodeExcerpt(chunks),
          error: ok ? null : statusError(status),
          retryAfter: headerValue(response.headers['retry-after']),
        });
        response.destroy();
      };
      onTimeout = done;
      response.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - size));
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.end(input.body);
  });
}

function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? entries.filter((e) => e.family === family) : entries;
    const first = usable[0];
    if (first === undefined) {
      const err: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, '');
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Stream mode drops a multi-byte character cut at the 1 KiB boundary instead of showing U+FFFD. */
function decodeExcerpt(chunks: Buffer[]): string {
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true });
}

function statusError(status: number): string {
  // Following a redirect would let a receiver point us at an address the guard never vetted.
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function describeError(err: unknown): string {
  // Happy-eyeballs connects report one AggregateError with an empty message for all addresses.
  if (err instanceof AggregateError && err.errors.length > 0) {
    return err.errors.map(describeError).join('; ');
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return err.message || code || err.name;
  }
  return String(err);
}
