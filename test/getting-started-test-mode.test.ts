import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveApi, startLiveApi } from './support/live-api.ts';
import { run } from './support/php.ts';

/**
 * docs/getting-started-test-mode.md is followed by developers as written: its SDK snippets are run
 * here against the real API with a test key (TypeScript with tsx; PHP and Python when their
 * libraries are installed, as for the SDKs' own tests), and the page is linked from where a developer
 * starts (README, API guide, test mode).
 */
const root = path.resolve(import.meta.dirname, '..');
const PAGE = readFileSync(path.join(root, 'docs/getting-started-test-mode.md'), 'utf8');

/** The page's code block in `lang` whose first line names `file`. */
function snippet(lang: string, file: string): string {
  const block = [...PAGE.matchAll(/```(\w+)\n([\s\S]*?)```/g)].find(
    (m) =>
      m[1] === lang &&
      m[2]!
        .split('\n')
        .slice(0, 3)
        .some((line) => line.includes(file)),
  );
  if (!block) throw new Error(`no ${lang} block for ${file} in the page`);
  return block[2]!;
}

let api: LiveApi;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  api = await startLiveApi();
  const key = await api.testKey(await api.brand({ name: 'Maison getting started' }));
  env = { DLV_TEST_KEY: key.key, DLV_BASE_URL: api.base };
  dir = mkdtempSync(path.join(os.tmpdir(), 'dlv-getting-started-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api?.close();
});

const php = await run('php', ['-r', 'exit(stream_resolve_include_path("GuzzleHttp/autoload.php") ? 0 : 3);']);
const python = (await run('/usr/bin/python3', ['-c', 'import httpx'])).code === 0;
if (php.code !== 0)
  console.warn('SKIPPED the PHP snippet of getting-started-test-mode.md: php or Guzzle missing');
if (!python)
  console.warn('SKIPPED the Python snippet of getting-started-test-mode.md: python3-httpx missing');

describe('getting started in test mode (the page’s snippets, run)', () => {
  it('is linked from the README, the API guide and the test mode page', () => {
    for (const file of ['README.md', 'docs/api-guide.md', 'docs/test-mode.md'])
      expect(readFileSync(path.join(root, file), 'utf8'), file).toContain('getting-started-test-mode.md');
  });

  it('the TypeScript snippet creates a test order and simulates it to the door', async () => {
    const file = path.join(dir, 'first-order.mts');
    // The page runs it from the checkout: its relative import, made absolute for a file elsewhere.
    writeFileSync(file, snippet('ts', 'first-order.mts').replace("'./sdks/", `'${root}/sdks/`));
    const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
    const result = await run(process.execPath, [tsx, file], { cwd: root, env });
    expect(result.stdout, result.stderr).toMatch(/^DLV-[0-9A-Z]{10} pending livemode: false\ndelivered\n$/);
  }, 60_000);

  it.skipIf(php.code !== 0)('the PHP snippet creates a test order and fails it at the door', async () => {
    const file = path.join(dir, 'first-order.php');
    writeFileSync(file, snippet('php', 'first-order.php'));
    const result = await run('php', [file], { cwd: root, env });
    expect(result.stdout, result.stderr).toMatch(/^DLV-[0-9A-Z]{10} livemode: false\nfailed_attempt\n$/);
  });

  it.skipIf(!python)('the Python snippet creates a test order and returns it', async () => {
    const file = path.join(dir, 'first_order.py');
    writeFileSync(file, snippet('python', 'first_order.py'));
    const result = await run('/usr/bin/python3', [file], {
      cwd: root,
      env: { ...env, PYTHONPATH: path.join(root, 'sdks/python'), PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(result.stdout, result.stderr).toMatch(/^DLV-[0-9A-Z]{10} livemode: False\nreturned\n$/);
  });
});
