import type { Clock } from '../shared/clock.ts';
import { pacedBatches } from './pacing.ts';
import type { MessageLogStore, PurgeStep } from './ports.ts';
import { retentionCutoff } from './retention-periods.ts';

/** What one run deleted. */
interface MessageLogPurge {
  events: number;
  deliveries: number;
  attempts: number;
  notifications: number;
  inbox: number;
  shopProblems: number;
  webhookRequests: number;
  codes: number;
  smsReports: number;
  /** False when the run stopped at its time budget with rows still due (the next run goes on). */
  finished: boolean;
}

export interface MessageLogRetention {
  /**
   * Deletes, in batches, every per-message log older than the retention: webhook events with their
   * deliveries and attempts, recipient notifications, shops' webhooks and problems, answered
   * webhook requests;
   * and the self-service codes and held SMS reports past their day. Idempotent; a run cut short
   * (or past its time budget) is finished by the next.
   */
  purgeExpired(): Promise<MessageLogPurge>;
}

export interface MessageLogRetentionDeps {
  store: MessageLogStore;
  clock: Clock;
  /** MESSAGE_LOG_RETENTION_DAYS. */
  days: number;
  /** Rows per statement (tests make it small); each batch is one short transaction. */
  batch?: number;
  /** How long one run may go on before it leaves the rest to the next (default 2 minutes). */
  budgetMs?: number;
  /** After each batch, a rest this many times as long as the batch took (pacing.ts; default 1). */
  pauseRatio?: number;
}

/**
 * A code is worth nothing once its day is over (5 codes per order per Paris day, 10 minutes each);
 * two days cover any time zone's day boundary.
 */
const CODE_DAYS = 2;
/** A delivery report no message claimed within a day never will be (decision 0007). */
const SMS_REPORT_DAYS = 1;

/**
 * The per-message logs' retention (issue 36 item 31; docs/operations.md, "Retention"): the tables
 * that grow by rows per parcel and per message lose their old rows by primary key in batches of a
 * few hundred, each its own short statement that skips rows someone else holds, so the job never
 * waits on the hot path's locks nor holds one for long, and autovacuum reclaims the space for the
 * new rows (migration 0041 makes it run after about 2 % of a table changed rather than 20 %).
 */
export function messageLogRetention(deps: MessageLogRetentionDeps): MessageLogRetention {
  const { store } = deps;
  const batch = deps.batch ?? 500;
  const budgetMs = deps.budgetMs ?? 120_000;
  const paced = pacedBatches(deps.pauseRatio);

  return {
    async purgeExpired() {
      const now = deps.clock();
      const cutoff = retentionCutoff(now, deps.days);
      // Wall time, not the service's clock (which tests hold still).
      const deadline = performance.now() + budgetMs;
      const inTime = () => performance.now() < deadline;
      const purge: MessageLogPurge = {
        events: 0,
        deliveries: 0,
        attempts: 0,
        notifications: 0,
        inbox: 0,
        shopProblems: 0,
        webhookRequests: 0,
        codes: 0,
        smsReports: 0,
        finished: true,
      };

      /** Walks a table in key order from its start until a batch reaches rows younger than the cutoff. */
      const walk = async <S extends PurgeStep>(
        step: (after: number) => Promise<S>,
        count: (s: S) => void,
      ) => {
        for (let after = 0; ; ) {
          if (!inTime()) return false;
          const done = await paced(() => step(after));
          count(done);
          if (done.done || done.last === null) return true;
          after = done.last;
        }
      };
      /** Deletes batch after batch while each is full. */
      const drain = async (step: () => Promise<number>, count: (n: number) => void) => {
        for (;;) {
          if (!inTime()) return false;
          const deleted = await paced(step);
          count(deleted);
          if (deleted < batch) return true;
        }
      };

      const finished = [
        await walk(
          (after) => store.purgeEvents(cutoff, after, batch),
          (s) => {
            purge.events += s.deleted;
            purge.deliveries += s.deliveries;
            purge.attempts += s.attempts;
          },
        ),
        await walk(
          (after) => store.purgeInbox(cutoff, after, batch),
          (s) => {
            purge.inbox += s.deleted;
          },
        ),
        await drain(
          () => store.purgeNotifications(cutoff, batch),
          (n) => {
            purge.notifications += n;
          },
        ),
        await drain(
          () => store.purgeShopProblems(cutoff, batch),
          (n) => {
            purge.shopProblems += n;
          },
        ),
        await drain(
          () => store.purgeWebhookRequests(cutoff, batch),
          (n) => {
            purge.webhookRequests += n;
          },
        ),
        await drain(
          () => store.purgeCodes(retentionCutoff(now, CODE_DAYS), batch),
          (n) => {
            purge.codes += n;
          },
        ),
        await drain(
          () => store.purgeSmsReports(retentionCutoff(now, SMS_REPORT_DAYS), batch),
          (n) => {
            purge.smsReports += n;
          },
        ),
      ];
      purge.finished = finished.every(Boolean);
      return purge;
    },
  };
}
