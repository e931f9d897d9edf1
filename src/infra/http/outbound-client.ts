import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
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
  return {
    async request(url, init) {
      let target: RequestTarget;
      try {
        // The scheme only: a shop's API URL may be longer than an endpoint URL is allowed to be.
        const schemes = options.allowInsecure ? ['https:', 'http:'] : ['https:'];
        if (!schemes.includes(url.protocol))
          throw fieldProblem('url', options.allowInsecure ? 'url.httpOrHttps' : 'url.https');
        target = requestTarget(url);
        // A socket connects to an IP literal without any lookup: it is checked here (no DNS involved).
        if (target.ipLiteral && !vettedAddresses.has(target.host)) {
          await assertPublicHost(target.host, options);
          if (vettedAddresses.size >= VETTED_ADDRESSES) vettedAddresses.clear();
          vettedAddresses.add(target.host);
        }
      } catch (err) {
        throw refusal(err);
      }
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

/** Where a request goes: `http.request`'s options for the URL (`urlToHttpOptions`), and its host. */
interface RequestTarget {
  options: http.RequestOptions;
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
    target = { options: urlToHttpOptions(url), host, ipLiteral: isIP(host) !== 0 };
    targets.set(url, target);
  }
  return target;
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
