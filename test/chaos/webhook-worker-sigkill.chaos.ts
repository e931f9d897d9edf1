import { spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { QUEUED_JOBS } from '../../src/infra/queue/queue-sql.ts';
import { startWorker } from '../../src/worker.ts';
import { testOperator } from '../support/audit.ts';
import { DLV_BIN } from '../support/run-cli.ts';
import { eventually, startReceiver } from '../support/webhook-receiver.ts';
import { useOwnedCluster } from './harness.ts';

const PICKUP = '1 rue de Rivoli 75001 Paris';
const ORDER = { customer_email: 'w@example.com', delivery_address: '1 rue X 75011 Paris' };

const { state, cleanup } = useOwnedCluster();

describe('crash safety: a worker killed with SIGKILL with jobs and webhook sends in hand', () => {
  it('has them run again by a live worker within 60 s, every event delivered', async () => {
    const url = state.cluster.url;
    const config = { ...loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), webhooksAllowInsecure: true };
    const pool = createPool(url, 6);
    cleanup.push(() => pool.end());
    const deps = createDeps(config, pool);
    let holding = true;
    const receiver = await startReceiver(() => (holding ? 'hold' : { status: 200 }));
    cleanup.push(() => receiver.close());
    const { endpoint } = await deps.webhooks.add(
      {
        brandId: state.brand.brandId,
        url: receiver.url('/hooks'),
      },
      testOperator,
    );
    const create = async (n: number) => {
      for (let i = 0; i < n; i++)
        await deps.orders.create({ id: state.brand.brandId, defaultPickupAddress: PICKUP }, ORDER);
    };

    // Worker A (`dlv worker`, a process of its own) starts sending: the receiver holds its requests.
    await create(10);
    const a = spawn(process.execPath, [DLV_BIN, 'worker', '--concurrency', '2'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATABASE_URL: url,
        PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
        WEBHOOKS_ALLOW_INSECURE: '1',
      },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => a.once('exit', resolve));
    cleanup.push(async () => {
      a.kill('SIGKILL');
      await exited;
    });
    await eventually(async () => receiver.received.length >= 4, 60_000);

    // A also takes fan-out jobs, which wait on a row lock this test holds: jobs in A's hands.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [endpoint.id]);
    await create(10);
    const heldJobs = await eventually(async () => {
      const { rows } = await pool.query<{ id: string }>(
        `SELECT id FROM ${QUEUED_JOBS} j WHERE task = 'webhooks_fan_out' AND locked_at IS NOT NULL`,
      );
      return rows.length > 0 && rows;
    }, 30_000);

    // Worker B, alive, in this process: it must not take A's jobs while A lives.
    const bPool = createPool(url, 8);
    cleanup.push(() => bPool.end());
    const b = await startWorker(createDeps(config, bPool), { concurrency: 2, pollIntervalMs: 200 });
    cleanup.push(() => b.stop());

    a.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    await blocker.query('ROLLBACK');
    await blocker.end();
    holding = false;

    // Every job A held is done (gone from the queue), every event delivered, within 60 s.
    const { rows: events } = await pool.query<{ id: string }>(
      'SELECT id FROM outbox_events WHERE brand_id = $1',
      [state.brand.brandId],
    );
    expect(events).toHaveLength(20);
    await eventually(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${QUEUED_JOBS} j WHERE j.id = ANY($1::bigint[])`,
        [heldJobs.map((j) => j.id)],
      );
      return rows[0]!.n === 0;
    }, 60_000);
    await eventually(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`,
        [endpoint.id],
      );
      return rows[0]!.n === 20;
    }, 60_000);
    const recoveredInMs = Date.now() - killedAt;
    const answered = new Set(
      receiver.received.filter((r) => r.at >= killedAt).map((r) => r.headers['webhook-id']),
    );
    expect(events.filter((e) => !answered.has(e.id))).toEqual([]);
    expect(recoveredInMs).toBeLessThanOrEqual(60_000);
    console.info(
      `[chaos] worker SIGKILLed holding ${heldJobs.length} fan-out job(s) and ${receiver.received.filter((r) => r.at < killedAt).length} sends: ` +
        `all 20 events delivered ${(recoveredInMs / 1000).toFixed(1)} s after the kill`,
    );
  }, 150_000);
});
