import type { RecipientNotifications } from '../domain/recipients/notification-service.ts';
import { defineJob } from './job.ts';
import { NOTIFY_RECIPIENT_SPEC } from './job-names.ts';

/** What the notification job uses. */
interface NotifyContext {
  recipientNotifications: Pick<RecipientNotifications, 'notify'>;
}

/**
 * The recipients subscriber's job for one outbox event: tells the order's recipient of the step,
 * per channel. A transient failure throws (the queue retries with its backoff); on the last
 * attempt it is recorded as failed instead, so no notification stays "sending" for good.
 */
export const NOTIFY_RECIPIENT = defineJob({
  ...NOTIFY_RECIPIENT_SPEC,
  async run(deps: NotifyContext, { event_id }, helpers) {
    const attempt = helpers.job as Partial<typeof helpers.job> | undefined;
    const lastAttempt =
      attempt?.attempts !== undefined && attempt.attempts >= (attempt.max_attempts ?? Infinity);
    const outcome = await deps.recipientNotifications.notify(event_id, { lastAttempt });
    helpers.logger.debug(`event ${event_id}: ${outcome}`);
  },
});
