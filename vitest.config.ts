import { createRequire } from 'node:module';
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
  },
});
