import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the account area and the tracking page driven in a real Chromium
 * (Debian's /usr/bin/chromium through playwright-core), against the real app listening on
 * loopback. Kept out of `npm test` (files end in `.browser.ts`); skipped when Chromium is missing.
 * One file at a time: a browser and a server each, on a small machine.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
