import { RESOURCES } from './resources.ts';
import type { Row } from './state.ts';

/**
 * The list query of WebserviceRequest::manageFilters(): filter[field]=value, sort, limit, display.
 * date_add/date_upd can be filtered or sorted on only with date=1 (otherwise "This filter does not
 * exist", code 32). Filter values: `[a,b]` is an inclusive interval, `[a|b]` a list, `>[a]`/`<[a]` a
 * strict comparison, `%[a]%` a LIKE, `[a]` or `a` an equality. Dates compare as the shop's local
 * `YYYY-MM-DD HH:MM:SS` strings.
 */

export class WsError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length]!;
}

/** setErrorDidYouMean(): the message with the closest value and the full list. */
export function didYouMean(label: string, value: string, available: string[]): string {
  const closest = [...available].sort((x, y) => levenshtein(value, x) - levenshtein(value, y))[0] ?? '';
  const list = available.length > 1 ? ` The full list is: "${available.join('", "')}"` : '';
  return `${label}. Did you mean: "${closest}"?${list}`;
}

function compare(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (a !== '' && b !== '' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

function matcher(raw: string): (value: string) => boolean {
  let m = /^\[([^\]]*),([^\]]*)\]$/.exec(raw);
  if (m) return (v) => compare(v, m![1]!.trim()) >= 0 && compare(v, m![2]!.trim()) <= 0;
  m = /^\[([^\]]*\|[^\]]*)\]$/.exec(raw);
  if (m) {
    const values = m[1]!.split('|');
    return (v) => values.some((x) => compare(v, x) === 0);
  }
  m = /^([<>])\[([^\]]*)\]$/.exec(raw);
  if (m) return m[1] === '>' ? (v) => compare(v, m![2]!) > 0 : (v) => compare(v, m![2]!) < 0;
  m = /^(%?)\[([^\]]*)\](%?)$/.exec(raw);
  if (m && (m[1] || m[3])) {
    const needle = m[2]!.toLowerCase();
    return (v) => {
      const s = v.toLowerCase();
      return m![1] && m![3] ? s.includes(needle) : m![1] ? s.endsWith(needle) : s.startsWith(needle);
    };
  }
  const exact = m ? m[2]! : raw;
  return (v) => compare(v, exact) === 0;
}

export type Display = 'ids' | 'full' | string[];

export function selectRows(
  resource: string,
  rows: Row[],
  q: URLSearchParams,
): { rows: Row[]; display: Display } {
  const definition = RESOURCES[resource]!;
  const withDates = Boolean(q.get('date')) && q.get('date') !== '0';
  const available = definition.fields.filter((f) => withDates || (f !== 'date_add' && f !== 'date_upd'));
  let selected = rows;
  for (const [name, value] of q) {
    const field = /^filter\[(\w+)\]$/.exec(name)?.[1];
    if (!field) continue;
    if (!available.includes(field))
      throw new WsError(400, 32, didYouMean('This filter does not exist', field, available));
    if (value === '') throw new WsError(400, 33, `The filter "${field}" is malformed.`);
    const test = matcher(value);
    selected = selected.filter((row) => test(String(row[field] ?? '')));
  }
  const sort = q.get('sort');
  if (sort) {
    const parts = (/^\[(.*)\]$/.exec(sort)?.[1] ?? sort).split(',');
    const keys = parts.map((part) => {
      const at = part.lastIndexOf('_');
      const [field, direction] = [part.slice(0, at), part.slice(at + 1).toUpperCase()];
      if (at < 0 || !['ASC', 'DESC'].includes(direction))
        throw new WsError(
          400,
          37,
          'The "sort" value has to be formed as this example: "field_ASC" or \'[field_1_DESC,field_2_ASC,field_3_ASC,...]\' ("field" has to be an available field)',
        );
      if (!available.includes(field))
        throw new WsError(
          400,
          38,
          `Unable to filter by this field. However, these are available: ${available.join(', ')}, for i18n fields:`,
        );
      return { field, sign: direction === 'ASC' ? 1 : -1 };
    });
    selected = [...selected].sort((a, b) => {
      for (const { field, sign } of keys) {
        const order = compare(String(a[field] ?? ''), String(b[field] ?? ''));
        if (order) return sign * order;
      }
      return 0;
    });
  }
  const limit = q.get('limit');
  if (limit !== null) {
    const args = limit.split(',').map((n) => Number.parseInt(n, 10) || 0);
    if (args.length > 2)
      throw new WsError(400, 39, 'The "limit" value has to be formed as this example: "5,25" or "10"');
    const [offset, count] = args.length === 2 ? args : [0, args[0]!];
    selected = selected.slice(offset, offset! + count!);
  }
  return { rows: selected, display: displayOf(definition.fields, q.get('display')) };
}

function displayOf(fields: string[], display: string | null): Display {
  if (display === null) return 'ids';
  if (display === 'full') return 'full';
  const list = /^\[(.*)\]$/.exec(display)?.[1];
  if (list === undefined)
    throw new WsError(
      400,
      36,
      `The 'display' syntax is wrong. You can set 'full' or '[field_1,field_2,field_3,...]'. These are available: ${fields.join(', ')}`,
    );
  const wanted = list.split(',').map((f) => f.trim());
  const unknown = wanted.find((f) => !fields.includes(f));
  if (unknown)
    throw new WsError(
      400,
      35,
      `Unable to display this field "${unknown}". However, these are available: ${fields.join(', ')}`,
    );
  return wanted;
}
