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

const columns = (t: string) => `${t}.connection_id AS "connectionId", ${t}.poll_enabled AS "pollEnabled",
  ${t}.time_zone AS "timeZone", ${t}.polled_through AS "polledThrough", ${t}.last_polled_at AS "lastPolledAt",
  ${t}.delivered_state_id AS "deliveredStateId"`;

export function prestashopShopsRepository(db: Queryable) {
  return {
    /**
     * Records a push's signature as seen; false when it was seen already (a replay). The link's
     * signatures seen before `forgetBefore` are deleted first: a push that old is refused by its
     * timestamp anyway.
     */
    async rememberPushSignature(
      connectionId: string,
      signature: Buffer,
      at: Date,
      forgetBefore: Date,
    ): Promise<boolean> {
      await db.query('DELETE FROM prestashop_push_signatures WHERE connection_id = $1 AND seen_at < $2', [
        connectionId,
        forgetBefore,
      ]);
      const { rowCount } = await db.query(
        `INSERT INTO prestashop_push_signatures (connection_id, signature, seen_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [connectionId, signature, at],
      );
      return rowCount === 1;
    },

    async insert(shop: Omit<PrestaShopShop, 'lastPolledAt'>, at: Date): Promise<void> {
      await db.query(
        `INSERT INTO prestashop_shops (connection_id, poll_enabled, time_zone, polled_through, delivered_state_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [shop.connectionId, shop.pollEnabled, shop.timeZone, shop.polledThrough, shop.deliveredStateId, at],
      );
    },

    async find(connectionId: string): Promise<PrestaShopShop | null> {
      const { rows } = await db.query<PrestaShopShop>(
        `SELECT ${columns('p')} FROM prestashop_shops p WHERE p.connection_id = $1`,
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

    /** A Webservice key given after the link: the poll turns on from `polledThrough` unless it has a mark already. */
    async enablePoll(
      connectionId: string,
      shop: { timeZone: string | null; deliveredStateId: number | null; polledThrough: string },
    ): Promise<void> {
      await db.query(
        `UPDATE prestashop_shops
            SET poll_enabled = true, time_zone = $2, delivered_state_id = $3,
                polled_through = coalesce(polled_through, $4)
          WHERE connection_id = $1`,
        [connectionId, shop.timeZone, shop.deliveredStateId, shop.polledThrough],
      );
    },

    /** A resync: the high-water mark moved back (recordPoll only moves it forward). */
    async rewindPoll(connectionId: string, polledThrough: string): Promise<void> {
      await db.query(
        `UPDATE prestashop_shops SET polled_through = $2, last_polled_at = NULL WHERE connection_id = $1`,
        [connectionId, polledThrough],
      );
    },

    /**
     * What the Shops page shows of each of the brand's PrestaShop links: the poll's state and when
     * the module last pushed (the inbox holds only pushes: the poll hands its orders over directly),
     * counted within the link's life like the last sync.
     */
    async overview(brandId: string): Promise<(PrestaShopShop & { lastPushAt: Date | null })[]> {
      const { rows } = await db.query<PrestaShopShop & { lastPushAt: Date | null }>(
        `SELECT ${columns('p')},
                (SELECT max(i.received_at) FROM connector_inbox i
                  WHERE i.platform = 'prestashop' AND i.shop = c.shop AND i.received_at >= c.created_at
                    AND (c.disconnected_at IS NULL OR i.received_at <= c.disconnected_at)) AS "lastPushAt"
           FROM prestashop_shops p JOIN connector_connections c ON c.id = p.connection_id
          WHERE c.brand_id = $1`,
        [brandId],
      );
      return rows;
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
