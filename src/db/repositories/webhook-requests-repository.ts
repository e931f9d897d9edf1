import type { WebhookEventType } from '../../domain/webhooks/events.ts';
import type {
  WebhookRequest,
  WebhookRequestStatus,
  WebhookRequestStore,
} from '../../domain/webhooks/ports.ts';
import type { Queryable } from '../pool.ts';

interface RequestRow {
  id: string;
  brand_id: string;
  user_id: string | null;
  user_email: string | null;
  url: string;
  event_types: WebhookEventType[];
  message: string;
  status: WebhookRequestStatus;
  created_at: Date;
}

const toRequest = (r: RequestRow): WebhookRequest => ({
  id: r.id,
  brandId: r.brand_id,
  userId: r.user_id,
  userEmail: r.user_email,
  url: r.url,
  eventTypes: r.event_types,
  message: r.message,
  status: r.status,
  createdAt: r.created_at,
});

const SELECT = `SELECT r.id, r.brand_id, r.user_id, u.email AS user_email, r.url, r.event_types, r.message,
  r.status, r.created_at
  FROM webhook_requests r LEFT JOIN users u ON u.id = r.user_id`;

export function webhookRequestsRepository(db: Queryable): WebhookRequestStore {
  return {
    async insert(input: {
      id: string;
      brandId: string;
      userId: string;
      url: string;
      eventTypes: WebhookEventType[];
      message: string;
      at: Date;
    }): Promise<WebhookRequest> {
      await db.query(
        `INSERT INTO webhook_requests (id, brand_id, user_id, url, event_types, message, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [input.id, input.brandId, input.userId, input.url, input.eventTypes, input.message, input.at],
      );
      const { rows } = await db.query<RequestRow>(`${SELECT} WHERE r.id = $1`, [input.id]);
      return toRequest(rows[0]!);
    },
    async listForBrand(brandId: string, limit: number): Promise<WebhookRequest[]> {
      const { rows } = await db.query<RequestRow>(
        `${SELECT} WHERE r.brand_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
        [brandId, limit],
      );
      return rows.map(toRequest);
    },
    /** Closes an open request; null when there is no open request with that id. */
    async close(id: string, status: 'done' | 'declined'): Promise<WebhookRequest | null> {
      const { rowCount } = await db.query(
        `UPDATE webhook_requests SET status = $2 WHERE id = $1 AND status = 'open'`,
        [id, status],
      );
      if (rowCount !== 1) return null;
      const { rows } = await db.query<RequestRow>(`${SELECT} WHERE r.id = $1`, [id]);
      return toRequest(rows[0]!);
    },
    /** Marks every open request of the brand done (its subscription API was opened); how many. */
    async closeOpenForBrand(brandId: string): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE webhook_requests SET status = 'done' WHERE brand_id = $1 AND status = 'open'`,
        [brandId],
      );
      return rowCount ?? 0;
    },
    async listOpen(): Promise<WebhookRequest[]> {
      const { rows } = await db.query<RequestRow>(
        `${SELECT} WHERE r.status = 'open' ORDER BY r.created_at, r.id`,
      );
      return rows.map(toRequest);
    },
  };
}
