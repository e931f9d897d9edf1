import type { OrderLinks } from '../../domain/orders/order-json.ts';
import type { JsonPage, PageQuery } from '../../domain/orders/order-page.ts';
import { coalescedStatements } from '../coalesced-statements.ts';
import type { Pool, Queryable } from '../pool.ts';
import { ORDER_JSON_SELECT, orderJsonText } from './order-sql.ts';

/** One brand's page, as a caller asks for it. */
export interface PageLookup {
  brandId: string;
  q: PageQuery;
  links: OrderLinks;
}

/** The values a page's statement takes, with their SQL types (for the arrays of coalesced pages). */
const PAGE_VALUES = {
  brand: 'text',
  status: 'text',
  prefix_from: 'text',
  prefix_to: 'text',
  after: 'int8',
  lim: 'int8',
} as const;
type PageValue = keyof typeof PAGE_VALUES;

/**
 * The page's SELECT over `orders o`. `value` gives the SQL of each value it uses: a parameter of
 * its own statement, or a column of the table of lookups when pages are coalesced. Which values
 * it uses (its shape: the filters present) names its prepared statements: with no
 * `$n IS NULL OR` branches, each plan is right whatever the values (index on status or not).
 */
function pageSelect(lookup: PageLookup, value: (name: PageValue, v: unknown) => string): string {
  const { q } = lookup;
  const brand = value('brand', lookup.brandId);
  let where = `o.brand_id = ${brand}`;
  if (q.status !== null) where += ` AND o.status = ${value('status', q.status)}`;
  const prefix = q.referencePrefix ?? null;
  if (prefix !== null) {
    where += referencePrefixSql(prefix, (from, to) => [value('prefix_from', from), value('prefix_to', to)]);
  }
  if (q.after !== null) {
    where += ` AND (o.created_at, o.id) < (SELECT c.created_at, c.id FROM orders c WHERE c.id = ${value('after', q.after)} AND c.brand_id = ${brand})`;
  }
  return `SELECT o.id, ${ORDER_JSON_SELECT} FROM orders o
    WHERE ${where} ORDER BY o.created_at DESC, o.id DESC LIMIT ${value('lim', q.limit)}`;
}

/**
 * Orders whose reference starts with `prefix`, as a range in byte order (the index's collation): a
 * string starting with the prefix sorts between it and it followed by the highest code point
 * (unless that noncharacter comes next). `bounds` gives the SQL of the range's two ends.
 */
export function referencePrefixSql(
  prefix: string,
  bounds: (from: string, to: string) => [string, string],
): string {
  const [from, to] = bounds(prefix, `${prefix}\u{10FFFF}`);
  return ` AND o.reference COLLATE "C" >= ${from} AND o.reference COLLATE "C" < ${to}`;
}

const shapeOf = (q: PageQuery) =>
  `${q.status !== null ? 's' : ''}${(q.referencePrefix ?? null) !== null ? 'r' : ''}${q.after !== null ? 'a' : ''}`;

/** One page, by its own statement. */
export async function findPage(db: Queryable, lookup: PageLookup): Promise<JsonPage> {
  const values: unknown[] = [];
  const { rows } = await db.query<unknown[]>({
    name: `orders.listJson.${shapeOf(lookup.q)}`,
    text: pageSelect(lookup, (_, v) => `$${values.push(v)}`),
    values,
    rowMode: 'array',
  });
  return rows.map((row) => ({ id: row[0] as number, json: orderJsonText(row, 1, lookup.links) }));
}

/**
 * Pages of the same shape, by one statement: the lookups as a table (one array per value,
 * `unnest … WITH ORDINALITY`), each page's SELECT run for each of its rows (LATERAL). A nested
 * loop over a LATERAL subquery with its own ORDER BY and LIMIT yields each page's rows together,
 * in that order; the lookup's number says whose they are.
 */
async function findPages(db: Queryable, lookups: PageLookup[]): Promise<JsonPage[]> {
  const arrays = new Map<PageValue, unknown[]>();
  const select = pageSelect(lookups[0]!, (name) => {
    arrays.set(name, []);
    return `q.${name}`;
  });
  // Each lookup's values, in the order its own statement would take them (its text is dropped).
  for (const lookup of lookups) {
    pageSelect(lookup, (name, v) => {
      arrays.get(name)!.push(v);
      return '';
    });
  }
  const names = [...arrays.keys()];
  const { rows } = await db.query<unknown[]>({
    name: `orders.listJsons.${shapeOf(lookups[0]!.q)}`,
    text: `SELECT q.i, p.* FROM unnest(${names.map((n, i) => `$${i + 1}::${PAGE_VALUES[n]}[]`).join(', ')})
        WITH ORDINALITY AS q(${names.join(', ')}, i)
      CROSS JOIN LATERAL (${select}) p`,
    values: [...arrays.values()],
    rowMode: 'array',
  });
  const pages: JsonPage[] = lookups.map(() => []);
  for (const row of rows) {
    const i = (row[0] as number) - 1;
    pages[i]!.push({ id: row[1] as number, json: orderJsonText(row, 2, lookups[i]!.links) });
  }
  return pages;
}

/** Pages asked for on the pool, coalesced per turn of the event loop and per shape. */
export function coalescedPages(pool: Pool, maxBatch: number) {
  return coalescedStatements<PageLookup, JsonPage>({
    one: (lookup) => findPage(pool, lookup),
    many: (lookups) => findPages(pool, lookups),
    maxBatch,
    groupOf: (lookup) => shapeOf(lookup.q),
  });
}
