/**
 * Price grid files for `dlv grids import` / `dlv grids show` (SPEC §7). Both formats carry the same
 * six fields per row, named as in the API (snake_case, euros):
 *
 *   service         express | standard | economy
 *   zone            paris | petite_couronne | grande_couronne
 *   unit_type       parcel | envelope | bulky | pallet (French aliases accepted)
 *   max_weight_kg   heaviest unit of the band, kg, > 0, ≤ 2000, at most 3 decimals (whole grams)
 *   first_unit_eur  price excl. tax of the first unit, euros, ≥ 0, at most 2 decimals
 *   extra_unit_eur  price excl. tax of each further unit, same rules
 *
 * JSON: `{ "description"?: string, "rows": [ { "service": "standard", "zone": "paris",
 *   "unit_type": "parcel", "max_weight_kg": 1, "first_unit_eur": 8.4, "extra_unit_eur": 4.2 } ] }`;
 *   numbers may also be given as strings ("8.40"); unknown keys are rejected to catch typos.
 * CSV: a header line naming the six columns (any order), then one row per record. Comma-separated;
 *   a header with semicolons switches to semicolons, as French spreadsheets export, and then a
 *   decimal comma ("8,40") is accepted. Read by csv-parse (./csv.ts): quoted cells (with the
 *   delimiter, line breaks or doubled quotes inside), blank lines and lines starting with # are
 *   allowed; a row is named by the line it starts on.
 *
 * The whole file is validated before anything is returned, so an import is all or nothing. Errors
 * name the 1-based data row (and the CSV line): `row 7 (line 9): unknown zone "lyon" (…)`; a file
 * that is not CSV, the line and column: `line 4, column 2 (zone): a quoted cell …`.
 */
import { AppError, type ErrorDetail } from '../../errors.ts';
import { isPricingZone, PRICING_ZONES } from '../coverage/zones.ts';
import { readCsv } from './csv.ts';
import type { Grid, GridRow } from './grid.ts';
import { formatEuros, parseEurosToCents } from './money.ts';
import { isServiceCode, SERVICE_CODES } from './services.ts';
import { MAX_UNIT_WEIGHT_GRAMS, parseUnitType, UNIT_TYPES } from './units.ts';

export type GridFileFormat = 'json' | 'csv';

const GRID_COLUMNS = [
  'service',
  'zone',
  'unit_type',
  'max_weight_kg',
  'first_unit_eur',
  'extra_unit_eur',
] as const;

type Column = (typeof GRID_COLUMNS)[number];

/** Far above any delivery price: a bigger number is a cents/euros mix-up. */
const MAX_PRICE_CENTS = 10_000_000;
const MAX_REPORTED_ERRORS = 50;

interface RawRow {
  label: string;
  values: Record<string, unknown>;
  /** Set when the row cannot even be read as fields. */
  problem?: string;
}

class RowError extends Error {}

export function parseGridFile(text: string, format: GridFileFormat): GridRow[] {
  const raw = format === 'json' ? readJsonRows(text) : readCsvRows(text);
  if (raw.length === 0) throw new AppError('invalid_request', 'the grid has no rows');

  const rows: GridRow[] = [];
  const errors: ErrorDetail[] = [];
  const seen = new Map<string, string>();
  for (const { label, values, problem } of raw) {
    try {
      if (problem !== undefined) throw new RowError(problem);
      const row = toGridRow(values);
      const key = `${row.service}|${row.zone}|${row.unitType}|${row.maxWeightGrams}`;
      const first = seen.get(key);
      if (first !== undefined) {
        throw new RowError(
          `same service, zone, unit_type and max_weight_kg as ${first} (${row.service}, ${row.zone}, ${row.unitType}, ${row.maxWeightGrams / 1000} kg)`,
        );
      }
      seen.set(key, label);
      rows.push(row);
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      errors.push({ field: label, message: err.message });
    }
  }
  const [firstError] = errors;
  if (firstError) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    throw new AppError(
      'invalid_request',
      `${firstError.field}: ${firstError.message}${more}`,
      errors.slice(0, MAX_REPORTED_ERRORS),
    );
  }
  return rows;
}

function readJsonRows(text: string): RawRow[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new AppError('invalid_request', `not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc) || !Array.isArray(doc.rows)) {
    throw new AppError('invalid_request', 'a JSON grid is an object with a "rows" array');
  }
  const extra = Object.keys(doc).filter((k) => k !== 'rows' && k !== 'description');
  if (extra.length > 0) throw new AppError('invalid_request', `unknown top-level key "${extra[0]}"`);
  return doc.rows.map((item: unknown, i): RawRow => {
    const label = `row ${i + 1}`;
    return isObject(item) ? { label, values: item } : { label, values: {}, problem: 'must be an object' };
  });
}

function readCsvRows(text: string): RawRow[] {
  const { header, records } = readCsv(text, (line) =>
    line.includes(';') && !line.includes(',') ? ';' : ',',
  );
  if (!header) throw new AppError('invalid_request', 'the CSV has no header line');
  checkHeader(header.cells, header.line);
  return records.map(({ line, cells }, i): RawRow => {
    const label = `row ${i + 1} (line ${line})`;
    const values: Record<string, unknown> = {};
    header.cells.forEach((name, c) => {
      values[name] = cells[c] ?? '';
    });
    const problem =
      cells.length === header.cells.length
        ? undefined
        : `has ${cells.length} cells, the header has ${header.cells.length}`;
    return { label, values, ...(problem === undefined ? {} : { problem }) };
  });
}

function checkHeader(header: readonly string[], line: number): void {
  const missing = GRID_COLUMNS.filter((c) => !header.includes(c));
  const unknown = header.filter((h) => !(GRID_COLUMNS as readonly string[]).includes(h));
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (missing.length > 0 || unknown.length > 0 || dup !== undefined) {
    const problem =
      missing.length > 0
        ? `missing column ${missing.join(', ')}`
        : unknown.length > 0
          ? `unknown column "${unknown[0]}"`
          : `column "${dup}" appears twice`;
    throw new AppError(
      'invalid_request',
      `line ${line}: ${problem}; the header must name ${GRID_COLUMNS.join(',')}`,
    );
  }
}

function toGridRow(values: Record<string, unknown>): GridRow {
  const unknown = Object.keys(values).find((k) => !(GRID_COLUMNS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new RowError(`unknown field "${unknown}"`);
  const missing = GRID_COLUMNS.find((c) => values[c] === undefined || values[c] === null || values[c] === '');
  if (missing !== undefined) throw new RowError(`missing ${missing}`);

  const service = text(values.service).toLowerCase();
  if (!isServiceCode(service)) {
    throw new RowError(`unknown service "${text(values.service)}" (expected ${SERVICE_CODES.join(', ')})`);
  }
  const zone = text(values.zone).toLowerCase();
  if (!isPricingZone(zone)) {
    throw new RowError(`unknown zone "${text(values.zone)}" (expected ${PRICING_ZONES.join(', ')})`);
  }
  let unitType: GridRow['unitType'];
  try {
    unitType = parseUnitType(text(values.unit_type));
  } catch {
    throw new RowError(`unknown unit_type "${text(values.unit_type)}" (expected ${UNIT_TYPES.join(', ')})`);
  }
  return {
    service,
    zone,
    unitType,
    maxWeightGrams: parseMaxWeight(values.max_weight_kg),
    firstUnitCents: parsePrice('first_unit_eur', values.first_unit_eur),
    extraUnitCents: parsePrice('extra_unit_eur', values.extra_unit_eur),
  };
}

function parseMaxWeight(value: unknown): number {
  const match = /^(\d+)(?:[.,](\d{1,3}))?$/.exec(text(value));
  const grams = match ? Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0')) : Number.NaN;
  if (!(grams > 0 && grams <= MAX_UNIT_WEIGHT_GRAMS)) {
    throw new RowError(
      `max_weight_kg must be a weight in kg above 0 and at most 2000, with at most 3 decimals (got "${text(value)}")`,
    );
  }
  return grams;
}

function parsePrice(field: Column, value: unknown): number {
  const cents = parseEurosToCents(text(value));
  if (cents === null || cents < 0 || cents > MAX_PRICE_CENTS) {
    throw new RowError(
      `${field} must be an amount in euros, at least 0, with at most 2 decimals (got "${text(value)}")`,
    );
  }
  return cents;
}

/** JSON numbers are read from their shortest decimal form, so 8.4 is exactly 840 cents. */
function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return JSON.stringify(value) ?? String(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SERVICE_ORDER = Object.fromEntries(SERVICE_CODES.map((s, i) => [s, i]));
const ZONE_ORDER = Object.fromEntries(PRICING_ZONES.map((z, i) => [z, i]));
const UNIT_ORDER = Object.fromEntries(UNIT_TYPES.map((u, i) => [u, i]));

/** Rows in reading order: service, zone, unit type (as the API lists them), then weight. */
function sortGrid(grid: Grid): GridRow[] {
  return [...grid].sort(
    (a, b) =>
      (SERVICE_ORDER[a.service] ?? 0) - (SERVICE_ORDER[b.service] ?? 0) ||
      (ZONE_ORDER[a.zone] ?? 0) - (ZONE_ORDER[b.zone] ?? 0) ||
      (UNIT_ORDER[a.unitType] ?? 0) - (UNIT_ORDER[b.unitType] ?? 0) ||
      a.maxWeightGrams - b.maxWeightGrams,
  );
}

/** The CSV format above, for `dlv grids show`; `parseGridFile(formatGridCsv(g), 'csv')` gives g back. */
export function formatGridCsv(grid: Grid): string {
  const lines = sortGrid(grid).map((r) =>
    [
      r.service,
      r.zone,
      r.unitType,
      r.maxWeightGrams / 1000,
      formatEuros(r.firstUnitCents),
      formatEuros(r.extraUnitCents),
    ].join(','),
  );
  return `${[GRID_COLUMNS.join(','), ...lines].join('\n')}\n`;
}

/** The JSON format above, one row per line. */
export function formatGridJson(grid: Grid, description?: string): string {
  const rows = sortGrid(grid).map((r) =>
    JSON.stringify({
      service: r.service,
      zone: r.zone,
      unit_type: r.unitType,
      max_weight_kg: r.maxWeightGrams / 1000,
      first_unit_eur: r.firstUnitCents / 100,
      extra_unit_eur: r.extraUnitCents / 100,
    }),
  );
  const head = description === undefined ? '' : `  "description": ${JSON.stringify(description)},\n`;
  return `{\n${head}  "rows": [\n    ${rows.join(',\n    ')}\n  ]\n}\n`;
}
