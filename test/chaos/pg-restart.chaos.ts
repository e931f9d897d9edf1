import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.ts';
import {
  type Attempt,
  checkDatabase,
  freePort,
  getJson,
  killApi,
  postOrder,
  type RunningApi,
  retryUntilAnswered,
  sleep,
  startApi,
  useOwnedCluster,
} from './harness.ts';

/** Clients sending creations and reads without pause while PostgreSQL goes away and comes back. */
const CONCURRENCY = 16;
/** The API must serve again this soon after PostgreSQL accepts connections, without a restart. */
const RECOVERY_BOUND_MS = 10_000;
/** No request may take longer than this, outage or not (the pool gives up connecting after 5 s). */
const LATENCY_BOUND_MS = 10_000;
/**
 * The outage starts 1.5 s before a minute boundary, so that the job runner's cron tick (every
 * minute, on the minute) fires while nothing listens: graphile-worker stops its whole runner then,
 * and used to take the process down with an unhandled rejection.
 */
const OUTAGE_MS = 3_000;
const OUTAGE_LEAD_MS = 1_500;

const { state, cleanup } = useOwnedCluster();

interface Sample {
  kind: 'create' | 'read';
  startedAt: number;
  result: Attempt;
}

interface PendingJob {
  id: string;
  attempts: number;
  locked_by: string | null;
  locked_at: Date | null;
  run_at: Date;
  last_error: string | null;
}

/** Jobs of the webhook fan-out (one per created order) not yet done: the in-process worker's backlog. */
async function pendingFanOuts(url: string): Promise<PendingJob[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<PendingJob>(
      `SELECT id, attempts, locked_by, locked_at, run_at, last_error FROM graphile_worker.jobs
        WHERE task_identifier = 'webhooks_fan_out' ORDER BY id`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** The server's own log lines, without the (many) per-request 503 entries. */
const serverLog = (api: RunningApi) =>
  api
    .output()
    .split('\n')
    .filter((line) => !line.includes('"msg":"request failed"') && !/^\s+at /.test(line))
    .join('\n');

describe('crash safety: PostgreSQL crashed and restarted under load', () => {
  it('keeps a checked-out pool client whose connection dies from crashing the process', async () => {
    // pg emits 'error' on a client whose socket dies between two queries; the pool listens only
    // while the client is idle, and an 'error' event nobody listens to ends the process.
    const pool = createPool(state.cluster.url, 2);
    const client = await pool.connect();
    let released = false;
    try {
      expect(client.listenerCount('error')).toBeGreaterThan(0);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await sleep(200); // the termination reaches the idle, checked-out client
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release();
      released = true;
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      if (!released) client.release(true);
      await pool.end();
    }
  });

  it('answers 503 unavailable during the outage, recovers in the same process and loses nothing', async () => {
    const api: RunningApi = await startApi(state.cluster.url, await freePort());
    cleanup.push(() => killApi(api));
    const pid = api.child.pid;
    const run = randomBytes(4).toString('hex');
    let sequence = 0;
    const keys: string[] = [];
    const acknowledged = new Map<string, string>();
    const samples: Sample[] = [];

    async function create(): Promise<Sample> {
      const key = `chaos-pg-${run}-${String(sequence++).padStart(5, '0')}`;
      keys.push(key);
      const startedAt = Date.now();
      const result = await postOrder(api.base, state.brand, key, LATENCY_BOUND_MS + 5_000);
      if (result.kind === 'response' && result.status === 200) acknowledged.set(key, result.body.trackingRef);
      const sample: Sample = { kind: 'create', startedAt, result };
      samples.push(sample);
      return sample;
    }

    async function read(): Promise<Sample> {
      const refs = [...acknowledged.values()];
      const pathname =
        refs.length > 0 && Math.random() < 0.7
          ? `/orders/${refs[Math.floor(Math.random() * refs.length)]}`
          : '/orders?limit=5';
      const startedAt = Date.now();
      const result = await getJson(api.base, state.brand, pathname, LATENCY_BOUND_MS + 5_000);
      const sample: Sample = { kind: 'read', startedAt, result };
      samples.push(sample);
      return sample;
    }

    let loading = true;
    const load = Array.from({ length: CONCURRENCY }, async (_, client) => {
      for (let i = 0; loading; i++) {
        const sample = (client + i) % 3 === 2 ? await read() : await create();
        // Like a real client, back off a little after a failure rather than spin on 503s.
        if (sample.result.kind !== 'response' || sample.result.status !== 200) await sleep(100);
      }
    });

    /** Sends creations until one is acknowledged: the time the API needs to serve again. */
    async function timeToRecover(from: number): Promise<number> {
      while (Date.now() - from < RECOVERY_BOUND_MS + 5_000) {
        const sample = await create();
        if (sample.result.kind === 'response' && sample.result.status === 200) return Date.now() - from;
        await sleep(50);
      }
      return Number.POSITIVE_INFINITY;
    }

    try {
      await sleep(1_000);
      const before = acknowledged.size;

      // 1. A crash and immediate restart: every backend is killed, crash recovery runs.
      const restartAt = Date.now();
      await state.cluster.restartImmediate();
      const restartRecoveryMs = await timeToRecover(Date.now());
      const restartRecoveredAt = Date.now();

      // 2. A longer outage, across a minute boundary: nothing listens for OUTAGE_MS.
      await sleep(1_000);
      const untilNextMinute = 60_000 - (Date.now() % 60_000);
      await sleep((untilNextMinute - OUTAGE_LEAD_MS + 60_000) % 60_000);
      const stopAt = Date.now();
      await state.cluster.stopImmediate();
      const outageStart = Date.now();
      await sleep(OUTAGE_MS);
      const outageEnd = Date.now();
      await state.cluster.start();
      const outageRecoveryMs = await timeToRecover(Date.now());
      const outageRecoveredAt = Date.now();

      await sleep(1_000);
      loading = false;
      await Promise.all(load);

      // The same process served throughout.
      expect(api.child.exitCode, api.output()).toBeNull();
      expect(api.child.signalCode).toBeNull();
      expect(api.child.pid).toBe(pid);

      const responses = samples.flatMap((s) =>
        s.result.kind === 'response' ? [{ ...s, result: s.result }] : [],
      );
      const noAnswer = samples.filter((s) => s.result.kind === 'no-answer');
      const unavailable = responses.filter((s) => s.result.status === 503);
      const other = responses.filter((s) => s.result.status !== 200 && s.result.status !== 503);
      const duringOutage = responses.filter((s) => s.startedAt >= outageStart && s.startedAt < outageEnd);
      const slowest = Math.max(...samples.map((s) => s.result.ms));
      const unavailableWithin = (from: number, to: number) =>
        unavailable.filter((s) => s.startedAt >= from && s.startedAt < to).length;
      const phases = {
        restart: unavailableWithin(restartAt, restartRecoveredAt),
        outage: unavailableWithin(stopAt, outageRecoveredAt),
        afterRecovery:
          unavailableWithin(restartRecoveredAt, stopAt) +
          unavailableWithin(outageRecoveredAt, Number.POSITIVE_INFINITY),
      };

      expect(
        noAnswer.map((s) => s.result),
        'every request got an HTTP answer',
      ).toEqual([]);
      expect(
        other.map((s) => ({ status: s.result.status, body: s.result.body })),
        'no status but 200 and 503',
      ).toEqual([]);
      for (const s of unavailable) {
        expect(s.result.body).toEqual({
          ok: false,
          error: 'unavailable',
          message: expect.any(String),
          request_id: expect.any(String),
        });
      }
      // While nothing listens, every request is refused with 503 rather than left hanging.
      expect(duringOutage.length).toBeGreaterThan(0);
      expect(duringOutage.filter((s) => s.result.status !== 503)).toEqual([]);
      expect(slowest).toBeLessThan(LATENCY_BOUND_MS);
      expect(restartRecoveryMs).toBeLessThan(RECOVERY_BOUND_MS);
      expect(outageRecoveryMs).toBeLessThan(RECOVERY_BOUND_MS);

      // Retry every creation that was not acknowledged, with its key: exactly one order per key.
      const unanswered = keys.filter((key) => !acknowledged.has(key));
      const deadline = Date.now() + 30_000;
      const retried = await Promise.all(
        unanswered.map(async (key) => ({
          key,
          ...(await retryUntilAnswered(api.base, state.brand, key, deadline)),
        })),
      );
      const replayedOnRetry = retried.filter((r) => r.replayed).length;

      // The in-process job runner came back too: the fan-out job of every order gets done.
      const drainStarted = Date.now();
      let backlog = await pendingFanOuts(state.cluster.url);
      while (backlog.length > 0 && Date.now() - drainStarted < 20_000) {
        await sleep(250);
        backlog = await pendingFanOuts(state.cluster.url);
      }

      const db = await checkDatabase(state.cluster.url, state.brand.brandId);
      const lost = [...acknowledged].filter(([key, ref]) => db.refByReference.get(key) !== ref).length;
      console.log(
        `[chaos] PostgreSQL restart: ${keys.length} creations + ${samples.length - keys.length} reads by ` +
          `${CONCURRENCY} clients (${before} acknowledged before the crash); ` +
          `503s=${unavailable.length} (restart ${phases.restart}, outage ${phases.outage}, after recovery ${phases.afterRecovery}; ` +
          `${duringOutage.length} answered while nothing listened for ${OUTAGE_MS} ms), other errors=${other.length}, ` +
          `no-answer=${noAnswer.length}, slowest=${slowest} ms; serving again ${restartRecoveryMs} ms after ` +
          `\`pg_ctl restart -m immediate\`, ${outageRecoveryMs} ms after \`pg_ctl start\`; ` +
          `acknowledged=${acknowledged.size} retried=${retried.length} (replayed=${replayedOnRetry}) ` +
          `orders in db=${db.orders} lost=${lost} duplicates=${db.duplicates}; ` +
          `job runner restarted ${(api.output().match(/job runner restarted/g) ?? []).length} time(s), ` +
          `its backlog drained in ${Date.now() - drainStarted} ms (left: ${backlog.length})`,
      );

      expect(unavailable.length).toBeGreaterThan(0);
      expect(lost).toBe(0);
      expect(db.duplicates).toBe(0);
      expect(db.orders).toBe(keys.length);
      expect(db.storedKeys).toBe(keys.length);
      expect(db.mismatchedKeys).toBe(0);
      for (const r of retried) expect(db.refByReference.get(r.key)).toBe(r.trackingRef);
      expect(backlog, `the job runner did not recover:\n${serverLog(api).slice(-8000)}`).toEqual([]);
      expect(api.child.exitCode, api.output()).toBeNull();
    } catch (err) {
      console.error(`API output (without request lines):\n${serverLog(api).slice(-12000)}`);
      throw err;
    } finally {
      loading = false;
    }

    await killApi(api, 'SIGTERM');
  }, 150_000);
});
