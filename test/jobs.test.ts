import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobQueueOn } from '../src/infra/queue/job-queue.ts';
import { CLEANUP_IDEMPOTENCY_KEYS } from '../src/jobs/cleanup-idempotency-keys.ts';
import { JOBS } from '../src/jobs/index.ts';
import { JOB_SPECS } from '../src/jobs/job-names.ts';
import { startWorker } from '../src/worker.ts';
import { createBrandWithKey } from './support/app.ts';
import { holdAsDeadWorker } from './support/queued-jobs.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';
import { eventually } from './support/webhook-receiver.ts';

// A database of its own: a worker on the shared one would run other test files' jobs (their
// recipients' messages, their reset mails), which those files run by hand and would not find.
let t: ScratchTestApp;
beforeAll(async () => {
  t = await buildScratchTestApp();
});
afterAll(() => t.close());

describe('job runner', () => {
  it('runs the Idempotency-Key cleanup: keys older than 24 h go, recent ones stay', async () => {
    const brand = await createBrandWithKey(t.deps);
    await t.pool.query(
      `INSERT INTO idempotency_keys (brand_id, key, request_hash, status_code, response_body, created_at) VALUES
         ($1, 'old', '\\x00', 200, '{}', now() - interval '25 hours'),
         ($1, 'new', '\\x00', 200, '{}', now() - interval '23 hours')`,
      [brand.brandId],
    );
    const runner = await startWorker(t.deps, { pollIntervalMs: 100 });
    try {
      await jobQueueOn(t.pool).add(CLEANUP_IDEMPOTENCY_KEYS.name, {});
      const started = Date.now();
      let keys: string[] = [];
      do {
        await new Promise((r) => setTimeout(r, 100));
        keys = (
          await t.pool.query('SELECT key FROM idempotency_keys WHERE brand_id = $1 ORDER BY key', [
            brand.brandId,
          ])
        ).rows.map((r) => r.key);
        // A generous deadline for a busy machine (the loop ends as soon as the job has run).
      } while (keys.length > 1 && Date.now() - started < 50_000);
      expect(keys).toEqual(['new']);
    } finally {
      await runner.stop();
    }
  }, 60_000);
});

describe('job log lines', () => {
  it("name the job and its attempt, not its payload (the reset mail's is an e-mail address)", async () => {
    // A database of its own: on the shared one another file's worker could run the job.
    const scratch = await buildScratchTestApp();
    const lines: { level: string; message: string; meta?: Record<string, unknown> }[] = [];
    const runner = await startWorker(scratch.deps, {
      pollIntervalMs: 100,
      log: (level, message, meta) => lines.push({ level, message, meta }),
    });
    try {
      const email = 'nobody-in-the-logs@example.com';
      await scratch.deps.accounts.requestReset({ email, locale: 'fr', ip: '127.0.0.1' });
      const completed = await eventually(
        async () =>
          lines.find(
            (l) => l.message.startsWith('Completed task') && l.message.includes('account_reset_mail'),
          ),
        50_000,
      );
      expect(completed.meta?.job).toMatchObject({ task: 'account_reset_mail', attempts: 1 });
      expect(JSON.stringify(lines)).not.toContain(email);
    } finally {
      await runner.stop();
      await scratch.close();
    }
  }, 60_000);
});

describe('job names', () => {
  it('every job the worker runs is listed in the leaf module with the same spec (recovery and SQL read it there)', () => {
    const specOf = (job: (typeof JOB_SPECS)[number]) => ({
      name: job.name,
      payloadVersion: job.payloadVersion,
      fields: job.fields,
      maxAttempts: job.maxAttempts,
      stalledAfterMs: job.stalledAfterMs,
    });
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(JOBS.map(specOf).sort(byName)).toEqual(JOB_SPECS.map(specOf).sort(byName));
  });
});

describe('recover_stalled_jobs', () => {
  it('frees the jobs a dead worker held past their grace (those that declare one), and only those', async () => {
    const { RECOVER_STALLED_JOBS } = await import('../src/jobs/recover-stalled-jobs.ts');
    const { WEBHOOKS_FAN_OUT } = await import('../src/jobs/webhooks-fan-out.ts');
    const { ISSUE_DUE_INVOICES } = await import('../src/jobs/issue-invoices.ts');
    const queue = jobQueueOn(t.pool);
    const add = (task: string, queueName: string) =>
      queue.add(
        task,
        { v: 1, event_id: 'msg_nothing' },
        { runAt: new Date(Date.now() + 3600_000), queueName },
      );
    const stalled = await add(WEBHOOKS_FAN_OUT.name, 'q-stalled');
    const recent = await add(WEBHOOKS_FAN_OUT.name, 'q-recent');
    const undeclared = await add(ISSUE_DUE_INVOICES.name, 'q-undeclared');
    // As SIGKILL leaves them: locked by workers that will never finish.
    const lock = (id: string, worker: string, ago: string) => holdAsDeadWorker(t.pool, [id], worker, ago);
    await lock(stalled, 'dead-1', '10 minutes');
    await lock(recent, 'alive-2', '1 minute');
    await lock(undeclared, 'dead-3', '10 minutes');

    const logged: string[] = [];
    const helpers = { logger: { info: (m: string) => logged.push(m) } } as never;
    await RECOVER_STALLED_JOBS.run(t.deps, {}, helpers);

    const jobs = await queue.list({ ids: [stalled, recent, undeclared] });
    const lockedBy = Object.fromEntries(jobs.map((j) => [j.id, j.lockedBy]));
    expect(lockedBy).toEqual({ [stalled]: null, [recent]: 'alive-2', [undeclared]: 'dead-3' });
    expect(logged).toEqual(['ran again 1 jobs held by a worker that died']);
    await queue.remove({ ids: [stalled, recent, undeclared] }, { evenLocked: true });
  });
});
