import type { ServerOptions } from 'node:http';
import { BlockList, isIPv4, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { sendError } from './errors.ts';

type Deadlines = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>;

/**
 * The listening server's deadlines, as Fastify options. Fastify's own default is no request
 * deadline at all, so a client trickling its body a byte at a time held its connection (and its
 * share of the sockets) for as long as it liked. Node checks the deadlines on a timer; its default
 * period (30 s) would let a request live up to twice its deadline, so it follows the shortest one.
 */
export function serverDeadlines(config: Deadlines): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
    },
  };
}

/** Seconds a client told "too many connections" waits before it asks again (Retry-After). */
const CONNECTION_RETRY_AFTER_S = 1;

/**
 * Caps the connections one client address holds open at once, so one address cannot take every
 * socket with slow requests. A connection past `max` is still accepted and its first request
 * answered, before any routing or database work, `429 rate_limited` with `Retry-After` and
 * `Connection: close`: a client's pool bigger than the cap gets an answer it can act on (retry on
 * the connections it already has), never a reset it cannot tell from an outage. Only past twice
 * the cap is a new connection closed at once: no client's pool opens that many at a time, a flood
 * does, and then each costs nothing. The address is the peer's: behind TRUST_PROXY's proxies every
 * connection comes from a proxy, which is exempt (the proxy in front counts clients' connections).
 * Registered after the security headers, so the refusal carries them.
 */
export function capConnectionsPerAddress(
  app: FastifyInstance,
  max: number,
  trustProxy: Config['trustProxy'],
): void {
  if (max <= 0 || trustProxy === true || typeof trustProxy === 'number') return;
  const proxies = new BlockList();
  for (const entry of trustProxy || []) {
    const [address, bits] = entry.split('/');
    const family = isIPv4(address!) ? 'ipv4' : 'ipv6';
    if (bits === undefined) proxies.addAddress(address!, family);
    else proxies.addSubnet(address!, Number(bits), family);
  }
  const open = new Map<string, number>();
  const overflowing = new Map<string, number>();
  const overCap = new WeakSet<Socket>();
  const hold = (counts: Map<string, number>, address: string, socket: Socket) => {
    counts.set(address, (counts.get(address) ?? 0) + 1);
    socket.once('close', () => {
      const left = (counts.get(address) ?? 1) - 1;
      if (left > 0) counts.set(address, left);
      else counts.delete(address);
    });
  };
  app.server.on('connection', (socket: Socket) => {
    const address = peerAddress(socket.remoteAddress);
    if (address === null || isProxy(proxies, address)) return;
    if ((open.get(address) ?? 0) < max) return hold(open, address, socket);
    if ((overflowing.get(address) ?? 0) >= max) {
      socket.destroy();
      return;
    }
    overCap.add(socket);
    hold(overflowing, address, socket);
  });
  // Built once: a client past the cap may send many, and the refusal carries nothing per request.
  const refusal = new AppError(
    'rate_limited',
    `Too many connections from your address at once (at most ${max}): this one is closed; send the request again in ${CONNECTION_RETRY_AFTER_S} s on a connection you already have open, or open fewer at a time.`,
  );
  app.addHook('onRequest', (request, reply, done) => {
    if (!overCap.has(request.raw.socket)) return done();
    reply.header('connection', 'close');
    reply.header('retry-after', String(CONNECTION_RETRY_AFTER_S));
    // Answered here: no authentication, no route, no database for a request past the cap.
    sendError(reply, refusal);
  });
}

/** The peer's address, an IPv4 one without its IPv6 wrapping (`::ffff:1.2.3.4`, from a dual-stack listener). */
function peerAddress(address: string | undefined): string | null {
  if (!address) return null;
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function isProxy(proxies: BlockList, address: string): boolean {
  return proxies.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}
