import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHECKOUT = fileURLToPath(new URL('..', import.meta.url));

describe('the test run', () => {
  // Issue #23: a failed global set-up (the embedded cluster not starting) ended `npm test` with
  // exit 1 and not a word; it now says what failed and what else to do.
  it('says why, in a sentence on stderr, when its database cannot be prepared', () => {
    const run = spawnSync(
      process.execPath,
      [path.join(CHECKOUT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/me.test.ts'],
      {
        cwd: CHECKOUT,
        // Port 1: nothing listens there, so the set-up's first connection is refused.
        env: { ...process.env, TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres', CI: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'The test database could not be prepared (on TEST_DATABASE_URL): connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(run.stderr).toContain('Check that TEST_DATABASE_URL points to a running PostgreSQL');
  });
});
