import type { IncomingMessage } from 'node:http';
import { DestinationRefused, describeNetworkError, type OutboundClient } from './outbound-client.ts';

/** A JSON API's answer: its status, the headers callers act on, and its body as text. */
export interface JsonResponse {
  status: number;
  /** Raw Retry-After, for 429 and 503. */
  retryAfter: string | null;
  text: string;
  /** Other response headers a caller reads (names in lower case), e.g. x-wp-totalpages. */
  headers?: Record<string, string>;
}

export interface JsonRequest {
  url: string;
  method?: 'POST' | 'GET' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Serialized as the JSON body. */
  body?: unknown;
  /** A body sent as given instead (a shop API that takes its writes as XML only). */
  rawBody?: { contentType: string; text: string };
  timeoutMs: number;
  /** Larger answers are refused rather than read whole into memory. */
  maxBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** No answer (connection refused, reset, timeout) or an unreadable one: worth retrying later. */
export class NetworkError extends Error {}

/** One call to a partner's JSON API; what the shop clients take (tests may stand in for it). */
export type JsonRequester = (request: JsonRequest) => Promise<JsonResponse>;

/** The requester going out through `client` (its SSRF guard and keep-alive sockets). */
export function jsonRequester(client: OutboundClient): JsonRequester {
  return (request) => requestJson(client, request);
}

/**
 * One call to a partner's JSON API (a shop platform), through the outbound client: the address
 * connected to is the one its guard checked. Redirects are never followed (a 3xx is an answer like
 * any other: following it could take our credentials elsewhere), the timeout covers the whole
 * exchange, and the body is bounded. Throws DestinationRefused when the guard refuses the address,
 * NetworkError when no usable answer came. Never logs: headers carry access tokens.
 */
async function requestJson(client: OutboundClient, request: JsonRequest): Promise<JsonResponse> {
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const signal = AbortSignal.timeout(request.timeoutMs);
  const failed = (err: unknown) =>
    new NetworkError(signal.aborted ? `no answer within ${request.timeoutMs} ms` : describeNetworkError(err));
  let response: IncomingMessage;
  try {
    response = await client.request(new URL(request.url), {
      method: request.method ?? 'POST',
      headers: {
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(request.rawBody ? { 'content-type': request.rawBody.contentType } : {}),
        ...request.headers,
      },
      body: request.rawBody?.text ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
      signal,
    });
  } catch (err) {
    if (err instanceof DestinationRefused) throw err;
    throw failed(err);
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        response.destroy();
        throw new NetworkError(`response larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return {
      status: response.statusCode ?? 0,
      retryAfter: headerText(response.headers['retry-after']),
      text: Buffer.concat(chunks).toString('utf8'),
      headers: Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name, headerText(value) ?? '']),
      ),
    };
  } catch (err) {
    if (err instanceof NetworkError) throw err;
    throw failed(err);
  }
}

const USER_AGENT = 'dlv-connectors/1.0';

function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value.join(', ') : value) ?? null;
}

/** Retry-After in seconds or as an HTTP date, as a delay in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
