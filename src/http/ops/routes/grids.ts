import { Type } from '@sinclair/typebox';
import type { Author } from '../../../domain/audit/actor.ts';
import type { BrandService } from '../../../domain/brands/brand-service.ts';
import { PRICING_ZONES } from '../../../domain/coverage/zones.ts';
import { formatGridJson } from '../../../domain/pricing/grid-file.ts';
import { findGridHoles, type GridHole } from '../../../domain/pricing/grid-holes.ts';
import type { ActiveGrid, GridService } from '../../../domain/pricing/grid-service.ts';
import { UNIT_TYPES } from '../../../domain/pricing/units.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import { ServiceSchema } from '../../shared/schemas/rates.ts';
import { errorResponses, NullableTimestamp, StringEnum, Timestamp } from '../../shared/schemas/shared.ts';
import { BrandIdParams } from './brands.ts';

const TAGS = ['Invoices and grids'];
/** A grid of every service, zone, unit type and a few dozen weight bands is far below this. */
const MAX_ROWS = 5000;
const GRID_BODY_LIMIT = 1024 * 1024;

const Zone = StringEnum(PRICING_ZONES as readonly string[]);
const UnitType = StringEnum(UNIT_TYPES as readonly string[]);

/** A row as the grid files (`dlv grids import`) write it: euros excluding VAT, the heaviest unit of the band. */
const GridRowSchema = Type.Object(
  {
    service: ServiceSchema,
    zone: Zone,
    unit_type: UnitType,
    max_weight_kg: Type.Number({ exclusiveMinimum: 0 }),
    first_unit_eur: Type.Number({ minimum: 0 }),
    extra_unit_eur: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const Holes = Type.Array(
  Type.Object({ service: ServiceSchema, zone: Zone, unit_type: UnitType, max_weight_kg: Type.Number() }),
  {
    maxItems: 10000,
    description:
      'Weights the grid leaves unpriced within what it offers: a quote that meets one answers `available: false` (SPEC §7).',
  },
);

const GridResponse = Type.Object({
  ok: Type.Literal(true),
  source: StringEnum(['negotiated', 'default', 'shipped_default'] as const, {
    description:
      "`negotiated`: the brand's own; `default`: the operator's imported default; `shipped_default`: the one shipped.",
  }),
  row_count: Type.Integer({ format: 'int32', minimum: 0, maximum: MAX_ROWS }),
  imported_at: NullableTimestamp(),
  rows: Type.Array(GridRowSchema, { maxItems: MAX_ROWS }),
  holes: Holes,
});

const GridBody = Type.Object(
  {
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    rows: Type.Array(GridRowSchema, { minItems: 1, maxItems: MAX_ROWS }),
  },
  { additionalProperties: false, description: 'A grid file in its JSON form (data/example-grid.json).' },
);

const ImportResponse = Type.Object({
  ok: Type.Literal(true),
  scope: Type.String({ maxLength: 30, description: '`default`, or the brand id.' }),
  row_count: Type.Integer({ format: 'int32', minimum: 1, maximum: MAX_ROWS }),
  version: Type.Integer({ format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  imported_at: Timestamp(),
  holes: Holes,
});

const holesJson = (holes: readonly GridHole[]) =>
  holes.map((h) => ({
    service: h.service,
    zone: h.zone,
    unit_type: h.unitType,
    max_weight_kg: h.maxWeightGrams / 1000,
  }));

const gridJson = (grid: ActiveGrid) => ({
  ok: true as const,
  source: grid.source,
  row_count: grid.rows.length,
  imported_at: grid.importedAt?.toISOString() ?? null,
  rows: JSON.parse(formatGridJson([...grid.rows])).rows,
  holes: holesJson(findGridHoles(grid.index)),
});

const IMPORT_DESCRIPTION =
  'Checked whole before anything is written (a bad row is a 400 naming it: `row 2`, counted from 1); every instance prices with it within a few seconds. ' +
  'A grid with holes is imported all the same, and the holes are listed. The same rules as `dlv grids import`.';

/** The price grids for the finance people: show and replace (the same service as `dlv grids`). */
export function opsGridRoutes(app: TypedApp, deps: { grids: GridService; brands: BrandService }): void {
  const imported = async (target: { brandId: string } | 'default', body: unknown, by: Author) => {
    const result = await deps.grids.importGrid(target, JSON.stringify(body), 'json', 'operations API', by);
    return {
      ok: true as const,
      scope: result.scope,
      row_count: result.rowCount,
      version: result.version,
      imported_at: result.importedAt.toISOString(),
      holes: holesJson(result.holes),
    };
  };

  app.get(
    '/grids/default',
    {
      config: { auth: { ops: 'grids:read' } },
      schema: {
        operationId: 'opsGetDefaultGrid',
        summary: 'The default grid (brands without their own)',
        tags: TAGS,
        response: { 200: GridResponse, ...errorResponses([401, 403]) },
      },
    },
    async () => gridJson(await deps.grids.defaultGrid()),
  );

  app.put(
    '/grids/default',
    {
      config: { auth: { ops: 'grids:write' } },
      bodyLimit: GRID_BODY_LIMIT,
      schema: {
        operationId: 'opsImportDefaultGrid',
        summary: 'Replace the default grid',
        description: IMPORT_DESCRIPTION,
        tags: TAGS,
        body: GridBody,
        response: {
          200: ImportResponse,
          ...errorResponses([400, 401, 403, 413, 415], {
            413: 'Body larger than 1 MiB (`payload_too_large`).',
          }),
        },
      },
    },
    async (request) => imported('default', request.body, authorOf(request)),
  );

  app.get(
    '/brands/:brandId/grid',
    {
      config: { auth: { ops: 'grids:read' } },
      schema: {
        operationId: 'opsGetBrandGrid',
        summary: "The grid pricing a brand's orders: its own, or the default it uses",
        tags: TAGS,
        params: BrandIdParams,
        response: { 200: GridResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const brand = await deps.brands.get(request.params.brandId);
      return gridJson(await deps.grids.gridFor(brand.id));
    },
  );

  app.put(
    '/brands/:brandId/grid',
    {
      config: { auth: { ops: 'grids:write' } },
      bodyLimit: GRID_BODY_LIMIT,
      schema: {
        operationId: 'opsImportBrandGrid',
        summary: "Replace a brand's negotiated grid",
        description: IMPORT_DESCRIPTION,
        tags: TAGS,
        params: BrandIdParams,
        body: GridBody,
        response: {
          200: ImportResponse,
          ...errorResponses([400, 401, 403, 404, 413, 415], {
            413: 'Body larger than 1 MiB (`payload_too_large`).',
          }),
        },
      },
    },
    async (request) => imported({ brandId: request.params.brandId }, request.body, authorOf(request)),
  );
}
