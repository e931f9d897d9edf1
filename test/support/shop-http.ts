import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The loopback plumbing the fake shops share: one node:http server on 127.0.0.1 (port 0) whose
 * router gets the whole request (method, parsed URL, headers, raw body) and returns one answer.
 */

export interface Answer {
  status: number;
  headers?: Record<string, string | string[]>;
  body: string;
}

export interface Call {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export async function startLoopback(route: (call: Call) => Answer | Promise<Answer>) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const call: Call = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const answer = await route(call);
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The user and password of an `Authorization: Basic …` header, or null when there is none. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { user: decoded, password: '' };
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A shop lives under a path prefix (a WordPress or PrestaShop installed in a sub-directory). */
export function splitShopPath(pathname: string): { slug: string; rest: string } | null {
  const match = /^\/([a-z0-9][a-z0-9-]*)(\/.*)?$/.exec(pathname);
  return match ? { slug: match[1]!, rest: match[2] ?? '/' } : null;
}
