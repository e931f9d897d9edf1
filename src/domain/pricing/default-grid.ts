import { readFileSync } from 'node:fs';
import type { GridRow } from './grid.ts';
import { parseGridFile } from './grid-file.ts';

/** Shipped with the service; brands without a negotiated grid are priced from it (SPEC §7). */
const DEFAULT_GRID_URL = new URL('../../../data/default-grid.json', import.meta.url);

let cached: readonly GridRow[] | undefined;

/** Read and validated once; a broken shipped grid fails loudly at first use rather than misprices. */
export function loadDefaultGrid(): readonly GridRow[] {
  cached ??= Object.freeze(parseGridFile(readFileSync(DEFAULT_GRID_URL, 'utf8'), 'json'));
  return cached;
}
