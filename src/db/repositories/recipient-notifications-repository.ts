import { prefixedId } from '../../domain/ids.ts';
import type {
  NotificationFacts,
  NotificationStore,
  RecipientNotification,
} from '../../domain/recipients/notification-ports.ts';
import type { Queryable } from '../pool.ts';

interface NotificationRow {
  id: string;
  order_id: string;
  event_id: string | null;
  step: RecipientNotification['step'];
  channel: RecipientNotification['channel'];
  status: RecipientNotification['status'];
  detail: string | null;
  provider_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, order_id, event_id, step, channel, status, detail, provider_id, created_at, updated_at';

const toNotification = (r: NotificationRow): RecipientNotification => ({
  id: r.id,
  orderId: Number(r.order_id),
  eventId: r.event_id,
  step: r.step,
  channel: r.channel,
  status: r.status,
  detail: r.detail,
  providerId: r.provider_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The notifications decided for orders' events (recipient_notifications): one per event and channel. */
export function recipientNotificationsRepository(db: Queryable): NotificationStore {
  return {
    async claim(row) {
      const inserted = await db.query<NotificationRow>(
        `INSERT INTO recipient_notifications (id, order_id, event_id, step, channel, status, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (event_id, channel) WHERE event_id IS NOT NULL DO NOTHING
         RETURNING ${COLUMNS}`,
        [prefixedId('ntf'), row.orderId, row.eventId, row.step, row.channel, row.status, row.detail],
      );
      if (inserted.rows[0]) return { notification: toNotification(inserted.rows[0]), created: true };
      const { rows } = await db.query<NotificationRow>(
        `SELECT ${COLUMNS} FROM recipient_notifications WHERE event_id = $1 AND channel = $2`,
        [row.eventId, row.channel],
      );
      return { notification: toNotification(rows[0]!), created: false };
    },
    async settle(id, outcome) {
      // Only a notification being sent moves: a delivery report may have settled it already. A
      // report that outran this update (held under the provider's id) is its outcome now.
      await db.query(
        `WITH early AS (
           DELETE FROM sms_early_reports WHERE provider_id = $4 AND $2 = 'sent' RETURNING status, detail
         )
         UPDATE recipient_notifications
            SET status = coalesce((SELECT status FROM early), $2),
                detail = CASE WHEN EXISTS (SELECT 1 FROM early) THEN (SELECT detail FROM early) ELSE $3 END,
                provider_id = coalesce($4, provider_id), updated_at = now()
          WHERE id = $1 AND status = 'sending'`,
        [id, outcome.status, outcome.detail ?? null, outcome.providerId ?? null],
      );
    },
    async retrying(id, detail) {
      await db.query(
        `UPDATE recipient_notifications SET detail = $2, updated_at = now() WHERE id = $1 AND status = 'sending'`,
        [id, detail],
      );
    },
    async find(id) {
      const { rows } = await db.query<NotificationRow & { tracking_ref: string }>(
        `SELECT ${COLUMNS.split(', ')
          .map((c) => `n.${c}`)
          .join(', ')}, o.tracking_ref
           FROM recipient_notifications n JOIN orders o ON o.id = n.order_id WHERE n.id = $1`,
        [id],
      );
      const r = rows[0];
      return r ? { ...toNotification(r), trackingRef: r.tracking_ref } : null;
    },
    async reopen(id, detail) {
      const { rowCount } = await db.query(
        `UPDATE recipient_notifications SET status = 'sending', detail = $2, updated_at = now()
          WHERE id = $1 AND status = 'failed'`,
        [id, detail],
      );
      return rowCount === 1;
    },
    async ofOrder(orderId) {
      const { rows } = await db.query<NotificationRow>(
        `SELECT ${COLUMNS} FROM recipient_notifications WHERE order_id = $1 ORDER BY created_at, id`,
        [orderId],
      );
      return rows.map(toNotification);
    },
  };
}

/** What the notifications decide from: the event, the order, its shop link, its place on the round. */
export function notificationFactsRepository(db: Queryable): NotificationFacts {
  return {
    async event(id) {
      const { rows } = await db.query<{ id: string; type: string; brandId: string; data: unknown; at: Date }>(
        'SELECT id, type, brand_id AS "brandId", data, created_at AS at FROM outbox_events WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },
    async order(trackingRef) {
      const { rows } = await db.query<{
        id: string;
        brand_id: string;
        tracking_ref: string;
        tracking_token: string;
        status: string;
        promised_date: string | null;
        delivery_email: string | null;
        customer_email: string | null;
        delivery_phone: string | null;
        livemode: boolean;
      }>(
        `SELECT id::text, brand_id, tracking_ref, tracking_token, status, livemode,
                to_char(promised_date, 'YYYY-MM-DD') AS promised_date, delivery_email, customer_email, delivery_phone
           FROM orders WHERE tracking_ref = $1`,
        [trackingRef],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        id: Number(r.id),
        brandId: r.brand_id,
        trackingRef: r.tracking_ref,
        trackingToken: r.tracking_token,
        status: r.status,
        promisedDate: r.promised_date,
        deliveryEmail: r.delivery_email,
        customerEmail: r.customer_email,
        deliveryPhone: r.delivery_phone,
        livemode: r.livemode,
      };
    },
    async shopLink(trackingRef) {
      const { rows } = await db.query<{ platform: string; notify_customer: boolean; status: string }>(
        `SELECT c.platform, c.notify_customer, c.status
           FROM connector_orders o JOIN connector_connections c ON c.id = o.connection_id
          WHERE o.tracking_ref = $1`,
        [trackingRef],
      );
      const r = rows[0];
      return r
        ? { platform: r.platform, notifyCustomer: r.notify_customer, active: r.status === 'active' }
        : null;
    },
    async brandName(brandId) {
      const { rows } = await db.query<{ name: string }>('SELECT name FROM brands WHERE id = $1', [brandId]);
      return rows[0]?.name ?? '';
    },
  };
}
