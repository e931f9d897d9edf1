import { createRequire } from 'node:module';
import os from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // n8n loads community nodes with require(), so their n8n-workflow is the CommonJS build; its
    // ESM build uses extensionless imports that Node's loader refuses (connectors/n8n tests).
    alias: [{ find: /^n8n-workflow$/, replacement: require.resolve('n8n-workflow') }],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/build-setup.ts', 'test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork per core less one: a single fork, the files one after the other,
    // on a 2-core machine. The files wait on PostgreSQL and on the processes they start (dlv, the
    // service) more than they compute, so two forks at least keep both cores busy (issue #25).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
