import type { LabelledOrder, LabelPrintStore, LabelStore } from '../../domain/labels/ports.ts';
import type { SortCodeRule } from '../../domain/labels/sort-codes.ts';
import { keyedOutboxCtes } from '../outbox-sql.ts';
import { isPool, type Queryable, withTransaction } from '../pool.ts';
import { ORDER_SELECT, toOrder } from './order-sql.ts';

/** First prints recorded on `db`: the pool, or a caller's transaction (an Idempotency-Key's). */
export function labelPrintsOn(db: Queryable): LabelPrintStore {
  return {
    async markLabelled(brandId, orderIds, at, events): Promise<string[]> {
      const values: unknown[] = [at, orderIds, brandId];
      // Only rows still unlabelled are updated, and an event is written only for a row updated:
      // two prints racing record one date and one event per order.
      const update = `UPDATE orders SET labelled_at = $1
        WHERE id = ANY($2::bigint[]) AND brand_id = $3 AND labelled_at IS NULL RETURNING tracking_ref`;
      const outbox = keyedOutboxCtes(
        events.map((e) => ({ key: e.trackingRef, event: e.event })),
        values,
        { cte: 'labelled', key: 'tracking_ref' },
      );
      const { rows } = await db.query<{ tracking_ref: string }>(
        outbox
          ? `WITH labelled AS (${update}), ${outbox.ctes} SELECT tracking_ref, ${outbox.select} FROM labelled`
          : update,
        values,
      );
      return rows.map((r) => r.tracking_ref);
    },
  };
}

/** Labels' storage (migration 0029): orders read for printing, their first print, the sort codes. */
export function labelsRepository(db: Queryable): LabelStore {
  return {
    ...labelPrintsOn(db),
    async findOrders(brandId: string, trackingRefs: readonly string[]): Promise<LabelledOrder[]> {
      if (trackingRefs.length === 0) return [];
      const { rows } = await db.query<Record<string, unknown>>({
        name: 'labels.findOrders',
        text: `SELECT ${ORDER_SELECT}, labelled_at FROM orders
          WHERE brand_id = $1 AND tracking_ref = ANY($2::text[])`,
        values: [brandId, trackingRefs],
      });
      return rows.map((row) => ({ ...toOrder(row), labelledAt: (row.labelled_at as Date | null) ?? null }));
    },

    async sortCodes(): Promise<SortCodeRule[]> {
      const { rows } = await db.query<{ postcode_prefix: string; sort_code: string }>({
        name: 'labels.sortCodes',
        text: 'SELECT postcode_prefix, sort_code FROM sort_codes ORDER BY postcode_prefix',
      });
      return rows.map((r) => ({ postcodePrefix: r.postcode_prefix, sortCode: r.sort_code }));
    },

    async replaceSortCodes(rules: readonly SortCodeRule[], at: Date): Promise<void> {
      const replace = async (client: Queryable) => {
        await client.query('DELETE FROM sort_codes');
        await client.query(
          `INSERT INTO sort_codes (postcode_prefix, sort_code, imported_at)
           SELECT r.postcode_prefix, r.sort_code, $2 FROM json_to_recordset($1::json)
             AS r(postcode_prefix text, sort_code text)`,
          [
            JSON.stringify(rules.map((r) => ({ postcode_prefix: r.postcodePrefix, sort_code: r.sortCode }))),
            at,
          ],
        );
      };
      // On the pool, a transaction of its own; on a transaction's client, the caller's.
      await (isPool(db) ? withTransaction(db, replace) : replace(db));
    },
  };
}
