/**
 * package.json promises a Node.js range (`engines`): every package the lock file installs must run
 * on its oldest version. npm's own check says so (EBADENGINE), asked here with `npm ci --dry-run
 * --node-version=<the oldest promised>` on a copy of the manifest and the lock (no network, nothing
 * installed): cookie 2 (through @fastify/cookie and fastify's light-my-request) wanted Node ≥ 22
 * while `engines` said ≥ 20.19 (issue #36).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/compose-file.ts';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string; dev?: boolean }>;
};

/**
 * Two test-support packages (shopify-webhook-schemas → @jsonhero/schema-infer) declare `"node": "16"`
 * (16.x only) in their last and only releases: a slip of their authors, not a requirement (the
 * Shopify tests run them on 20). Development only; nothing else may be on this list.
 */
const DEV_ONLY_MISDECLARED = ['@jsonhero/json-infer-types', '@jsonhero/json-schema-fns'];

const work = mkdtempSync(path.join(tmpdir(), 'dlv-engines-'));
for (const file of ['package.json', 'package-lock.json', '.npmrc'])
  copyFileSync(path.join(ROOT, file), path.join(work, file));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The packages npm ci would warn EBADENGINE for, on `nodeVersion`. */
function badEngines(nodeVersion: string, extra: string[] = []): string[] {
  const result = spawnSync(
    'npm',
    [
      'ci',
      '--dry-run',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      `--node-version=${nodeVersion}`,
      ...extra,
    ],
    { cwd: work, encoding: 'utf8', env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } },
  );
  expect(result.status, result.stderr).toBe(0);
  return [...result.stderr.matchAll(/EBADENGINE\s+package: '(.+)@[^@']+'/g)].map((m) => m[1]!);
}

describe('package engines', () => {
  const oldest = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(manifest.engines.node);

  it('promises a lower bound', () => {
    expect(oldest, manifest.engines.node).not.toBeNull();
  });

  it('installs nothing that refuses the oldest Node.js it promises (npm ci warns EBADENGINE for none)', () => {
    const version = `${oldest![1]}.${oldest![2]}.${oldest![3] ?? 0}`;
    expect(badEngines(version, ['--omit=dev'])).toEqual([]);
    const all = badEngines(version);
    expect(all.filter((name) => !DEV_ONLY_MISDECLARED.includes(name))).toEqual([]);
    for (const name of new Set(all)) expect(lock.packages[`node_modules/${name}`]?.dev, name).toBe(true);
  });
});
