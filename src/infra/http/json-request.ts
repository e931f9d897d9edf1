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
  /** A body sent as given instead (PrestaShop's Webservice takes its writes as XML only). */
  rawBody?: { contentType: string; text: string };
  timeoutMs: number;
  /** Larger answers are refused rather than read whole into memory. */
  maxBytes?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** No answer (connection refused, reset, timeout) or an unreadable one: worth retrying later. */
export class NetworkError extends Error {}

/**
 * One call to a partner's JSON API (a shop platform). Redirects are never followed (a 3xx is an
 * answer like any other: following it could take our credentials elsewhere), the timeout covers the
 * whole exchange, and the body is bounded. Never logs: headers carry access tokens.
 */
export async function requestJson(request: JsonRequest): Promise<JsonResponse> {
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  let response: Response;
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'POST',
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(request.rawBody ? { 'content-type': request.rawBody.contentType } : {}),
        ...request.headers,
      },
      body: request.rawBody?.text ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    throw new NetworkError(describe(err, request.timeoutMs));
  }
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      for await (const chunk of response.body) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new NetworkError(`response larger than ${maxBytes} bytes`);
        chunks.push(chunk);
      }
    }
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      text: Buffer.concat(chunks).toString('utf8'),
      headers: Object.fromEntries(response.headers),
    };
  } catch (err) {
    if (err instanceof NetworkError) throw err;
    throw new NetworkError(describe(err, request.timeoutMs));
  }
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** Retry-After in seconds or as an HTTP date, as a delay in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
