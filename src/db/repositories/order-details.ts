import type { OrderLinks } from '../../domain/orders/order-json.ts';
import { coalescedStatements } from '../coalesced-statements.ts';
import type { Pool, Queryable } from '../pool.ts';
import { ORDER_JSON_SELECT, orderJsonText } from './order-sql.ts';

/** One order's detail asked for by one brand (a tracking ref of another brand's is not found). */
export interface DetailLookup {
  trackingRef: string;
  brandId: string;
  links: OrderLinks;
}

/**
 * The brand's order in its public detail JSON (`orderDetailJson`), from the text stored with the
 * row (see `orderJsonText`): the detail is a hot read, and this spares building an Order and
 * serialising it again. Prepared once per connection; the unique index on tracking_ref makes the
 * plan right for any value.
 */
export async function findDetailJson(db: Queryable, lookup: DetailLookup): Promise<string | null> {
  const { rows } = await db.query<unknown[]>({
    name: 'orders.findDetailJson',
    text: `SELECT o.history::text, ${ORDER_JSON_SELECT} FROM orders o WHERE o.tracking_ref = $1 AND o.brand_id = $2`,
    values: [lookup.trackingRef, lookup.brandId],
    rowMode: 'array',
  });
  const row = rows[0];
  return row ? orderJsonText(row, 1, lookup.links, row[0] as string) : null;
}

/** Several details in one statement: each ref's row, then only for the brand that asked. */
async function findDetailJsons(db: Queryable, lookups: DetailLookup[]): Promise<Array<string | null>> {
  const { rows } = await db.query<unknown[]>({
    name: 'orders.findDetailJsons',
    text: `SELECT o.tracking_ref, o.brand_id, o.history::text, ${ORDER_JSON_SELECT}
      FROM orders o WHERE o.tracking_ref = ANY($1::text[])`,
    values: [lookups.map((l) => l.trackingRef)],
    rowMode: 'array',
  });
  const byRef = new Map(rows.map((row) => [row[0] as string, row]));
  return lookups.map((l) => {
    const row = byRef.get(l.trackingRef);
    return row && row[1] === l.brandId ? orderJsonText(row, 3, l.links, row[2] as string) : null;
  });
}

/** Detail lookups on the pool, coalesced per turn of the event loop. */
export function coalescedDetailLookups(pool: Pool, maxBatch: number) {
  return coalescedStatements<DetailLookup, string | null>({
    one: (lookup) => findDetailJson(pool, lookup),
    many: (lookups) => findDetailJsons(pool, lookups),
    maxBatch,
  });
}
