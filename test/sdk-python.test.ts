import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './support/php.ts';
import { startSdkHarness } from './support/sdk-harness.ts';

const SDK = path.resolve(import.meta.dirname, '../sdks/python');

/**
 * A Python that has what the SDK's tests need (httpx, pytest): the one on PATH, else the system's
 * (Debian's python3-httpx and python3-pytest install there, beside a pyenv or venv on PATH).
 */
async function findPython(): Promise<string | null> {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    const probe = await run(candidate, ['-c', 'import httpx, pytest']);
    if (probe.code === 0) return candidate;
  }
  return null;
}

const python = await findPython();
if (!python) {
  console.warn(
    "SKIPPED the Python SDK's tests: no python3 with httpx and pytest (Debian's python3-httpx, python3-pytest; .ci/run installs them).",
  );
}

describe.skipIf(python === null)('the Python SDK against the running API', () => {
  it('passes its own tests (pytest): orders (test mode), pages, simulation, typed errors, retries, async, webhooks', async () => {
    const harness = await startSdkHarness('python');
    try {
      const result = await run(python!, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
        cwd: SDK,
        env: { ...harness.env, PYTHONPATH: SDK, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect(result.stdout + result.stderr).toMatch(/\b7 passed\b/);
      expect(result.code).toBe(0);
    } finally {
      await harness.close();
    }
  }, 120_000);
});
