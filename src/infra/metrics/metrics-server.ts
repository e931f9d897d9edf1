import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsExposition } from './service-metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** The request id of an answer (the API's: src/http/shared/plugins/request-id.ts, given by the caller). */
type RequestIdOf = (request: http.IncomingMessage) => string;

/** An answer in the API's error envelope, with its request id in the body and the header. */
function sendError(
  response: http.ServerResponse,
  status: number,
  body: { error: string; message: string; requestId: string },
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': body.requestId,
    ...headers,
  });
  response.end(
    JSON.stringify({ ok: false, error: body.error, message: body.message, request_id: body.requestId }),
  );
}

/**
 * `/metrics` for a bare node:http server (the METRICS_PORT server below, the worker's health
 * server): answers GET/HEAD /metrics and returns true, or returns false for any other request,
 * untouched. With `token` (METRICS_TOKEN) the request must carry `Authorization: Bearer <token>`,
 * else 401 in the API's error envelope.
 * @public the worker's health server (src/service.ts) answers its /metrics with it
 */
export function metricsRequestHandler(
  exposition: () => Promise<MetricsExposition>,
  token: string | null,
  requestIdOf: RequestIdOf,
): (request: http.IncomingMessage, response: http.ServerResponse) => boolean {
  const expected = token === null ? null : digest(token);
  return (request, response) => {
    if ((request.url ?? '').split('?')[0] !== '/metrics') return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (expected !== null) {
      const presented = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
        const message = 'The metrics need "Authorization: Bearer <METRICS_TOKEN>".';
        sendError(
          response,
          401,
          { error: 'unauthorized', message, requestId: requestIdOf(request) },
          { 'www-authenticate': 'Bearer realm="metrics"' },
        );
        return true;
      }
    }
    exposition().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
    return true;
  };
}

/** Compared as digests: constant time whatever the length presented. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * METRICS_PORT: `/metrics` alone on a port of its own, without authentication (kept off the public
 * network by the deployment: a Kubernetes pod port, a compose network). Anything else is a 404 in
 * the API's error envelope.
 */
export async function startMetricsServer(
  exposition: () => Promise<MetricsExposition>,
  options: { port: number; host: string; requestIdOf: RequestIdOf },
): Promise<MetricsServer> {
  const handle = metricsRequestHandler(exposition, null, options.requestIdOf);
  const server = http.createServer((request, response) => {
    if (handle(request, response)) return;
    const path = (request.url ?? '').split('?')[0];
    const message = `No route ${request.method} ${path}: this port serves GET /metrics only.`;
    sendError(response, 404, { error: 'not_found', message, requestId: options.requestIdOf(request) });
  });
  // Prometheus keeps its connection open between scrapes; nothing else is expected here.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
