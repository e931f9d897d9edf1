import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './support/php.ts';
import { startSdkHarness } from './support/sdk-harness.ts';

const SDK = path.resolve(import.meta.dirname, '../sdks/php');

const probe = await run('php', [
  '-r',
  'exit(stream_resolve_include_path("GuzzleHttp/autoload.php") ? 0 : 3);',
]);
const skipReason =
  probe.code === 3
    ? 'Debian’s php-guzzlehttp-guzzle (a PSR-18 client) is not installed'
    : probe.code !== 0
      ? 'php is not installed (Debian’s php-cli)'
      : null;
if (skipReason) console.warn(`SKIPPED the PHP SDK's tests: ${skipReason} (.ci/run installs it).`);

describe.skipIf(skipReason !== null)('the PHP SDK against the running API', () => {
  it('passes its own tests (tests/run.php): orders (test mode), pages, simulation, typed errors, retries, webhooks', async () => {
    const harness = await startSdkHarness('php');
    try {
      const result = await run('php', ['-d', 'zend.assertions=1', path.join(SDK, 'tests/run.php')], {
        env: harness.env,
      });
      expect(result.stdout + result.stderr).toContain('# all 6 passed');
      expect(result.code).toBe(0);
    } finally {
      await harness.close();
    }
  }, 120_000);

  it('lints every file of the package with php -l', async () => {
    for (const file of [
      'src/Client.php',
      'src/Webhook.php',
      'src/TestMode.php',
      'src/Generated/Operations.php',
      'src/autoload.php',
    ]) {
      expect(existsSync(path.join(SDK, file))).toBe(true);
      const result = await run('php', ['-l', path.join(SDK, file)]);
      expect(result.code, result.stdout).toBe(0);
    }
  });
});
