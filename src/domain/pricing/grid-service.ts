import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { type PolledCache, polledCache } from '../shared/polled-cache.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { loadDefaultGrid } from './default-grid.ts';
import { type GridIndex, type GridRow, indexGrid } from './grid.ts';
import { type GridFileFormat, parseGridFile } from './grid-file.ts';
import { findGridHoles, type GridHole } from './grid-holes.ts';
import type { PriceGridStore, StoredGrid } from './ports.ts';

type GridSource = 'negotiated' | 'default' | 'shipped_default';

export interface ActiveGrid {
  source: GridSource;
  rows: readonly GridRow[];
  index: GridIndex;
  importedAt: Date | null;
}

export interface GridServiceOptions {
  /** How often each instance asks the database whether any grid changed. */
  refreshEveryMs?: number;
}

const DEFAULT_SCOPE = 'default';

/** What an import did: the grid's scope, size and version, and the holes it leaves. */
interface GridImport {
  scope: string;
  rowCount: number;
  version: number;
  importedAt: Date;
  holes: GridHole[];
}

export interface GridService {
  /** The operator's default grid (imported, else shipped). */
  defaultGrid(): ActiveGrid | Promise<ActiveGrid>;
  /** The grid pricing this brand's orders and quotes: from memory, without a promise, once loaded. */
  gridFor(brandId: string): ActiveGrid | Promise<ActiveGrid>;
  /**
   * Validates the whole file, then replaces the brand's (or the default) grid in one statement,
   * recorded in the audit trail (`grid.imported`) in the same transaction. A bad row throws before
   * anything is written.
   */
  importGrid(
    target: { brandId: string } | 'default',
    text: string,
    format: GridFileFormat,
    source: string | null,
    by: Author,
  ): Promise<GridImport>;
  /**
   * What importing the file would do, writing nothing: its rows checked whole (a bad row throws the
   * same 400 as the import) and the holes it would leave. The console shows this before saving.
   */
  previewGrid(text: string, format: GridFileFormat): { rowCount: number; holes: GridHole[] };
  /** Starts watching for imports made by other instances; resolves once the first check is done. */
  startWatching(): Promise<void>;
  stopWatching(): void;
  refresh(): Promise<void>;
}

/**
 * The grid that prices a brand's deliveries: its negotiated grid, else the operator's default
 * (imported, else the one shipped in data/). Grids are kept in memory so quoting needs no query;
 * a background check of one number (max version) drops them when any instance imports a grid.
 */
export function gridService(
  repo: PriceGridStore,
  brands: BrandService,
  transact: UnitOfWork<{ priceGrids: PriceGridStore; audit: AuditStore }>,
  options: GridServiceOptions = {},
): GridService {
  const activeFrom = (source: GridSource, stored: StoredGrid): ActiveGrid => ({
    source,
    rows: stored.rows,
    index: indexGrid(stored.rows),
    importedAt: stored.importedAt,
  });

  async function loadDefault(): Promise<ActiveGrid> {
    const stored = await repo.find(DEFAULT_SCOPE);
    if (stored) return activeFrom('default', stored);
    const rows = loadDefaultGrid();
    return { source: 'shipped_default', rows, index: indexGrid(rows), importedAt: null };
  }

  // Every grid in memory, so quoting needs no query; all dropped when any instance imports a grid.
  const cache: PolledCache<ActiveGrid> = polledCache<ActiveGrid>({
    load: async (scope): Promise<ActiveGrid> => {
      if (scope === DEFAULT_SCOPE) return loadDefault();
      const stored = await repo.find(scope);
      return stored ? activeFrom('negotiated', stored) : cache.get(DEFAULT_SCOPE);
    },
    version: () => repo.currentVersion(),
    refreshEveryMs: options.refreshEveryMs ?? 2000,
  });

  return {
    defaultGrid(): ActiveGrid | Promise<ActiveGrid> {
      return cache.get(DEFAULT_SCOPE);
    },

    gridFor(brandId: string): ActiveGrid | Promise<ActiveGrid> {
      return cache.get(brandId);
    },

    previewGrid(text: string, format: GridFileFormat) {
      const rows = parseGridFile(text, format);
      return { rowCount: rows.length, holes: findGridHoles(indexGrid(rows)) };
    },

    async importGrid(
      target: { brandId: string } | 'default',
      text: string,
      format: GridFileFormat,
      source: string | null,
      by: Author,
    ) {
      const rows = parseGridFile(text, format);
      const scope = target === 'default' ? DEFAULT_SCOPE : (await brands.get(target.brandId)).id;
      const stored = await transact(async (tx) => {
        const before = await tx.priceGrids.find(scope);
        const replaced = await tx.priceGrids.replace(scope, rows, source);
        await tx.audit.record({
          action: 'grid.imported',
          by,
          object: { type: 'grid', id: scope },
          brandId: scope === DEFAULT_SCOPE ? null : scope,
          changes: {
            rows: { before: before?.rows.length ?? null, after: rows.length },
            version: { before: before?.version ?? null, after: replaced.version },
          },
          details: { source, format },
        });
        return replaced;
      });
      cache.clear();
      return {
        scope,
        rowCount: rows.length,
        version: stored.version,
        importedAt: stored.importedAt,
        // Imported all the same: the operator may be filling a grid in steps.
        holes: findGridHoles(indexGrid(rows)),
      };
    },

    startWatching: cache.startWatching,
    stopWatching: cache.stopWatching,
    refresh: cache.refresh,
  };
}
