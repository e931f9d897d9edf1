import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DestinationGuard } from '../../domain/webhooks/outbound.ts';
import { fieldProblem, invalidField } from '../../errors.ts';

export type { DestinationGuard };

export const MAX_URL_LENGTH = 2000;

/** Resolves a host name to every address it has; injectable so tests need no real DNS. */
export type ResolveHost = (host: string) => Promise<string[]>;

export interface UrlGuardOptions {
  /** WEBHOOKS_ALLOW_INSECURE: http and loopback receivers, for tests and local development. */
  allowInsecure: boolean;
}

export interface DestinationOptions extends UrlGuardOptions {
  lookup?: ResolveHost;
  /** Why a non-public address is refused, in the caller's terms (default: the webhooks' rule). */
  publicRule?: string;
}

/** The static checks on an endpoint URL, done when the operator adds it. */
export function validateEndpointUrl(url: string, options: UrlGuardOptions): URL {
  if (url.length > MAX_URL_LENGTH) throw fieldProblem('url', 'length.atMost', { max: MAX_URL_LENGTH });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fieldProblem('url', 'url.invalid');
  }
  const allowed = options.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(parsed.protocol)) {
    throw fieldProblem('url', options.allowInsecure ? 'url.httpOrHttps' : 'url.https');
  }
  // Credentials would be stored and shown in listings in clear; receivers authenticate by signature.
  if (parsed.username !== '' || parsed.password !== '') {
    throw fieldProblem('url', 'url.credentials');
  }
  if (parsed.hostname === '') throw invalidField('url', 'must name a host');
  return parsed;
}

const defaultLookup: ResolveHost = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The SSRF check: every address the host resolves to must be public, otherwise a brand could
 * make our workers probe the internal network or a cloud metadata service. Checked when a URL is
 * given, for a clear answer; what protects the calls is outbound-client.ts, which runs this check
 * as the connection's own resolution (one answer, checked and connected to).
 */
export function assertPublicDestination(url: URL, options: DestinationOptions): Promise<string[]> {
  return assertPublicHost(hostOf(url), options);
}

/** A URL's host as a resolver or a socket takes it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  // The WHATWG parser has already normalised IPv4 forms such as `2130706433` or `0x7f.1`.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The SSRF check on a bare host name or IP literal; resolves to its (public) addresses. */
export async function assertPublicHost(host: string, options: DestinationOptions): Promise<string[]> {
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.lookup ?? defaultLookup)(host);
    } catch (err) {
      const reason = err instanceof Error && 'code' in err ? ` (${String(err.code)})` : '';
      throw fieldProblem('url', 'url.unresolved', { host, reason });
    }
    if (addresses.length === 0) throw fieldProblem('url', 'url.unresolved', { host, reason: '' });
  }
  for (const address of addresses) {
    const range = addressRange(address);
    if (range === 'unicast') continue;
    if (range === 'loopback' && options.allowInsecure) continue;
    // Only that the address is refused: naming what a host resolves to, or which internal range it
    // falls in, would let a tenant map our network through the error messages (API, forms, stored
    // delivery errors all carry this text).
    // Another caller's rule (a shop's) is its own sentence; the webhooks' is a coded problem.
    throw options.publicRule !== undefined
      ? invalidField('url', `${host} is not an allowed address; ${options.publicRule}`)
      : fieldProblem('url', 'url.notPublic', { host });
  }
  return addresses;
}

/**
 * The ipaddr.js range of an address, looking through IPv6 forms that embed an IPv4 address
 * (mapped, translated, NAT64, 6to4): `::ffff:10.0.0.1` reaches 10.0.0.1 and must be judged so.
 * Only 'unicast' is public; every other name is refused.
 */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const [, p1, p2, , , , p6, p7] = v6.parts;
  if (range === 'ipv4Mapped' || range === 'rfc6145') return embeddedV4(p6, p7).range();
  // Only the well-known NAT64 prefix 64:ff9b::/96; the local-use 64:ff9b:1::/48 stays refused.
  if (range === 'rfc6052' && v6.match(ipaddr.IPv6.parseCIDR('64:ff9b::/96')))
    return embeddedV4(p6, p7).range();
  if (range === '6to4') return embeddedV4(p1, p2).range();
  return range;
}

function embeddedV4(high: number | undefined, low: number | undefined): ipaddr.IPv4 {
  const h = high ?? 0;
  const l = low ?? 0;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

/** The SSRF guard for outbound destinations chosen by others (webhook endpoints, next shop URLs). */
export function destinationGuard(options: DestinationOptions): DestinationGuard {
  return {
    validate: (url: string) => validateEndpointUrl(url, options),
    assertPublic: (url: URL) => assertPublicDestination(url, options),
  };
}
