import type { Server, ServerOptions } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import type { Config } from '../../config.ts';

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

/**
 * Caps the connections one client address holds open at once: past `max`, a new one is closed at
 * once, so one address cannot take every socket with slow requests. The address is the peer's:
 * behind TRUST_PROXY's proxies every connection comes from a proxy, which is exempt (the proxy in
 * front is where clients' connections are counted then).
 */
export function capConnectionsPerAddress(
  server: Server,
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
  server.on('connection', (socket) => {
    const address = peerAddress(socket.remoteAddress);
    if (address === null || isProxy(proxies, address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
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
