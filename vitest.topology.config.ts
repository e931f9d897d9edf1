import { defineConfig } from 'vitest/config';

/**
 * `npm run test:topology`: compose.yaml's services started as processes on loopback behind the
 * committed haproxy configuration (test/support/topology.ts), with instances stopped and killed
 * under load. Kept out of `npm test` (files end in `.topology.ts`), one file at a time: each starts
 * two APIs, two workers, Redis and haproxy.
 */
export default defineConfig({
  test: {
    include: ['test/topology/**/*.topology.ts'],
    // The services run compiled (dist/service.js): rebuilt once when older than src/.
    globalSetup: ['test/support/build-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
