/**
 * How long the service keeps what it keeps for a time (docs/security.md, "Personal data"): the
 * settings' names, for the messages that explain a refusal, and the instant before which a thing
 * kept that many days is due to go.
 */

const DAY_MS = 24 * 3600 * 1000;

/** Webhook events, deliveries and attempts, notifications, shops' webhooks (MESSAGE_LOG_RETENTION_DAYS). */
export const MESSAGE_LOG_SETTING = 'MESSAGE_LOG_RETENTION_DAYS';
/** The recipient's data on an order once it ended (RECIPIENT_DATA_RETENTION_DAYS). */
export const RECIPIENT_DATA_SETTING = 'RECIPIENT_DATA_RETENTION_DAYS';

/** What was written before this instant has been kept `days` days. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}
