import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The header is spelled `Idempotency-Key` wherever a developer reads it (issue 40): the OpenAPI
 * document (its parameters and every description generated around them), the docs, the READMEs,
 * the SDKs' READMEs and the changelog. HTTP header names are case-insensitive, but a reader copies
 * what the document and the docs show, and one spelling everywhere is what the IETF draft uses.
 */
const root = path.resolve(import.meta.dirname, '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join(dir, file));
}

const FILES = [
  'openapi.json',
  'README.md',
  'CHANGELOG.md',
  'sdks/README.md',
  'sdks/typescript/README.md',
  'sdks/php/README.md',
  'sdks/python/README.md',
  ...markdownUnder('docs'),
];

/** Each spelling of the header other than `Idempotency-Key`, as `file:line: text`. */
function misspellings(file: string): string[] {
  const found: string[] = [];
  readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const match of line.matchAll(/idempotency[- ]key/gi)) {
        // "idempotency keys" in prose (the stored keys, lower case) is the concept, not the header.
        if (match[0] === 'idempotency key') continue;
        if (match[0] !== 'Idempotency-Key') found.push(`${file}:${i + 1}: ${match[0]}`);
      }
    });
  return found;
}

describe('the Idempotency-Key header’s spelling', () => {
  it('is Idempotency-Key in openapi.json, its parameters and descriptions alike', () => {
    const document = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8'));
    const headers = Object.values<Record<string, any>>(document.paths).flatMap((item) =>
      Object.values<any>(item).flatMap((op) =>
        (op.parameters ?? []).filter((p: any) => p.in === 'header' && /idempotency/i.test(p.name)),
      ),
    );
    expect(headers.length).toBeGreaterThan(0);
    for (const header of headers) expect(header.name).toBe('Idempotency-Key');
    expect(misspellings('openapi.json')).toEqual([]);
  });

  it('is Idempotency-Key in the docs, the READMEs and the changelog', () => {
    expect(FILES.length).toBeGreaterThan(10);
    expect(FILES.flatMap(misspellings)).toEqual([]);
  });
});
