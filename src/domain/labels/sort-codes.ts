import { AppError, type ErrorDetail } from '../../errors.ts';
import type { PricingZone } from '../coverage/zones.ts';
import { readCsv } from '../pricing/csv.ts';

/**
 * Sort codes (SPEC §10): what the hub sorts a parcel by, printed big on its label and carried by
 * its 2D code. The operator's table maps a postcode, or the start of one, to a code (a zone and
 * round group such as `PC-93-SD`); the longest matching prefix wins. A postcode the table does not
 * cover gets the default: the zone (`PAR`, `PC`, `GC`) and the arrondissement (two digits, from the
 * postcode: 75011 → `PAR-11`, 75116 → `PAR-16`) or the département (`PC-93`, `GC-77`).
 */
export interface SortCodeRule {
  /** 2 to 5 digits. */
  postcodePrefix: string;
  sortCode: string;
}

const ZONE_PREFIX: Record<PricingZone, string> = {
  paris: 'PAR',
  petite_couronne: 'PC',
  grande_couronne: 'GC',
};

/** Capitals, digits and inner hyphens, 1 to 16 characters: short enough to read across a hub. */
const SORT_CODE_PATTERN = /^[A-Z0-9](?:[A-Z0-9-]{0,14}[A-Z0-9])?$/;
const PREFIX_PATTERN = /^[0-9]{2,5}$/;

/** At most this many rules in a table (every Île-de-France postcode is about 300). */
const MAX_RULES = 5000;

/** The default code of a delivery postcode in a zone; null when either is missing. */
export function defaultSortCode(postcode: string | null, zone: PricingZone | null): string | null {
  if (!postcode || !zone) return null;
  const tail = zone === 'paris' ? postcode.slice(3, 5) : postcode.slice(0, 2);
  return `${ZONE_PREFIX[zone]}-${tail}`;
}

/** Looks postcodes up in a table: the longest matching prefix, else the default. */
export interface SortCodeTable {
  codeFor(postcode: string | null, zone: PricingZone | null): string | null;
}

export function sortCodeTable(rules: readonly SortCodeRule[]): SortCodeTable {
  const byPrefix = new Map(rules.map((r) => [r.postcodePrefix, r.sortCode]));
  return {
    codeFor(postcode, zone) {
      if (postcode) {
        for (let length = Math.min(5, postcode.length); length >= 2; length--) {
          const code = byPrefix.get(postcode.slice(0, length));
          if (code) return code;
        }
      }
      return defaultSortCode(postcode, zone);
    },
  };
}

export type SortCodeFileFormat = 'csv' | 'json';

/**
 * A sort-code file, checked whole (every bad line named at once, nothing imported on a refusal):
 * CSV with a header `postcode,sort_code` (`,` or `;`), or JSON `{ "rules": [{ "postcode", "sort_code" }] }`
 * (a bare array too). A prefix given twice is refused: which one would win is not obvious.
 */
export function parseSortCodeFile(text: string, format: SortCodeFileFormat): SortCodeRule[] {
  const entries = format === 'json' ? jsonEntries(text) : csvEntries(text);
  const details: ErrorDetail[] = [];
  const rules: SortCodeRule[] = [];
  const seen = new Map<string, string>();
  for (const { where, postcode, code } of entries) {
    const prefix = postcode.trim();
    const sortCode = code.trim().toUpperCase();
    if (!PREFIX_PATTERN.test(prefix)) {
      details.push({
        field: `${where}.postcode`,
        message: 'must be 2 to 5 digits (a postcode or its start)',
      });
      continue;
    }
    if (!SORT_CODE_PATTERN.test(sortCode)) {
      details.push({
        field: `${where}.sort_code`,
        message: 'must be 1 to 16 capitals, digits or inner hyphens (e.g. PC-93-SD)',
      });
      continue;
    }
    const first = seen.get(prefix);
    if (first) {
      details.push({ field: `${where}.postcode`, message: `${prefix} is already given at ${first}` });
      continue;
    }
    seen.set(prefix, where);
    rules.push({ postcodePrefix: prefix, sortCode });
  }
  if (rules.length + details.length > MAX_RULES)
    throw new AppError('invalid_request', `A sort-code table has at most ${MAX_RULES} rules.`);
  if (details.length > 0) {
    const shown = details.slice(0, 50);
    throw new AppError(
      'invalid_request',
      `The sort-code file has ${details.length} bad line(s): ${shown.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      shown,
    );
  }
  return rules.sort((a, b) => a.postcodePrefix.localeCompare(b.postcodePrefix));
}

interface Entry {
  where: string;
  postcode: string;
  code: string;
}

function csvEntries(text: string): Entry[] {
  const { header, records } = readCsv(text, (line) => (line.includes(';') ? ';' : ','));
  if (!header) throw new AppError('invalid_request', 'The sort-code file is empty.');
  const postcodeAt = header.cells.indexOf('postcode');
  const codeAt = header.cells.indexOf('sort_code');
  if (postcodeAt < 0 || codeAt < 0)
    throw new AppError('invalid_request', 'The CSV header must name the columns postcode and sort_code.');
  return records.map(({ line, cells }) => ({
    where: `line ${line}`,
    postcode: cells[postcodeAt] ?? '',
    code: cells[codeAt] ?? '',
  }));
}

function jsonEntries(text: string): Entry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new AppError('invalid_request', `The sort-code file is not JSON: ${(err as Error).message}`);
  }
  const rules = Array.isArray(parsed) ? parsed : (parsed as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules))
    throw new AppError('invalid_request', 'The JSON must be { "rules": [{ "postcode", "sort_code" }, …] }.');
  return rules.map((rule, i) => {
    const r = (rule ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
    return { where: `rules[${i}]`, postcode: str(r.postcode), code: str(r.sort_code) };
  });
}
