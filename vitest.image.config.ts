import { defineConfig } from 'vitest/config';

/**
 * `npm run test:image`: the Dockerfile's stages built and run as written (test/support/image-build.ts),
 * then the runtime stage's program started on a database of its own. Kept out of `npm test` (files
 * end in `.image.ts`): two `npm ci` and a build take minutes. It builds its own dist/, in the image.
 */
export default defineConfig({
  test: {
    include: ['test/image/**/*.image.ts'],
    testTimeout: 300_000,
    // The build: npm ci twice (from npm's cache when there is one) and the compilation.
    hookTimeout: 1_200_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
