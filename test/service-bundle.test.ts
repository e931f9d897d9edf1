import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The build (test/support/build-setup.ts) bundles dist/service.js, the program every process runs
// (scripts/bundle-service.js): a fresh worker loads a few files, not ~650 (issue 36, item 24).
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const BUNDLE = path.join(DIST, 'bundle');
const chunks = () =>
  readdirSync(BUNDLE)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ name: f, text: readFileSync(path.join(BUNDLE, f), 'utf8') }));

describe('the bundled program', () => {
  it('is what dist/service.js runs', () => {
    expect(readFileSync(path.join(DIST, 'service.js'), 'utf8')).toMatch(
      /^import '\.\/bundle\/service\.js';$/m,
    );
    expect(chunks().length).toBeLessThan(80);
  });

  it('finds what each module reads beside itself where its compiled file is (CSS, data/, migrations/)', () => {
    const rewritten = /new URL\("\.\.\/([^"]+)", import\.meta\.url\)\.href/g;
    const seen: string[] = [];
    for (const { name, text } of chunks()) {
      // Every `import.meta.url` of a compiled module became its file's own URL: none is the bundle's.
      expect(text.replaceAll(rewritten, '').includes('import.meta.url'), name).toBe(false);
      for (const [, relative] of text.matchAll(rewritten)) {
        expect(existsSync(path.join(DIST, relative!)), `${name}: ${relative}`).toBe(true);
        seen.push(relative!);
      }
    }
    expect(seen).toEqual(
      expect.arrayContaining(['db/migrate.js', 'domain/coverage/postcodes.js', 'http/account/index.js']),
    );
  });

  it('carries TypeBox in itself and leaves the other packages where npm put them', () => {
    // Imported, or required through createRequire (pg: src/db/pg.ts; undici's Agent).
    const imports = chunks().flatMap(({ text }) =>
      [...text.matchAll(/(?:^import[^;]*?from\s*|import\(|\brequire\d*\()"([^".][^"]*)"/gm)].map(
        (m) => m[1]!,
      ),
    );
    expect(imports.some((name) => name.startsWith('@sinclair/typebox'))).toBe(false);
    expect(imports).toEqual(expect.arrayContaining(['pg', 'graphile-worker']));
  });
});
