import type { GridRow } from '../../domain/pricing/grid.ts';
import type { PriceGridStore, StoredGrid } from '../../domain/pricing/ports.ts';
import type { Queryable } from '../pool.ts';

interface GridDbRow {
  scope: string;
  rows: GridRow[];
  source: string | null;
  version: number;
  imported_at: Date;
}

const toStored = (r: GridDbRow): StoredGrid => ({
  scope: r.scope,
  rows: r.rows,
  source: r.source,
  version: r.version,
  importedAt: r.imported_at,
});

/** `scope` is a brand id, or 'default' for the operator's default grid. */
export function priceGridsRepository(db: Queryable): PriceGridStore {
  return {
    async find(scope: string): Promise<StoredGrid | null> {
      const { rows } = await db.query<GridDbRow>(
        // A brand's test twin is priced by the live brand's grid: test mode quotes as live does.
        `SELECT scope, rows, source, version, imported_at FROM price_grids
          WHERE scope = coalesce((SELECT live_brand_id FROM brands WHERE id = $1), $1)`,
        [scope],
      );
      return rows[0] ? toStored(rows[0]) : null;
    },
    /** Replaces the grid of `scope` in one statement: readers see the old grid or the new, never a mix. */
    async replace(scope: string, rows: readonly GridRow[], source: string | null): Promise<StoredGrid> {
      const { rows: saved } = await db.query<GridDbRow>(
        `INSERT INTO price_grids (scope, brand_id, rows, row_count, source)
         VALUES ($1, CASE WHEN $1 = 'default' THEN NULL ELSE $1 END, $2, $3, $4)
         ON CONFLICT (scope) DO UPDATE
           SET rows = EXCLUDED.rows, row_count = EXCLUDED.row_count, source = EXCLUDED.source,
               version = nextval('price_grid_versions'), imported_at = now()
         RETURNING scope, rows, source, version, imported_at`,
        [scope, JSON.stringify(rows), rows.length, source],
      );
      return toStored(saved[0]!);
    },
    /** A fingerprint of every grid: changes whenever any grid is imported. */
    async currentVersion(): Promise<number> {
      const { rows } = await db.query<{ v: number }>(
        'SELECT coalesce(max(version), 0)::int8 AS v FROM price_grids',
      );
      return rows[0]!.v;
    },
  };
}
