import { describe, expect, it } from 'vitest';
import { jobLogMeta } from './job-log-meta.ts';

describe('jobLogMeta', () => {
  it("keeps a job's id, task and attempt, and drops its payload and the rest of its row", () => {
    const job = {
      id: '42',
      job_queue_id: null,
      task_identifier: 'account_reset_mail',
      payload: { v: 1, email: 'someone@example.com', locale: 'fr' },
      attempts: 1,
      max_attempts: 5,
      last_error: null,
      locked_by: 'worker-abc',
      key: null,
    };
    const meta = jobLogMeta({ job, duration: 3.2, success: true });
    expect(meta).toEqual({
      job: { id: '42', task: 'account_reset_mail', attempts: 1, max_attempts: 5 },
      duration: 3.2,
      success: true,
    });
    expect(JSON.stringify(meta)).not.toContain('someone@example.com');
  });

  it('names the queue of a queued job, and leaves lines without a job as they are', () => {
    const job = {
      id: '7',
      job_queue_id: 3,
      task_identifier: 'shopify_sync_order',
      attempts: 2,
      max_attempts: 25,
    };
    expect(jobLogMeta({ job })?.job).toEqual({
      id: '7',
      task: 'shopify_sync_order',
      attempts: 2,
      max_attempts: 25,
      queue_id: 3,
    });
    const plain = { workerId: 'worker-abc' };
    expect(jobLogMeta(plain)).toBe(plain);
    expect(jobLogMeta(undefined)).toBeUndefined();
  });
});
