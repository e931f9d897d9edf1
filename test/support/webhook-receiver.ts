import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Pool } from '../../src/db/pool.ts';
import { jobQueueOn } from '../../src/infra/queue/job-queue.ts';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: Record<string, any>;
  at: number;
}

/** How the receiver answers one request; the default is 200 at once. */
export type Responder = (
  req: ReceivedWebhook,
) =>
  | { status: number; body?: string; headers?: Record<string, string> }
  | 'hold'
  | Promise<{ status: number }>;

/**
 * A real HTTP receiver on 127.0.0.1 (port 0), as a brand would run one: it records every request
 * and can verify Standard Webhooks signatures with the `standardwebhooks` package.
 */
export async function startReceiver(respond: Responder = () => ({ status: 200 })) {
  const received: ReceivedWebhook[] = [];
  const held = new Set<http.ServerResponse>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      const entry: ReceivedWebhook = {
        path: req.url ?? '/',
        headers,
        body,
        json: safeJson(body),
        at: Date.now(),
      };
      received.push(entry);
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
      const answer = await respond(entry);
      if (answer === 'hold') {
        held.add(res);
        return;
      }
      const extra = 'headers' in answer ? answer.headers : undefined;
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...extra });
      res.end('body' in answer ? answer.body : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    /** Resolves once `count` requests have arrived in total (rejects after `timeoutMs`). */
    waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Verifies like a receiver would; throws when no signature matches `secret`. */
export function verifyWith(secret: string, hook: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(hook.body, hook.headers);
}

function safeJson(body: string): Record<string, any> {
  try {
    return JSON.parse(body);
  } catch {
    return {};
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the queue holds no job of `task` (ready or running). */
export async function drained(pool: Pool, task: string): Promise<void> {
  await eventually(async () => {
    return (await jobQueueOn(pool).figures({ task })).live === 0;
  });
}

/** Waits until no webhook delivery is left to send now: none pending, none being sent (leased). */
export async function deliveriesSettled(pool: Pool): Promise<void> {
  await eventually(async () => {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries
        WHERE status = 'pending' OR lease_until > now()`,
    );
    return rows[0]!.n === 0;
  });
}

/** Polls `check` until it returns a value other than undefined, null or false. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    // null is "not yet" too: a lookup's `?? null` must not pass at once.
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(50);
  }
}
