import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withTransaction } from '../src/db/pool.ts';
import { jobQueueOn } from '../src/infra/queue/job-queue.ts';
import { addJobSql, enqueueJobsSql, orderQueueName, QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { createOrder } from './support/orders.ts';
import { failForGood, holdAsDeadWorker } from './support/queued-jobs.ts';

/**
 * The contract of src/infra/queue with the installed graphile-worker: every function of the queue
 * module against the real database. The module reads the library's private tables, which change
 * between its releases: an upgrade must fail here (and only here) until the module follows it.
 * Tasks are named for this file alone, so no worker of another test file runs their jobs.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const uniqueTask = () => `queue_contract_${randomBytes(4).toString('hex')}`;
const inAnHour = () => new Date(Math.round(Date.now() / 1000) * 1000 + 3600_000);

describe('the job queue (graphile-worker)', () => {
  it('is graphile-worker 0.16, the release the queue module is written against', () => {
    const installed = JSON.parse(
      readFileSync(new URL('../node_modules/graphile-worker/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(installed.version).toMatch(/^0\.16\.\d+$/);
  });

  it("enqueues in the change's statement: rolled back, no job; committed, one job with its payload, queue and due time", async () => {
    const task = uniqueTask();
    const queue = jobQueueOn(t.pool);
    const runAt = inAnHour();
    const enqueue = (client: Parameters<typeof jobQueueOn>[0]) =>
      client.query(
        `WITH change AS (SELECT 'ref-1' AS ref)
         SELECT ${addJobSql({
           task: '$1',
           payload: `json_build_object('v', 1, 'ref', change.ref)`,
           queueName: `'contract:' || change.ref`,
           runAt: '$2::timestamptz',
           maxAttempts: 7,
         })} FROM change`,
        [task, runAt],
      );

    await expect(
      withTransaction(t.pool, async (client) => {
        await enqueue(client);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await queue.figures({ task })).jobs).toBe(0);

    await withTransaction(t.pool, enqueue);
    const [job, ...others] = await queue.list({ task });
    expect(others).toEqual([]);
    expect(job).toMatchObject({
      task,
      payload: { v: 1, ref: 'ref-1' },
      queueName: 'contract:ref-1',
      runAt,
      attempts: 0,
      maxAttempts: 7,
      lockedBy: null,
    });
    await queue.remove({ task });
  });

  it("enqueues a statement's jobs: rolled back, none; no row, none; committed, one per row, with a queue or not", async () => {
    const task = uniqueTask();
    const queue = jobQueueOn(t.pool);
    // Other test files share the database and enqueue jobs of their own: the notifications that count
    // are the ones sent by the connections this test committed on.
    const ours = new Set<number>();
    const enqueue = async (client: Parameters<typeof jobQueueOn>[0], refs: string[], queued: boolean) => {
      ours.add((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
      const jobs = enqueueJobsSql(
        'jobs',
        {
          task: '$1',
          payload: `json_build_object('v', 1, 'ref', change.ref)`,
          ...(queued && { queueName: `'contract:' || change.ref` }),
          maxAttempts: 7,
        },
        'change',
      );
      return client.query(
        `WITH change AS (SELECT unnest($2::text[]) AS ref), ${jobs.ctes} SELECT ${jobs.count}::int AS n`,
        [task, refs],
      );
    };
    const listener = await t.pool.connect();
    const heard: { pid: number; payload: string }[] = [];
    listener.on('notification', (m) => heard.push({ pid: m.processId, payload: m.payload ?? '' }));
    await listener.query('LISTEN "jobs:insert"');
    try {
      await expect(
        withTransaction(t.pool, async (client) => {
          await enqueue(client, ['ref-1', 'ref-2'], false);
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect((await queue.figures({ task })).jobs).toBe(0);
      expect((await withTransaction(t.pool, (client) => enqueue(client, [], false))).rows[0].n).toBe(0);
      expect((await queue.figures({ task })).jobs).toBe(0);

      // A task the queue has never seen, and jobs in queues: through add_jobs.
      expect((await withTransaction(t.pool, (client) => enqueue(client, ['ref-1'], false))).rows[0].n).toBe(
        1,
      );
      expect(
        (await withTransaction(t.pool, (client) => enqueue(client, ['ref-2', 'ref-3'], true))).rows[0].n,
      ).toBe(2);
      // A known task, no queue: inserted by the statement itself.
      expect(
        (await withTransaction(t.pool, (client) => enqueue(client, ['ref-4', 'ref-5'], false))).rows[0].n,
      ).toBe(2);

      const jobs = await queue.list({ task });
      const refOf = (j: (typeof jobs)[number]) => (j.payload as { ref: string }).ref;
      jobs.sort((a, b) => refOf(a).localeCompare(refOf(b)));
      expect(jobs.map((j) => [j.payload, j.queueName, j.attempts, j.maxAttempts, j.lockedBy])).toEqual([
        [{ v: 1, ref: 'ref-1' }, null, 0, 7, null],
        [{ v: 1, ref: 'ref-2' }, 'contract:ref-2', 0, 7, null],
        [{ v: 1, ref: 'ref-3' }, 'contract:ref-3', 0, 7, null],
        [{ v: 1, ref: 'ref-4' }, null, 0, 7, null],
        [{ v: 1, ref: 'ref-5' }, null, 0, 7, null],
      ]);
      // Due now, as add_jobs makes them; and the workers are told, as add_jobs tells them.
      expect(jobs.every((j) => Math.abs(j.runAt.getTime() - Date.now()) < 60_000)).toBe(true);
      await vi.waitFor(() =>
        expect(
          heard
            .filter((n) => ours.has(n.pid))
            .map((n) => JSON.parse(n.payload).count)
            .sort(),
        ).toEqual([1, 2, 2]),
      );
    } finally {
      await listener.query('UNLISTEN "jobs:insert"');
      listener.release();
      await queue.remove({ task });
    }
  });

  it('add: inside the transaction like the SQL; a second job with the same key replaces the waiting one', async () => {
    const task = uniqueTask();
    const queue = jobQueueOn(t.pool);
    await expect(
      withTransaction(t.pool, async (client) => {
        await jobQueueOn(client).add(task, { v: 1 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await queue.figures({ task })).jobs).toBe(0);

    const runAt = inAnHour();
    const first = await withTransaction(t.pool, (client) =>
      jobQueueOn(client).add(task, { v: 1, n: 'first' }, { jobKey: `${task}:k`, runAt, maxAttempts: 3 }),
    );
    const second = await queue.add(
      task,
      { v: 1, n: 'second' },
      { jobKey: `${task}:k`, runAt, maxAttempts: 3 },
    );
    expect(second).toBe(first);
    const jobs = await queue.list({ task });
    expect(jobs.map((j) => [j.id, j.payload, j.key, j.maxAttempts])).toEqual([
      [first, { v: 1, n: 'second' }, `${task}:k`, 3],
    ]);
    expect(await queue.list({ key: `${task}:k` })).toHaveLength(1);
    await queue.remove({ task });
  });

  it('inspects: counts (ready, running, failed), the oldest due time, jobs by payload; removes the unheld ones', async () => {
    const task = uniqueTask();
    const queue = jobQueueOn(t.pool);
    const past = new Date(Date.now() - 60_000);
    const ready = await queue.add(task, { v: 1, kind: 'ready' }, { runAt: past });
    const later = await queue.add(task, { v: 1, kind: 'later' }, { runAt: inAnHour() });
    const running = await queue.add(task, { v: 1, kind: 'running' }, { runAt: past });
    const failed = await queue.add(task, { v: 1, kind: 'failed' }, { runAt: past });
    await holdAsDeadWorker(t.pool, [running], 'contract-worker', '1 second');
    await failForGood(t.pool, [failed], 'gave up');

    const figures = await queue.figures({ task });
    expect(figures).toEqual({
      jobs: 4,
      live: 3,
      ready: 2,
      running: 1,
      failed: 1,
      oldestDueAt: expect.any(Date),
    });
    expect(figures.oldestDueAt!.getTime()).toBeLessThanOrEqual(Date.now() - 59_000);
    expect((await queue.figures({ task, payloadContains: { kind: 'later' } })).jobs).toBe(1);
    const [gaveUp] = await queue.list({ task, payloadContains: { kind: 'failed' } });
    expect(gaveUp).toMatchObject({ id: failed, lastError: 'gave up' });
    expect(gaveUp!.attempts).toBe(gaveUp!.maxAttempts);

    // The held job stays (a worker has it) unless asked for.
    const removed = await queue.remove({ task });
    expect(removed.map((r) => r.id).sort()).toEqual([ready, later, failed].sort());
    expect(removed.find((r) => r.id === ready)).toEqual({
      id: ready,
      task,
      payload: { v: 1, kind: 'ready' },
    });
    expect((await queue.figures({ task })).jobs).toBe(1);
    await queue.remove({ ids: [running] }, { evenLocked: true });
    expect((await queue.figures({ task })).jobs).toBe(0);
  });

  it('frees the jobs of the given tasks held past their grace, by unlocking their workers, and only those', async () => {
    const task = uniqueTask();
    const other = uniqueTask();
    const queue = jobQueueOn(t.pool);
    const stalled = await queue.add(task, { v: 1 }, { runAt: inAnHour() });
    const recent = await queue.add(task, { v: 1 }, { runAt: inAnHour() });
    const otherTask = await queue.add(other, { v: 1 }, { runAt: inAnHour() });
    const dead = `dead-${task}`;
    await holdAsDeadWorker(t.pool, [stalled], dead, '10 minutes');
    await holdAsDeadWorker(t.pool, [recent], `alive-${task}`, '1 minute');
    await holdAsDeadWorker(t.pool, [otherTask], `dead-${other}`, '10 minutes');

    expect(await queue.unlockStalled([task], 5 * 60_000)).toBe(1);
    const lockedBy = Object.fromEntries(
      (await queue.list({ ids: [stalled, recent, otherTask] })).map((j) => [j.id, j.lockedBy]),
    );
    expect(lockedBy).toEqual({ [stalled]: null, [recent]: `alive-${task}`, [otherTask]: `dead-${other}` });
    expect(await queue.unlockStalled([task], 5 * 60_000)).toBe(0);
    await queue.remove({ ids: [stalled, recent, otherTask] }, { evenLocked: true });
  });

  it('names a queue by the id its jobs carry; the queued-jobs relation has its columns', async () => {
    const task = uniqueTask();
    const queue = jobQueueOn(t.pool);
    const id = await queue.add(task, { v: 1 }, { queueName: `contract:${task}`, runAt: inAnHour() });
    const { rows } = await t.pool.query(`SELECT * FROM ${QUEUED_JOBS} j WHERE j.id = $1`, [id]);
    expect(Object.keys(rows[0]).sort()).toEqual(
      [
        'attempts',
        'id',
        'key',
        'last_error',
        'locked_at',
        'locked_by',
        'max_attempts',
        'payload',
        'queue_id',
        'run_at',
        'task',
      ].sort(),
    );
    expect(await queue.queueName(rows[0].queue_id)).toBe(`contract:${task}`);
    expect(await queue.queueName(-1)).toBeNull();
    await queue.remove({ task });
  });

  it('drops the empty per-order queues of finished orders; keeps those with a job or whose order may still move', async () => {
    const brand = await createBrandWithKey(t.deps);
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await createOrder(t.app, brand);
      expect(created.statusCode).toBe(200);
      refs.push(created.data.trackingRef);
    }
    const [finished, finishedWithJob, moving] = refs as [string, string, string];
    await t.pool.query(`UPDATE orders SET status = 'cancelled' WHERE tracking_ref = ANY($1::text[])`, [
      [finished, finishedWithJob],
    ]);
    const prefix = `contract${randomBytes(3).toString('hex')}`;
    const queue = jobQueueOn(t.pool);
    const ids = [];
    for (const ref of refs)
      ids.push(await queue.add(uniqueTask(), { v: 1 }, { queueName: orderQueueName(prefix, ref) }));
    // Done: their queues stay behind, empty.
    await queue.remove({ ids: [ids[0]!, ids[2]!] });
    // Another platform's queue of the same finished order is not this prefix's.
    await queue.remove({
      ids: [await queue.add(uniqueTask(), { v: 1 }, { queueName: orderQueueName(`${prefix}x`, finished) })],
    });

    const queueNames = async () =>
      (
        await t.pool.query<{ queue_name: string }>(
          'SELECT queue_name FROM graphile_worker._private_job_queues WHERE queue_name LIKE $1 ORDER BY queue_name',
          [`${prefix}%`],
        )
      ).rows.map((r) => r.queue_name);
    expect(await queueNames()).toEqual(
      [
        orderQueueName(prefix, finished),
        orderQueueName(prefix, finishedWithJob),
        orderQueueName(prefix, moving),
        orderQueueName(`${prefix}x`, finished),
      ].sort(),
    );
    expect(await queue.deleteFinishedOrderQueues(prefix, ['cancelled', 'delivered'])).toBe(1);
    expect(await queueNames()).toEqual(
      [
        orderQueueName(prefix, finishedWithJob),
        orderQueueName(prefix, moving),
        orderQueueName(`${prefix}x`, finished),
      ].sort(),
    );
    await queue.remove({ ids: [ids[1]!] });
  });
});
