import type { GridRow } from './grid.ts';

export interface StoredGrid {
  scope: string;
  rows: GridRow[];
  source: string | null;
  version: number;
  importedAt: Date;
}

/** `scope` is a brand id, or 'default' for the operator's default grid. */
export interface PriceGridStore {
  find(scope: string): Promise<StoredGrid | null>;
  /** Replaces the grid of `scope` in one statement: readers see the old grid or the new, never a mix. */
  replace(scope: string, rows: readonly GridRow[], source: string | null): Promise<StoredGrid>;
  /** A fingerprint of every grid: changes whenever any grid is imported. */
  currentVersion(): Promise<number>;
}
