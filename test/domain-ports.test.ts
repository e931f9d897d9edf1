/**
 * The domain owns its contracts: it declares the ports it needs (each area's `ports.ts`,
 * domain/shared/stores.ts) and never reaches into an outer layer, not even for a type, so db/,
 * infra/ and the surfaces can change behind those ports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const OUTER_LAYERS = ['db', 'http', 'infra', 'jobs', 'connectors', 'cli'];

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports from, type-only ones included. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/g)].map((m) => m[1]!);
}

describe('ports owned by the domain', () => {
  it('no file under src/domain imports db/, http/, infra/, jobs/ or connectors/, not even for types', () => {
    const offenders: string[] = [];
    for (const file of tsFilesUnder(join(ROOT, 'src/domain'))) {
      for (const specifier of specifiersOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = relative(join(ROOT, 'src'), resolve(file, '..', specifier));
        if (OUTER_LAYERS.includes(target.split(/[\\/]/)[0]!))
          offenders.push(`${relative(ROOT, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('neither the outbox (src/events) nor the words (src/i18n) import an outer layer: the subscriber list is composition, platforms bring their wording', () => {
    const offenders: string[] = [];
    for (const [area, outer] of [
      ['events', OUTER_LAYERS],
      ['i18n', [...OUTER_LAYERS, 'events']],
    ] as const) {
      for (const file of tsFilesUnder(join(ROOT, 'src', area)).filter((f) => !f.endsWith('.test.ts'))) {
        for (const specifier of specifiersOf(file)) {
          if (!specifier.startsWith('.')) continue;
          const target = relative(join(ROOT, 'src'), resolve(file, '..', specifier));
          if ((outer as readonly string[]).includes(target.split(/[\\/]/)[0]!))
            offenders.push(`${relative(ROOT, file)} → ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the stores and the unit of work are declared interfaces, not inferred from db/', () => {
    const stores = readFileSync(join(ROOT, 'src/db/stores.ts'), 'utf8');
    expect(stores).not.toMatch(/ReturnType<typeof storesOn>/);
    expect(stores).toMatch(/export function storesOn\(db: Queryable\): Stores \{/);
    expect(readFileSync(join(ROOT, 'src/domain/shared/stores.ts'), 'utf8')).toMatch(
      /export interface Stores \{/,
    );
  });
});

describe('declared contracts and narrow contexts', () => {
  it('no service under src/domain, nor the composition root, has a type inferred from its factory', () => {
    const inferred: string[] = [];
    const roots = ['src/deps.ts', 'src/core-deps.ts'].map((f) => join(ROOT, f));
    for (const file of [...tsFilesUnder(join(ROOT, 'src/domain')), ...roots]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/ReturnType<typeof \w+/g))
        inferred.push(`${relative(ROOT, file)}: ${m[0]}`);
    }
    expect(inferred).toEqual([]);
    expect(readFileSync(join(ROOT, 'src/deps.ts'), 'utf8')).toMatch(
      /export interface Deps (extends \w+(, \w+)* )?\{/,
    );
    expect(readFileSync(join(ROOT, 'src/core-deps.ts'), 'utf8')).toMatch(/export interface CoreDeps \{/);
  });

  it('the HTTP surfaces and their routes take the context they use, not the whole Deps', () => {
    // The connectors' routes are left to the connector registry's work (issue #24).
    const offenders = tsFilesUnder(join(ROOT, 'src/http'))
      .filter((file) => !relative(join(ROOT, 'src/http'), file).startsWith('connectors'))
      .filter((file) => specifiersOf(file).some((s) => resolve(file, '..', s) === join(ROOT, 'src/deps.ts')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
