import type { SmsDeliveryReports } from '../../domain/recipients/sms-delivery-reports.ts';
import type { Queryable } from '../pool.ts';

/**
 * Delivery reports applied to recipient_notifications, by the provider's message id. Only a
 * notification still waiting (sent; sending if the report outran the job's own update) moves:
 * reports come at least once and in any order, and the first final one wins.
 */
export function smsDeliveryReportsRepository(db: Queryable): SmsDeliveryReports {
  const settle = async (providerId: string, status: 'delivered' | 'failed', detail: string | null) => {
    const { rowCount } = await db.query(
      `UPDATE recipient_notifications SET status = $2, detail = $3, updated_at = now()
       WHERE provider_id = $1 AND channel = 'sms' AND status IN ('sending', 'sent')`,
      [providerId, status, detail],
    );
    return (rowCount ?? 0) > 0;
  };
  return {
    delivered: (providerId) => settle(providerId, 'delivered', null),
    failed: (providerId, detail) => settle(providerId, 'failed', detail),
  };
}
