import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CoreDeps } from '../core-deps.ts';
import { formatGridCsv, formatGridJson } from '../domain/pricing/grid-file.ts';
import { findGridHoles, type GridHole, summariseGridHoles } from '../domain/pricing/grid-holes.ts';
import { AppError } from '../errors.ts';
import { type CommandContext, type CommandSpec, coreCommand, requireArg, UsageError } from './context.ts';

const GRID_FLAGS = {
  brand: { value: 'ID', description: "the brand's negotiated grid (or --default)" },
  default: { description: 'the default grid, for brands without one of their own' },
  format: { value: 'FORMAT', description: 'json or csv' },
};

import { terminalLines } from './terminal-text.ts';

function formatOf(ctx: CommandContext<typeof GRID_FLAGS, CoreDeps>, file: string): 'json' | 'csv' {
  const explicit = ctx.flags.format;
  const format = typeof explicit === 'string' ? explicit : path.extname(file).slice(1).toLowerCase();
  if (format !== 'json' && format !== 'csv')
    throw new UsageError('give a .json or .csv file, or --format json|csv');
  return format;
}

function target(ctx: CommandContext<typeof GRID_FLAGS, CoreDeps>): { brandId: string } | 'default' {
  const brand = ctx.flags.brand;
  if (ctx.flags.default === true && brand === undefined) return 'default';
  if (typeof brand === 'string' && ctx.flags.default === undefined) return { brandId: brand };
  throw new UsageError('give exactly one of --brand ID or --default');
}

/**
 * A grid with holes answers `available: false` to every quote that meets one (SPEC §7): said on
 * stderr, whatever the output format, so the operator fixes the grid before a checkout finds out.
 */
function reportHoles(
  holes: readonly GridHole[],
): { service: string; zone: string; unit_type: string; max_weight_kg: number }[] {
  if (holes.length > 0) {
    console.error(
      terminalLines(
        [
          `dlv: warning: the grid has ${holes.length} hole(s); a quote that meets one answers available: false, with no rates:`,
          ...summariseGridHoles(holes).map((line) => `  ${line}`),
        ].join('\n'),
      ),
    );
  }
  return holes.map((h) => ({
    service: h.service,
    zone: h.zone,
    unit_type: h.unitType,
    max_weight_kg: h.maxWeightGrams / 1000,
  }));
}

export const gridCommands: CommandSpec[] = [
  coreCommand({
    path: 'grids import',
    description: "replace a brand's grid or the default grid with a .json or .csv file (checked whole first)",
    args: [{ name: 'FILE', description: 'the grid file; its extension gives the format unless --format' }],
    flags: GRID_FLAGS,
    async run(ctx) {
      const file = requireArg(ctx, 0, 'FILE');
      const to = target(ctx);
      const format = formatOf(ctx, file);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new AppError('invalid_request', `cannot read ${file}: ${(err as Error).message}`);
      }
      const result = await ctx.deps.grids.importGrid(to, text, format, path.basename(file), ctx.by);
      ctx.out(
        `Imported ${result.rowCount} rows into the ${to === 'default' ? 'default grid' : `grid of ${result.scope}`} (version ${result.version}); every instance uses it within a few seconds.`,
        {
          scope: result.scope,
          row_count: result.rowCount,
          version: result.version,
          imported_at: result.importedAt.toISOString(),
          holes: reportHoles(result.holes),
        },
      );
    },
  }),
  coreCommand({
    path: 'grids show',
    description: "print a brand's grid (its own, or the default it uses) or the default grid, as csv or json",
    flags: GRID_FLAGS,
    async run(ctx) {
      const to = target(ctx);
      const grid =
        to === 'default'
          ? await ctx.deps.grids.defaultGrid()
          : await ctx.deps.brands.get(to.brandId).then((b) => ctx.deps.grids.gridFor(b.id));
      const rows = grid.rows;
      const holes = reportHoles(findGridHoles(grid.index));
      const format = ctx.flags.format === 'json' ? 'json' : 'csv';
      const body = format === 'json' ? formatGridJson([...rows]) : formatGridCsv([...rows]);
      ctx.out(`# source: ${grid.source}, ${rows.length} rows\n${body.trimEnd()}`, {
        source: grid.source,
        row_count: rows.length,
        imported_at: grid.importedAt?.toISOString() ?? null,
        rows: JSON.parse(formatGridJson([...rows])).rows,
        holes,
      });
    },
  }),
];
