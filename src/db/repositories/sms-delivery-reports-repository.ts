import type { SmsDeliveryReports } from '../../domain/recipients/sms-delivery-reports.ts';
import type { Queryable } from '../pool.ts';

/**
 * Delivery reports applied to recipient_notifications, by the provider's message id. Only a
 * notification still waiting (sent; sending if the report outran the job's own update) moves:
 * reports come at least once and in any order, and the first final one wins. A report for a SID no
 * notification carries yet is held (sms_early_reports) until the job stores that SID.
 */
export function smsDeliveryReportsRepository(db: Queryable): SmsDeliveryReports {
  // One statement: the waiting notification moves; when no notification carries the SID yet (the
  // report outran the job's own update), the report is held for the job to apply; a day-old held
  // report nobody claimed goes.
  const settle = async (providerId: string, status: 'delivered' | 'failed', detail: string | null) => {
    const { rows } = await db.query<{ outcome: 'settled' | 'held' | 'ignored' }>(
      `WITH settled AS (
         UPDATE recipient_notifications SET status = $2, detail = $3, updated_at = now()
          WHERE provider_id = $1 AND channel = 'sms' AND status IN ('sending', 'sent')
          RETURNING 1
       ), known AS (
         SELECT 1 FROM recipient_notifications WHERE provider_id = $1 AND channel = 'sms'
       ), held AS (
         INSERT INTO sms_early_reports (provider_id, status, detail)
         SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM known)
         ON CONFLICT (provider_id) DO NOTHING
         RETURNING 1
       ), dropped AS (
         DELETE FROM sms_early_reports WHERE received_at < now() - interval '1 day'
       )
       SELECT CASE WHEN EXISTS (SELECT 1 FROM settled) THEN 'settled'
                   WHEN EXISTS (SELECT 1 FROM held) THEN 'held' ELSE 'ignored' END AS outcome`,
      [providerId, status, detail],
    );
    return rows[0]!.outcome;
  };
  return {
    delivered: (providerId) => settle(providerId, 'delivered', null),
    failed: (providerId, detail) => settle(providerId, 'failed', detail),
  };
}
