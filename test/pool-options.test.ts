import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { testDatabaseUrl } from './support/app.ts';

describe('the pool of a process (issue #25)', () => {
  it('names its connections and bounds their statements: DATABASE_STATEMENT_TIMEOUT_MS, 30 s by default', async () => {
    const byDefault = await openDatabase(loadConfig({ DATABASE_URL: testDatabaseUrl() }), 1, {
      applicationName: 'dlv-test-pool',
    });
    try {
      const { rows } = await byDefault.pool.query<{ timeout: string; name: string }>(
        "SELECT current_setting('statement_timeout') AS timeout, current_setting('application_name') AS name",
      );
      expect(rows[0]).toEqual({ timeout: '30s', name: 'dlv-test-pool' });
    } finally {
      await byDefault.close();
    }

    const set = await openDatabase(
      loadConfig({ DATABASE_URL: testDatabaseUrl(), DATABASE_STATEMENT_TIMEOUT_MS: '150' }),
      1,
    );
    try {
      await expect(set.pool.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await set.close();
    }
  });
});
