import { defineConfig } from 'vitest/config';

/**
 * `npm run test:chaos`: crash-safety tests that own a PostgreSQL cluster, spawn the real server and
 * kill things (the API with SIGKILL, PostgreSQL with `pg_ctl -m immediate`). Kept out of `npm test`
 * (their files end in `.chaos.ts`) and run one file at a time, since they measure timings.
 */
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    // They run the compiled server (dist/service.js): rebuilt first when older than src/.
    globalSetup: ['test/support/build-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
