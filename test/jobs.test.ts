import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEANUP_IDEMPOTENCY_KEYS } from '../src/jobs/cleanup-idempotency-keys.ts';
import { startWorker } from '../src/worker.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
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
      await t.pool.query(`SELECT graphile_worker.add_job($1, '{}'::json)`, [CLEANUP_IDEMPOTENCY_KEYS.name]);
      const started = Date.now();
      let keys: string[] = [];
      do {
        await new Promise((r) => setTimeout(r, 100));
        keys = (
          await t.pool.query('SELECT key FROM idempotency_keys WHERE brand_id = $1 ORDER BY key', [
            brand.brandId,
          ])
        ).rows.map((r) => r.key);
      } while (keys.length > 1 && Date.now() - started < 10_000);
      expect(keys).toEqual(['new']);
    } finally {
      await runner.stop();
    }
  });
});
