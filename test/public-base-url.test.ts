/**
 * One public base URL for every process (issue #36): run with only DATABASE_URL, as an operator
 * does, `dlv orders set-status` sent `tracking_url: http://127.0.0.1:3000/track/…` and `dlv users
 * invite` mailed `http://127.0.0.1:3000/account/invite?…`. The API records its PUBLIC_BASE_URL when
 * it starts; dlv and the workers without one use it, and refuse in a sentence while none is known.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrandWithKey } from './support/app.ts';
import { createOrder, subscribeToWebhooks } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import {
  buildScratchTestApp,
  createScratchDatabase,
  type ScratchTestApp,
} from './support/scratch-database.ts';
import { startSmtpReceiver } from './support/smtp-receiver.ts';
import { spawnServer } from './support/spawn-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PUBLIC = 'https://dlv.example.com';
/** An https PUBLIC_BASE_URL needs the opt-out list's key, the same in every process (docs/security.md). */
const OPT_OUT_KEY = 'ab'.repeat(32);

let t: ScratchTestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await buildScratchTestApp();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** `node dist/service.js worker` with `env`: its exit code, or `started` once it says its jobs run (then stopped). */
function startWorker(
  env: Record<string, string>,
): Promise<{ outcome: 'started' | number | null; output: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, ['dist/service.js', 'worker'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const check = (chunk: Buffer) => {
      output += chunk;
      if (!started && /worker started/.test(output)) {
        started = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    // Neither started nor refused within 20 s: stopped, never left running after the test.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ outcome: started ? 'started' : code, output });
    });
  });
}

async function statusOf(ref: string): Promise<string> {
  const { rows } = await t.pool.query<{ status: string }>(
    'SELECT status FROM orders WHERE tracking_ref = $1',
    [ref],
  );
  return rows[0]!.status;
}

async function eventsOf(brandId: string) {
  const { rows } = await t.pool.query<{ type: string; data: { order: { tracking_url: string } } }>(
    "SELECT type, data FROM outbox_events WHERE brand_id = $1 AND type = 'order.status_changed' ORDER BY seq",
    [brandId],
  );
  return rows;
}

describe('the public base URL every process writes into links', () => {
  let brand: Awaited<ReturnType<typeof createBrandWithKey>>;
  let ref: string;
  const operator = () => ({
    DATABASE_URL: t.databaseUrl,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'silent',
    OPT_OUT_KEY,
  });

  beforeAll(async () => {
    brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    ref = (await createOrder(t.app, brand)).data.trackingRef;
  });

  it('before any API recorded one, dlv with only DATABASE_URL refuses what writes links, and writes nothing', async () => {
    const moved = await runDlv(['orders', 'set-status', ref, 'picked_up'], operator());
    expect(moved.code, moved.stderr).toBe(1);
    expect(moved.stderr).toContain('dlv: PUBLIC_BASE_URL is unknown: dlv writes links');
    expect(moved.stderr).toContain('Set PUBLIC_BASE_URL as on the API, or start the API with it once');
    expect(moved.stderr).not.toContain('127.0.0.1');
    expect(await statusOf(ref)).toBe('pending');
    expect(await eventsOf(brand.brandId)).toEqual([]);

    const invited = await runDlv(
      ['users', 'invite', '--brand', brand.brandId, '--email', 'early@example.com'],
      operator(),
    );
    expect(invited.code, invited.stderr).toBe(1);
    expect(smtp.inbox.filter((m) => m.to.includes('early@example.com'))).toEqual([]);

    // What writes no link still runs: the core commands, dlv migrate, and those declared so.
    for (const args of [['brands', 'list'], ['migrate'], ['sort-codes', 'list'], ['couriers', 'list']]) {
      const res = await runDlv([...args, '--json'], operator());
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    }
  });

  it('refuses to start a worker given none on such a database, in a sentence', async () => {
    const empty = await createScratchDatabase();
    try {
      const worker = await startWorker({ DATABASE_URL: empty.url, LOG_LEVEL: 'warn' });
      expect(worker.outcome, worker.output).toBe(1);
      expect(worker.output).toContain(
        'configuration error: PUBLIC_BASE_URL is unknown: the worker writes links (tracking pages, invitations',
      );
      expect(worker.output).not.toMatch(/\n\s+at /);
    } finally {
      await empty.drop();
    }
  });

  it("once the API started with PUBLIC_BASE_URL, dlv and the workers without one use the API's", async () => {
    const api = await spawnServer({
      DATABASE_URL: t.databaseUrl,
      PUBLIC_BASE_URL: PUBLIC,
      OPT_OUT_KEY,
      PORT: '0',
      RUN_WORKER: '0',
    });
    api.child.kill('SIGTERM');
    await api.exited;

    const moved = await runDlv(['orders', 'set-status', ref, 'picked_up'], operator());
    expect(moved.code, moved.stderr).toBe(0);
    const [event] = await eventsOf(brand.brandId);
    expect(event!.data.order.tracking_url).toMatch(new RegExp(`^${PUBLIC}/track/`));

    const invited = await runDlv(
      ['users', 'invite', '--brand', brand.brandId, '--email', 'invited@example.com'],
      operator(),
    );
    expect(invited.code, invited.stderr).toBe(0);
    expect(smtp.linkTo('invited@example.com', '/account/invite')).toMatch(
      new RegExp(`^${PUBLIC}/account/invite\\?token=`),
    );

    const worker = await startWorker({ DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'info', OPT_OUT_KEY });
    expect(worker.outcome, worker.output).toBe('started');
  });

  it("warns when its own PUBLIC_BASE_URL differs from the API's, and uses its own", async () => {
    const shown = await runDlv(['orders', 'show', ref, '--json'], {
      ...operator(),
      PUBLIC_BASE_URL: 'https://other.example.com',
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toContain(
      `dlv: warning: PUBLIC_BASE_URL here (https://other.example.com) differs from the API's (${PUBLIC}, recorded`,
    );
    expect(JSON.parse(shown.stdout).order.tracking_url).toMatch(/^https:\/\/other\.example\.com\/track\//);
  });
});
