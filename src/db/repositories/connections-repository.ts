import type {
  Connection,
  ConnectionStatus,
  OrderFilter,
  Platform,
  RemoteIds,
  SyncState,
} from '../../connectors/connection.ts';
import { AppError } from '../../errors.ts';
import type { Queryable } from '../pool.ts';

interface ConnectionRow {
  id: string;
  brand_id: string;
  platform: Platform;
  shop: string;
  status: ConnectionStatus;
  status_reason: string | null;
  scopes: string;
  order_filter: OrderFilter;
  notify_customer: boolean;
  remote_ids: RemoteIds;
  extra_statuses: string[];
  sync_cursor: string | null;
  last_synced_at: Date | null;
  sync_error: string | null;
  sync_state: SyncState;
  created_at: Date;
  updated_at: Date;
  disconnected_at: Date | null;
}

// Credentials are left out: only `credentialsOf` reads them, for the one call that needs them.
const COLUMNS = `id, brand_id, platform, shop, status, status_reason, scopes, order_filter, notify_customer,
  remote_ids, extra_statuses, sync_cursor, last_synced_at, sync_error, sync_state, created_at, updated_at,
  disconnected_at`;

const toConnection = (r: ConnectionRow): Connection => ({
  id: r.id,
  brandId: r.brand_id,
  platform: r.platform,
  shop: r.shop,
  status: r.status,
  statusReason: r.status_reason,
  scopes: r.scopes,
  orderFilter: r.order_filter,
  notifyCustomer: r.notify_customer,
  remoteIds: r.remote_ids,
  extraStatuses: r.extra_statuses,
  syncCursor: r.sync_cursor,
  lastSyncedAt: r.last_synced_at,
  syncError: r.sync_error,
  syncState: r.sync_state,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  disconnectedAt: r.disconnected_at,
});

export interface NewConnection {
  id: string;
  brandId: string;
  platform: Platform;
  shop: string;
  credentials: Buffer;
  scopes: string;
  remoteIds: RemoteIds;
  at: Date;
  /** Where the poll starts (polled platforms). */
  syncCursor?: string | null;
}

export interface PendingInstall {
  state: string;
  platform: Platform;
  shop: string;
  brandId: string;
  userId: string | null;
  expiresAt: Date;
  /** The connection id chosen when the install started (a platform's key provisioning). */
  connectionId?: string | null;
}

export function connectionsRepository(db: Queryable) {
  return {
    async insert(row: NewConnection): Promise<Connection> {
      try {
        const { rows } = await db.query<ConnectionRow>(
          `INSERT INTO connector_connections (id, brand_id, platform, shop, status, credentials, scopes, remote_ids,
             created_at, updated_at, sync_cursor)
           VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $8, $9) RETURNING ${COLUMNS}`,
          [
            row.id,
            row.brandId,
            row.platform,
            row.shop,
            row.credentials,
            row.scopes,
            row.remoteIds,
            row.at,
            row.syncCursor ?? null,
          ],
        );
        return toConnection(rows[0]!);
      } catch (err) {
        if ((err as { code?: string }).code === '23505')
          throw new AppError(
            'invalid_request',
            `The shop ${row.shop} is already linked; disconnect it first.`,
          );
        throw err;
      }
    },

    async find(id: string): Promise<Connection | null> {
      const { rows } = await db.query<ConnectionRow>(
        `SELECT ${COLUMNS} FROM connector_connections WHERE id = $1`,
        [id],
      );
      return rows[0] ? toConnection(rows[0]) : null;
    },

    /** Newest first; `brandId` null: every brand's (the operator). */
    async list(brandId: string | null): Promise<Connection[]> {
      const { rows } = await db.query<ConnectionRow>(
        `SELECT ${COLUMNS} FROM connector_connections WHERE $1::text IS NULL OR brand_id = $1
          ORDER BY created_at DESC, id`,
        [brandId],
      );
      return rows.map(toConnection);
    },

    /** The shop's link that is not disconnected (at most one), else its latest one. */
    async findByShop(platform: Platform, shop: string): Promise<Connection | null> {
      const { rows } = await db.query<ConnectionRow>(
        `SELECT ${COLUMNS} FROM connector_connections WHERE platform = $1 AND shop = $2
          ORDER BY status = 'disconnected', created_at DESC LIMIT 1`,
        [platform, shop],
      );
      return rows[0] ? toConnection(rows[0]) : null;
    },

    /** The active link of the shop, for the hot paths (rates at checkout): the brand only. */
    async activeBrandOfShop(platform: Platform, shop: string): Promise<string | null> {
      const { rows } = await db.query<{ brand_id: string }>({
        name: 'connectors.activeBrandOfShop',
        text: `SELECT brand_id FROM connector_connections WHERE platform = $1 AND shop = $2 AND status = 'active'`,
        values: [platform, shop],
      });
      return rows[0]?.brand_id ?? null;
    },

    async hasActive(platform: Platform, brandId: string): Promise<boolean> {
      const { rows } = await db.query({
        name: 'connectors.hasActive',
        text: `SELECT 1 FROM connector_connections WHERE platform = $1 AND brand_id = $2 AND status = 'active' LIMIT 1`,
        values: [platform, brandId],
      });
      return rows.length > 0;
    },

    /** Bumped by a trigger whenever a link appears, changes shop or brand, or changes status (0018). */
    async version(): Promise<number> {
      const { rows } = await db.query<{ version: number }>(
        "SELECT version FROM cache_versions WHERE name = 'connector_connections'",
      );
      return rows[0]?.version ?? 0;
    },

    async credentialsOf(id: string): Promise<Buffer | null> {
      const { rows } = await db.query<{ credentials: Buffer | null }>(
        'SELECT credentials FROM connector_connections WHERE id = $1',
        [id],
      );
      return rows[0]?.credentials ?? null;
    },

    /**
     * The link's credentials, its row locked until the transaction ends: a change of one secret
     * (re-sealed with the others) must not lose another made at the same time. Null once disconnected.
     */
    async credentialsForUpdate(id: string): Promise<Buffer | null> {
      const { rows } = await db.query<{ credentials: Buffer | null }>(
        `SELECT credentials FROM connector_connections WHERE id = $1 AND status <> 'disconnected' FOR UPDATE`,
        [id],
      );
      return rows[0]?.credentials ?? null;
    },

    /** New credentials for a live link; false when it was disconnected meanwhile. */
    async replaceCredentials(id: string, credentials: Buffer, scopes: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE connector_connections SET credentials = $2, scopes = $3, updated_at = $4
          WHERE id = $1 AND status <> 'disconnected'`,
        [id, credentials, scopes, at],
      );
      return rowCount === 1;
    },

    /** `broken` (credentials kept, in case the shop only had a hiccup) or back to `active`. */
    async setHealth(id: string, status: 'active' | 'broken', reason: string | null, at: Date): Promise<void> {
      await db.query(
        `UPDATE connector_connections SET status = $2, status_reason = $3, updated_at = $4
          WHERE id = $1 AND status <> 'disconnected'`,
        [id, status, reason, at],
      );
    },

    /** Credentials erased with the status change; false when it was already disconnected. */
    async disconnect(id: string, reason: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE connector_connections
            SET status = 'disconnected', status_reason = $2, credentials = NULL, updated_at = $3, disconnected_at = $3
          WHERE id = $1 AND status <> 'disconnected'`,
        [id, reason, at],
      );
      return rowCount === 1;
    },

    async updateSettings(
      id: string,
      settings: { orderFilter?: OrderFilter; notifyCustomer?: boolean; extraStatuses?: string[] },
      at: Date,
    ): Promise<void> {
      await db.query(
        `UPDATE connector_connections
            SET order_filter = coalesce($2, order_filter), notify_customer = coalesce($3, notify_customer),
                extra_statuses = coalesce($5, extra_statuses), updated_at = $4
          WHERE id = $1`,
        [
          id,
          settings.orderFilter ?? null,
          settings.notifyCustomer ?? null,
          at,
          settings.extraStatuses ?? null,
        ],
      );
    },

    /** Every link of a platform that is still syncing (the poll's list). */
    async listActive(platform: Platform): Promise<Connection[]> {
      const { rows } = await db.query<ConnectionRow>(
        `SELECT ${COLUMNS} FROM connector_connections WHERE platform = $1 AND status = 'active' ORDER BY id`,
        [platform],
      );
      return rows.map(toConnection);
    },

    /**
     * What a poll found: the cursor moves forward only (never back: a slow poll finishing after a
     * newer one must not make the next one fetch everything again), unless `rewind` (a resync).
     */
    async recordSync(
      id: string,
      result: { cursor?: string | null; error: string | null; reached: boolean; rewind?: boolean },
      at: Date,
    ): Promise<void> {
      await db.query(
        `UPDATE connector_connections
            SET sync_cursor = CASE WHEN $2::text IS NULL THEN sync_cursor
                                   WHEN $5 OR sync_cursor IS NULL OR $2 > sync_cursor THEN $2 ELSE sync_cursor END,
                sync_error = left($3, 500),
                last_synced_at = CASE WHEN $4 THEN $6 ELSE last_synced_at END
          WHERE id = $1`,
        [id, result.cursor ?? null, result.error, result.reached, result.rewind ?? false, at],
      );
    },

    /** Moves the poll's mark back to `cursor` when it is further (an order to fetch again). */
    async rewindCursor(id: string, cursor: string): Promise<void> {
      await db.query('UPDATE connector_connections SET sync_cursor = least(sync_cursor, $2) WHERE id = $1', [
        id,
        cursor,
      ]);
    },

    /** Merges `patch` into what the bridge remembers about the shop. */
    async mergeSyncState(id: string, patch: SyncState): Promise<void> {
      await db.query('UPDATE connector_connections SET sync_state = sync_state || $2::jsonb WHERE id = $1', [
        id,
        JSON.stringify(patch),
      ]);
    },

    async setRemoteIds(id: string, remoteIds: RemoteIds, at: Date): Promise<void> {
      await db.query('UPDATE connector_connections SET remote_ids = $2, updated_at = $3 WHERE id = $1', [
        id,
        remoteIds,
        at,
      ]);
    },

    async insertInstall(install: PendingInstall): Promise<void> {
      await db.query(
        `INSERT INTO connector_installs (state, platform, shop, brand_id, user_id, expires_at, connection_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          install.state,
          install.platform,
          install.shop,
          install.brandId,
          install.userId,
          install.expiresAt,
          install.connectionId ?? null,
        ],
      );
      // Abandoned installs go with the next one.
      await db.query("DELETE FROM connector_installs WHERE expires_at < $1::timestamptz - interval '1 day'", [
        install.expiresAt,
      ]);
    },

    /** Single use: the install is deleted as it is read; null when unknown or expired. */
    async takeInstall(state: string, now: Date): Promise<PendingInstall | null> {
      const { rows } = await db.query<{
        state: string;
        platform: Platform;
        shop: string;
        brand_id: string;
        user_id: string | null;
        expires_at: Date;
        connection_id: string | null;
      }>('DELETE FROM connector_installs WHERE state = $1 RETURNING *', [state]);
      const r = rows[0];
      if (!r || r.expires_at <= now) return null;
      return {
        state: r.state,
        platform: r.platform,
        shop: r.shop,
        brandId: r.brand_id,
        userId: r.user_id,
        expiresAt: r.expires_at,
        connectionId: r.connection_id,
      };
    },
  };
}

export type ConnectionsRepository = ReturnType<typeof connectionsRepository>;
