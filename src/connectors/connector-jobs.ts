import { defineJob, type Job } from '../jobs/job.ts';
import type { JobSpec } from '../jobs/job-names.ts';

/** A connector's status sync for one outbox event (src/connectors/order-event.ts shopOrderEvent). */
export interface EventSync {
  /** `rerun`: a failed attempt or a killed worker ran it before; what is not idempotent is looked for first. */
  handle(eventId: string, options: { rerun: boolean }): Promise<string>;
  /** The job gave up: the brand sees, as a sync problem, that the shop missed this update. */
  recordFailure(eventId: string, reason: string): Promise<void>;
}

/** A connector's processing of what its receiver (or poll) stored, by inbox row. */
export interface InboxProcessing {
  process(inboxId: number): Promise<string>;
  /** The job gave up (when the processing calls the shop): the brand sees it as a sync problem. */
  recordFailure?(inboxId: number, reason: string): Promise<void>;
}

/**
 * The subscriber's job for one outbox event, the same for every platform whose shop hears an
 * order's moves one call at a time: the shop down, the queue's exponential backoff (25 attempts,
 * about three days); given up, a sync problem. `sync` reads it from the job context, null when the
 * platform is off (`off` says how to turn it on: the job fails and is retried meanwhile).
 */
export function eventSyncJob<C>(
  spec: JobSpec<'event_id'>,
  platform: string,
  sync: (context: C) => EventSync | null,
  off: string,
): Job<'event_id', C> {
  return defineJob({
    ...spec,
    async run(context: C, { event_id }, helpers) {
      const connector = sync(context);
      if (!connector) throw new Error(off);
      try {
        const outcome = await connector.handle(event_id, { rerun: helpers.job.attempts > 1 });
        helpers.logger.debug(`${platform} sync ${event_id}: ${outcome}`);
      } catch (err) {
        if (helpers.job.attempts >= helpers.job.max_attempts)
          await connector.recordFailure(event_id, (err as Error).message);
        throw err;
      }
    },
  });
}

/**
 * One shop order (webhook, push, polled state) stored by the receiver or the poll, which enqueued
 * this in the same statement: an order to create or cancel. An order we cannot take becomes a sync
 * problem, not a failure; only the database (or the shop, when processing calls it) failing makes
 * it retry.
 */
export function inboxJob<C>(
  spec: JobSpec<'inbox_id'>,
  what: string,
  inbox: (context: C) => InboxProcessing | null,
  off: string,
): Job<'inbox_id', C> {
  return defineJob({
    ...spec,
    async run(context: C, { inbox_id }, helpers) {
      const connector = inbox(context);
      if (!connector) throw new Error(off);
      if (!/^\d+$/.test(inbox_id)) throw new Error(`${spec.name}: bad inbox_id ${inbox_id}`);
      try {
        const outcome = await connector.process(Number(inbox_id));
        helpers.logger.debug(`${what} ${inbox_id}: ${outcome}`);
      } catch (err) {
        if (connector.recordFailure && helpers.job.attempts >= helpers.job.max_attempts)
          await connector.recordFailure(Number(inbox_id), (err as Error).message);
        throw err;
      }
    },
  });
}
