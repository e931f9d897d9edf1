import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { isIP, type LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { Agent, Dispatcher } from 'undici';
import { fieldProblem, isAppError } from '../../errors.ts';
import { assertPublicHost, type DestinationOptions, hostOf } from './url-guard.ts';

/**
 * The SSRF guard refused the destination (a non-public address, plain http, no such host). Its
 * message says only that, in the guard's words: it reaches tenants.
 */
export class DestinationRefused extends Error {}

interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the exchange wherever it is (resolution, connection, response). */
  signal?: AbortSignal;
  /**
   * The same as a signal that aborts after this long, for a caller sending many requests: the
   * exchange is destroyed with an OutboundTimeout, by a plain timer. An AbortSignal costs each
   * request an AbortController, an EventTarget and the listeners `http` hangs on it (a twentieth
   * of the webhook worker's profile samples).
   */
  timeoutMs?: number;
}

/** The exchange took longer than its `timeoutMs` (whichever stage it was in). */
export class OutboundTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timeout after ${timeoutMs} ms`);
  }
}

/** The only way out to addresses chosen by others: webhook receivers and shops. */
export interface OutboundClient {
  /**
   * Resolves with the response's head (the body is the caller's to read or destroy); rejects with
   * DestinationRefused, or the network error. Redirects are answers: never followed.
   */
  request(url: URL, init: OutboundRequest): Promise<http.IncomingMessage>;
  /**
   * A whole exchange, its answer read to a bounded excerpt: what a webhook attempt needs, at a
   * fraction of `request`'s cost (undici: a third less CPU per exchange than `http.request`, the
   * largest share of a webhook worker's). Rejects with DestinationRefused, OutboundTimeout or the
   * network error until the answer's head is in; after it, a broken or slow body (the deadline
   * passing) only shortens the excerpt. Redirects are answers: never followed.
   */
  exchange(url: URL, init: ExchangeRequest): Promise<ExchangeAnswer>;
}

interface ExchangeRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
  /** The whole exchange's deadline: resolution, connection, request and answer. */
  timeoutMs: number;
  /** How much of the answer's body to keep: past it, the exchange is cut (its connection closed). */
  excerptBytes: number;
}

export interface ExchangeAnswer {
  status: number;
  /** The raw Retry-After header, if any. */
  retryAfter: string | null;
  /** The body's first `excerptBytes`, as received. */
  excerpt: Buffer[];
}

/** Longer than a burst of calls to one shop, shorter than the 5 s most servers keep an idle socket. */
const IDLE_SOCKET_MS = 4000;

/**
 * One client per policy (deps.ts: webhooks, shops, a platform's own hosts). The guard is the connection's own DNS
 * resolution (`lookup`): the addresses checked are the ones connected to, so a DNS answer changed
 * between a check and the connection (rebinding) cannot lead to an internal address. Keep-alive
 * sockets were each opened through that lookup, and every client has its own agents, so a socket
 * opened under one policy never serves another.
 */
export function outboundClient(options: DestinationOptions): OutboundClient {
  const lookup = guardedLookup(options);
  /** IP literals the guard passed: the verdict on an address alone never changes (bounded). */
  const vettedAddresses = new Set<string>();
  const agents = {
    http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };
  // undici's connections go through the same lookup (its connector hands `connect` to net/tls.connect).
  let dispatcher: Agent | null = null;
  const undiciAgent = (): Agent =>
    (dispatcher ??= new (undiciAgentClass())({
      keepAliveTimeout: IDLE_SOCKET_MS,
      keepAliveMaxTimeout: IDLE_SOCKET_MS,
      connect: { lookup },
    }));
  const schemes = options.allowInsecure ? ['https:', 'http:'] : ['https:'];

  /** The static checks, and an IP literal's (a socket connects to one without any lookup: no DNS involved). */
  async function vet(url: URL): Promise<RequestTarget> {
    try {
      // The scheme only: a shop's API URL may be longer than an endpoint URL is allowed to be.
      if (!schemes.includes(url.protocol))
        throw fieldProblem('url', options.allowInsecure ? 'url.httpOrHttps' : 'url.https');
      const target = requestTarget(url);
      if (target.ipLiteral && !vettedAddresses.has(target.host)) {
        await assertPublicHost(target.host, options);
        if (vettedAddresses.size >= VETTED_ADDRESSES) vettedAddresses.clear();
        vettedAddresses.add(target.host);
      }
      return target;
    } catch (err) {
      throw refusal(err);
    }
  }

  return {
    async exchange(url, init) {
      const target = await vet(url);
      return new Promise<ExchangeAnswer>((resolve, reject) => {
        const answer = new ExcerptReader(init.excerptBytes, resolve, reject);
        const timer = setTimeout(() => answer.expire(new OutboundTimeout(init.timeoutMs)), init.timeoutMs);
        answer.onSettled = () => clearTimeout(timer);
        undiciAgent().dispatch(
          {
            origin: target.origin,
            path: target.path,
            method: init.method,
            headers: init.headers,
            body: init.body,
            // The timer above bounds the whole exchange; undici's own per-phase timers only as long.
            headersTimeout: init.timeoutMs,
            bodyTimeout: init.timeoutMs,
          },
          answer,
        );
      });
    },

    async request(url, init) {
      const target = await vet(url);
      const secure = url.protocol === 'https:';
      const requestOptions: https.RequestOptions = {
        ...target.options,
        method: init.method,
        headers:
          init.body === undefined
            ? init.headers
            : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        agent: secure ? agents.https : agents.http,
        lookup,
      };
      // SNI and certificate checks against the host name, not the address connected to.
      if (secure && !target.ipLiteral) requestOptions.servername = target.host;
      if (init.signal) requestOptions.signal = init.signal;
      return new Promise((resolve, reject) => {
        const request = (secure ? https : http).request(requestOptions);
        if (init.timeoutMs !== undefined) {
          const { timeoutMs } = init;
          const timer = setTimeout(() => request.destroy(new OutboundTimeout(timeoutMs)), timeoutMs);
          // 'close' comes once the response was read to its end (or destroyed), or the exchange failed.
          request.once('close', () => clearTimeout(timer));
        }
        request.on('error', reject);
        request.on('response', resolve);
        request.end(init.body);
      });
    },
  };
}

const VETTED_ADDRESSES = 10_000;

/** undici's module of its Agent (no `exports` map forbids it): the same class as the package's `Agent`, which a test holds. */
const UNDICI_AGENT_MODULE = 'undici/lib/dispatcher/agent.js';

let agentClass: typeof Agent | null = null;
/**
 * undici's Agent, required by the first exchange: undici adds ~20 MB to a process's memory, which
 * the API (a few exchanges an hour, if any: it sends no webhooks) and the CLI would carry for
 * nothing. Its Agent's module alone, not the package's entry, which also loads fetch, WebSocket,
 * the cache and the mocks: ~30 ms instead of ~100 ms, which a fresh worker's first webhook waited.
 */
export function undiciAgentClass(): typeof Agent {
  agentClass ??= createRequire(import.meta.url)(UNDICI_AGENT_MODULE) as typeof Agent;
  return agentClass;
}

/** Where a request goes: `http.request`'s options for the URL (`urlToHttpOptions`), and its host. */
interface RequestTarget {
  options: http.RequestOptions;
  /** For undici: scheme, host and port; the path with its query. */
  origin: string;
  path: string;
  /** Without an IPv6 literal's brackets. */
  host: string;
  ipLiteral: boolean;
}

/**
 * Each URL object's target, worked out once: the webhooks' URLs are parsed once per endpoint
 * (outbound-http.ts) and sent to again and again.
 */
const targets = new WeakMap<URL, RequestTarget>();
function requestTarget(url: URL): RequestTarget {
  let target = targets.get(url);
  if (target === undefined) {
    const host = hostOf(url);
    target = {
      options: urlToHttpOptions(url),
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      host,
      ipLiteral: isIP(host) !== 0,
    };
    targets.set(url, target);
  }
  return target;
}

/**
 * An exchange's answer as undici hands it over (its dispatch handler): the status and Retry-After,
 * then the body's first bytes. Settles once: with the answer at its end (or at its excerpt's
 * limit, cutting the rest), or when it fails or its deadline passes — a rejection before the head
 * is in, the answer so far after it.
 */
class ExcerptReader implements Dispatcher.DispatchHandler {
  onSettled: () => void = () => {};
  private controller: Dispatcher.DispatchController | null = null;
  private status = 0;
  private retryAfter: string | null = null;
  private readonly excerpt: Buffer[] = [];
  private size = 0;
  private settled = false;

  constructor(
    private readonly limit: number,
    private readonly resolve: (answer: ExchangeAnswer) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  /** The deadline: the exchange is cut wherever it is (still connecting: as soon as it would start). */
  expire(err: OutboundTimeout): void {
    if (this.settled) return;
    if (this.controller) this.controller.abort(err);
    else this.fail(err);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('the exchange was already given up'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: http.IncomingHttpHeaders,
  ): void {
    // 1xx answers are informational: the final one follows.
    if (statusCode < 200) return;
    this.status = statusCode;
    const retryAfter = headers['retry-after'];
    this.retryAfter = (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.size < this.limit) this.excerpt.push(chunk.subarray(0, this.limit - this.size));
    this.size += chunk.length;
    if (this.size >= this.limit) {
      this.succeed();
      // Enough read: a long body is not worth its bytes (nor the connection it holds).
      controller.abort(new Error('answer read to its excerpt'));
    }
  }

  onResponseEnd(): void {
    this.succeed();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.status !== 0) this.succeed();
    else this.fail(err);
  }

  private succeed(): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettled();
    this.resolve({ status: this.status, retryAfter: this.retryAfter, excerpt: this.excerpt });
  }

  private fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettled();
    this.reject(err);
  }
}

/**
 * A `net` lookup that is the SSRF check: the host's addresses from the guard's resolver, all of
 * them public (loopback too when insecure is allowed), or the connection fails with
 * DestinationRefused. Happy-eyeballs asks for every address (`all`), a plain connect for one.
 */
function guardedLookup(options: DestinationOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    assertPublicHost(hostname, options).then(
      (addresses) => {
        const family =
          lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
        const entries = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => (family === 4 || family === 6 ? entry.family === family : true));
        const first = entries[0];
        if (first === undefined) {
          const err: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '');
        } else if (lookupOptions.all) {
          callback(null, entries);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: unknown) => callback(refusal(err), ''),
    );
  };
}

function refusal(err: unknown): Error {
  if (isAppError(err)) return new DestinationRefused(err.message);
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * A failed exchange in words fit for a tenant's delivery log: the guard's refusal as it is, a
 * system error by its call and code only (`connect ECONNREFUSED`), without the address connected to.
 */
export function describeNetworkError(err: unknown): string {
  // Happy-eyeballs connects report one AggregateError with an empty message for all addresses.
  if (err instanceof AggregateError && err.errors.length > 0) {
    return [...new Set(err.errors.map(describeNetworkError))].join('; ');
  }
  if (err instanceof DestinationRefused) return err.message;
  if (err instanceof Error) {
    const { code, syscall } = err as NodeJS.ErrnoException;
    if (code && syscall) return `${syscall} ${code}`;
    return err.message || code || err.name;
  }
  return String(err);
}
