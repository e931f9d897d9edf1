import { DlvApiError, DlvConnectionError, type ErrorEnvelope } from './errors.js';
import {
  API_VERSION,
  DEFAULT_BASE_URL,
  type OperationCall,
  Operations,
  type RequestOptions,
  type SimulateOrderResponse,
} from './generated.js';
import {
  type FailureReason,
  isTestKey,
  MAX_SIMULATED_STEPS,
  nextSimulatedStep,
  type SimulationTarget,
} from './test-mode.js';
import { SDK_VERSION } from './version.js';

export interface ClientOptions {
  /** A `dlv_…` API key (account area → API keys, or `dlv keys create`). */
  apiKey: string;
  /** The public API's base URL, up to `/public/v1`. Defaults to production. */
  baseUrl?: string;
  /** Retries of a failed attempt (429, 5xx, network): 2 by default, 0 to turn them off. */
  maxRetries?: number;
  /** The longest wait between two attempts, in ms (a longer Retry-After is cut to it): 30 s. */
  maxRetryDelayMs?: number;
  /** Per-attempt timeout in ms: 30 s. */
  timeoutMs?: number;
  /** The fetch to use (a proxy's, a test's): the global one by default. */
  fetch?: typeof fetch;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT']);

/**
 * The Delivery Orders API client: one method per operation (generated), the key sent as a bearer
 * token, an Idempotency-Key generated for every creation and kept across its retries, retries with
 * backoff on 429/5xx honouring Retry-After, and errors thrown as `DlvApiError` (its `code` the
 * envelope's `error`).
 */
export class DlvClient extends Operations {
  static readonly apiVersion = API_VERSION;
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #maxRetries: number;
  readonly #maxRetryDelayMs: number;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    super();
    if (!options.apiKey) throw new TypeError('DlvClient: apiKey is required');
    this.#apiKey = options.apiKey;
    this.#baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#maxRetries = options.maxRetries ?? 2;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** True for a test key (`dlv_test_…`): what it creates is test data (`livemode: false`). */
  get testMode(): boolean {
    return isTestKey(this.#apiKey);
  }

  /**
   * Test mode: moves a test order to `to` through every step the street would take on the way
   * (`simulateOrder` makes one step: `delivered` from `pending` is picked up, in transit, out for
   * delivery, then delivered), each with its events, webhooks and notifications. `returned` fails
   * at the door until the third attempt returns the parcel. `reason` is the failed attempts'.
   * Answers the last step's order; a live key gets `test_mode_only` (403), a step that cannot follow
   * the order's status `simulation_out_of_order` (409).
   */
  async simulate(
    trackingRef: string,
    to: SimulationTarget,
    options: RequestOptions & { reason?: FailureReason } = {},
  ): Promise<SimulateOrderResponse> {
    const { reason, ...request } = options;
    let status = (await this.getOrder(trackingRef, request)).order.status;
    for (let made = 0; made < MAX_SIMULATED_STEPS; made++) {
      const step = nextSimulatedStep(status, to);
      const body = step === 'failed_attempt' && reason ? { to: step, reason } : { to: step };
      const moved = await this.simulateOrder(trackingRef, body, request);
      status = moved.order.status;
      if (status === to || (step === to && to !== 'returned')) return moved;
    }
    throw new Error(`simulate: ${trackingRef} did not reach "${to}" in ${MAX_SIMULATED_STEPS} steps`);
  }

  protected async call<T>(call: OperationCall): Promise<T> {
    const url = new URL(this.#baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: call.file ? '*/*' : 'application/json',
      authorization: `Bearer ${this.#apiKey}`,
      ...call.options?.headers,
    };
    // Generated once per call, so that every retry carries the same key: the API then replays the
    // first success instead of creating a second order.
    if (call.idempotent) headers['idempotency-key'] = call.options?.idempotencyKey ?? crypto.randomUUID();
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const retryable = call.idempotent || SAFE_METHODS.has(call.method);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#attempt(url, {
          method: call.method,
          headers,
          body,
          signal: call.options?.signal,
        });
      } catch (error) {
        if (call.options?.signal?.aborted || !retryable || attempt >= this.#maxRetries) {
          throw new DlvConnectionError(`${call.method} ${url.pathname}: ${(error as Error).message}`, {
            cause: error,
          });
        }
        await sleep(this.#backoff(attempt, null));
        continue;
      }
      if (response.ok) {
        if (call.file) return new Uint8Array(await response.arrayBuffer()) as T;
        return (await response.json()) as T;
      }
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      // A 429 was refused before anything was done: always safe to send again.
      const again = RETRIED_STATUSES.has(response.status) && (retryable || response.status === 429);
      if (again && attempt < this.#maxRetries) {
        await response.body?.cancel();
        await sleep(this.#backoff(attempt, retryAfter));
        continue;
      }
      throw new DlvApiError(response.status, await envelopeOf(response), retryAfter);
    }
  }

  protected async *pages<P extends { cursor?: string }, R extends { next_cursor: string | null }>(
    fetchPage: (params: P) => Promise<R>,
    params: P,
  ): AsyncGenerator<R, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await fetchPage(cursor === undefined ? params : { ...params, cursor });
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  async #attempt(url: URL, init: RequestInit & { signal?: AbortSignal | undefined }): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return this.#fetch(url, {
      ...init,
      signal,
      headers: {
        ...(init.headers as Record<string, string>),
        'user-agent': `dlv-sdk-typescript/${SDK_VERSION}`,
      },
    });
  }

  /** Retry-After when the API said (cut to the maximum), else 0.5 s, 1 s, 2 s… with jitter. */
  #backoff(attempt: number, retryAfterSeconds: number | null): number {
    if (retryAfterSeconds !== null) return Math.min(retryAfterSeconds * 1000, this.#maxRetryDelayMs);
    const base = Math.min(500 * 2 ** attempt, this.#maxRetryDelayMs);
    return base / 2 + Math.random() * (base / 2);
  }
}

function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  if (/^[0-9]+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function envelopeOf(response: Response): Promise<ErrorEnvelope> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as Partial<ErrorEnvelope>;
    if (typeof parsed.error === 'string') return { ...parsed, ok: false } as ErrorEnvelope;
  } catch {
    // not JSON: a proxy's page, described below
  }
  return {
    ok: false,
    error: response.status >= 500 ? 'unavailable' : 'invalid_request',
    message: `HTTP ${response.status} without the API's error envelope: ${text.slice(0, 200)}`,
    request_id: response.headers.get('x-request-id') ?? '',
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
