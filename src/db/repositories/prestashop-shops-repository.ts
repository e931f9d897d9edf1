import type { Queryable } from '../pool.ts';

/** What the PrestaShop connector keeps per linked shop beside its connection (migration 0021). */
export interface PrestaShopShop {
  connectionId: string;
  pollEnabled: boolean;
  timeZone: string | null;
  polledThrough: string | null;
  lastPolledAt: Date | null;
  deliveredStateId: number | null;
}

const COLUMNS = `connection_id AS "connectionId", poll_enabled AS "pollEnabled", time_zone AS "timeZone",
  polled_through AS "polledThrough", last_polled_at AS "lastPolledAt", delivered_state_id AS "deliveredStateId"`;

export function prestashopShopsRepository(db: Queryable) {
  return {
    async insert(shop: Omit<PrestaShopShop, 'lastPolledAt'>, at: Date): Promise<void> {
      await db.query(
        `INSERT INTO prestashop_shops (connection_id, poll_enabled, time_zone, polled_through, delivered_state_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [shop.connectionId, shop.pollEnabled, shop.timeZone, shop.polledThrough, shop.deliveredStateId, at],
      );
    },

    async find(connectionId: string): Promise<PrestaShopShop | null> {
      const { rows } = await db.query<PrestaShopShop>(
        `SELECT ${COLUMNS} FROM prestashop_shops WHERE connection_id = $1`,
        [connectionId],
      );
      return rows[0] ?? null;
    },

    /** Active links whose poll is on and was last run before `before` (or never), oldest first. */
    async duePolls(before: Date, limit: number): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT p.connection_id AS id FROM prestashop_shops p
           JOIN connector_connections c ON c.id = p.connection_id AND c.status = 'active'
          WHERE p.poll_enabled AND (p.last_polled_at IS NULL OR p.last_polled_at < $1)
          ORDER BY p.last_polled_at NULLS FIRST LIMIT $2`,
        [before, limit],
      );
      return rows.map((r) => r.id);
    },

    /** The poll's progress: the high-water mark only moves forward. */
    async recordPoll(connectionId: string, polledThrough: string | null, at: Date): Promise<void> {
      await db.query(
        `UPDATE prestashop_shops
            SET polled_through = CASE WHEN $2::text IS NULL OR polled_through > $2 THEN polled_through ELSE $2 END,
                last_polled_at = $3
          WHERE connection_id = $1`,
        [connectionId, polledThrough, at],
      );
    },

    async setDeliveredState(connectionId: string, stateId: number): Promise<void> {
      await db.query('UPDATE prestashop_shops SET delivered_state_id = $2 WHERE connection_id = $1', [
        connectionId,
        stateId,
      ]);
    },
  };
}

export type PrestaShopShopsRepository = ReturnType<typeof prestashopShopsRepository>;
