import type { PriceGridsRepository, StoredGrid } from '../../db/repositories/price-grids-repository.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { loadDefaultGrid } from './default-grid.ts';
import { type GridIndex, type GridRow, indexGrid } from './grid.ts';
import { type GridFileFormat, parseGridFile } from './grid-file.ts';
import { findGridHoles } from './grid-holes.ts';

export type GridSource = 'negotiated' | 'default' | 'shipped_default';

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

/**
 * The grid that prices a brand's deliveries: its negotiated grid, else the operator's default
 * (imported, else the one shipped in data/). Grids are kept in memory so quoting needs no query;
 * a background check of one number (max version) drops them when any instance imports a grid.
 */
export function gridService(
  repo: PriceGridsRepository,
  brands: BrandService,
  options: GridServiceOptions = {},
) {
  const refreshEveryMs = options.refreshEveryMs ?? 2000;
  const cache = new Map<string, Promise<ActiveGrid>>();
  let seenVersion: number | null = null;
  let timer: NodeJS.Timeout | null = null;

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

  async function loadFor(brandId: string): Promise<ActiveGrid> {
    const stored = await repo.find(brandId);
    if (stored) return activeFrom('negotiated', stored);
    return cached(DEFAULT_SCOPE, loadDefault);
  }

  function cached(scope: string, load: () => Promise<ActiveGrid>): Promise<ActiveGrid> {
    let entry = cache.get(scope);
    if (!entry) {
      entry = load();
      cache.set(scope, entry);
      // A failed load (database down) must not stick: the next request tries again.
      entry.catch(() => {
        if (cache.get(scope) === entry) cache.delete(scope);
      });
    }
    return entry;
  }

  async function refresh(): Promise<void> {
    const version = await repo.currentVersion();
    // Unknown before (first check failed): whatever was cached meanwhile may predate an import.
    if (version !== seenVersion) cache.clear();
    seenVersion = version;
  }

  return {
    /** The operator's default grid (imported, else shipped). */
    defaultGrid(): Promise<ActiveGrid> {
      return cached(DEFAULT_SCOPE, loadDefault);
    },

    /** The grid pricing this brand's orders and quotes. */
    gridFor(brandId: string): Promise<ActiveGrid> {
      return cached(brandId, () => loadFor(brandId));
    },

    /**
     * Validates the whole file, then replaces the brand's (or the default) grid in one statement.
     * A bad row throws before anything is written.
     */
    async importGrid(
      target: { brandId: string } | 'default',
      text: string,
      format: GridFileFormat,
      source: string | null,
    ) {
      const rows = parseGridFile(text, format);
      const scope = target === 'default' ? DEFAULT_SCOPE : (await brands.get(target.brandId)).id;
      const stored = await repo.replace(scope, rows, source);
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

    /** Starts watching for imports made by other instances; resolves once the first check is done. */
    async startWatching(): Promise<void> {
      // The database may be down at start-up; the service still starts and the timer retries.
      await refresh().catch(() => {});
      timer ??= setInterval(() => refresh().catch(() => {}), refreshEveryMs);
      timer.unref();
    },
    stopWatching(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
    refresh,
  };
}

export type GridService = ReturnType<typeof gridService>;
