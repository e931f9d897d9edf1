/** The README and docs/ describe this repository alone, and the README's error table is complete. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/errors.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

describe('documentation', () => {
  it.each(DOCS)('%s links only to files of the repository, which exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    for (const target of targets.filter((t) => !/^[a-z]+:/.test(t))) {
      const path = resolve(ROOT, dirname(file), target);
      expect(relative(ROOT, path).startsWith('..'), `${file} → ${target}`).toBe(false);
      expect(existsSync(path), `${file} → ${target}`).toBe(true);
    }
    // Paths written as code rather than links: none may leave the repository either.
    expect(text.match(/`\.\.\/[^`]*`|\/work\/|shared\/SPEC/g), file).toBeNull();
  });

  it("lists every error code with its status in the README's error table", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const rows = new Map(
      [...readme.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])] as const),
    );
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(rows.get(code), code).toBe(status);
  });
});
