import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import type { NewEndpointRow, WebhookSubscriptionStore } from '../../domain/webhooks/ports.ts';
import type { Queryable } from '../pool.ts';
import {
  ENDPOINT_COLUMNS,
  type EndpointRow,
  endpointValues,
  INSERT_ENDPOINT,
  toEndpoint,
} from './webhooks-repository.ts';

/** A brand's API subscriptions: its `api`-origin webhook endpoints, never another brand's. */
export function webhookSubscriptionsRepository(db: Queryable): WebhookSubscriptionStore {
  return {
    /**
     * Adds the subscription unless the brand already has `max` (deleted ones aside): null then.
     * The brand's subscriptions are serialised by a transaction-scoped advisory lock taken first, so
     * two concurrent requests cannot both take the last slot; the caller runs this in a transaction.
     */
    async insertWithin(row: NewEndpointRow, max: number): Promise<WebhookEndpoint | null> {
      await db.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook-subscriptions:' || $1, 0))", [
        row.brandId,
      ]);
      const values = endpointValues({ ...row, origin: 'api' });
      const { rows } = await db.query<EndpointRow>(
        `${INSERT_ENDPOINT}
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $8
          WHERE (SELECT count(*) FROM webhook_endpoints
                  WHERE brand_id = $2 AND origin = 'api' AND status <> 'deleted') < $9
         RETURNING ${ENDPOINT_COLUMNS}`,
        [...values, max],
      );
      return rows[0] ? toEndpoint(rows[0]) : null;
    },

    async list(brandId: string): Promise<WebhookEndpoint[]> {
      const { rows } = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
          WHERE brand_id = $1 AND origin = 'api' AND status <> 'deleted' ORDER BY created_at, id`,
        [brandId],
      );
      return rows.map(toEndpoint);
    },

    /** The brand's subscription, deleted or not; null for any other id (another brand's included). */
    async find(brandId: string, id: string): Promise<WebhookEndpoint | null> {
      const { rows } = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND brand_id = $2 AND origin = 'api'`,
        [id, brandId],
      );
      return rows[0] ? toEndpoint(rows[0]) : null;
    },

    /** Soft-deletes it (its deliveries keep referring to it); false when it was already deleted. */
    async delete(brandId: string, id: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE webhook_endpoints SET status = 'deleted', deleted_at = $3, updated_at = $3
          WHERE id = $1 AND brand_id = $2 AND origin = 'api' AND status <> 'deleted'`,
        [id, brandId, at],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
