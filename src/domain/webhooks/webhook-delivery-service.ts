import type { Clock } from '../shared/clock.ts';
import type { Stores } from '../shared/stores.ts';
import { type AttemptRun, applyEndpointChanges, finishAttempt, sendAttempt } from './delivery-attempt.ts';
import { reportFinished } from './delivery-observer.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from './outbound.ts';
import type { DeliveryObserver } from './ports.ts';
import {
  type DispatcherOptions,
  leaseFor,
  type WebhookDispatcher,
  webhookDispatcher,
} from './webhook-dispatcher.ts';

export interface DeliverOptions {
  /** Per attempt; SPEC §8's 15 s unless a test wants less. */
  timeoutMs?: number;
  /** Retry jitter draw in [0, 1); injectable so tests can pin the schedule. */
  random?: () => number;
  /** Where to send; the real one unless a test stands in for the network. */
  send?: (input: SendWebhookInput) => Promise<DeliveryAttemptResult>;
}

/** What one run did, for logs and tests. */
export type DeliverRun = 'busy' | 'unknown' | 'already_settled' | 'not_due' | AttemptRun;

/** Events whose fan-out job is still waiting, fanned out with one that runs (one statement for all). */
const FAN_OUT_TAKES_WAITING = 500;
const DEFAULT_TIMEOUT_MS = 15_000;

/** The delivery side of webhooks, run by jobs and the dispatcher: fan-out, attempts, recovery. */
export interface WebhookDeliveryService {
  /**
   * One delivery per subscribed active endpoint; safe to run twice for one event. Fan-outs asked
   * for in the same turn share one statement, which also takes the fan-out jobs still waiting in the
   * queue (their events fanned out at once); the dispatchers of this process are woken.
   */
  fanOut(eventId: string): Promise<string[]>;
  /**
   * One attempt of one delivery now, whatever the dispatchers do (tests, the jobs enqueued before
   * the dispatcher existed): claimed under a lease, sent with no transaction open, recorded.
   * HTTP failures are outcomes, not errors: the next attempt is due at its time per SPEC §8.
   */
  deliver(deliveryId: string, options?: DeliverOptions): Promise<DeliverRun>;
  /** The loop that sends due deliveries from this process (src/worker.ts starts it). */
  dispatcher(options: DispatcherOptions): WebhookDispatcher;
  /** Leases past their time forgotten (their worker died; claims skip them anyway): how many. */
  expireLeases(): Promise<number>;
}

export function webhookDeliveryService(deps: {
  stores: Pick<Stores, 'webhookDeliveries'>;
  clock: Clock;
  /** The outbound HTTP client (infra), with the SSRF guard applied on every attempt. */
  send: (input: SendWebhookInput) => Promise<DeliveryAttemptResult>;
  /** Told each attempt's outcome (the metrics); none by default. */
  observer?: DeliveryObserver;
}): WebhookDeliveryService {
  const { clock } = deps;
  const store = deps.stores.webhookDeliveries;
  const dispatchers = new Set<WebhookDispatcher>();

  let asked: { eventId: string; resolve: (ids: string[]) => void; reject: (err: unknown) => void }[] = [];
  /**
   * One fan-out statement at a time in this process; the jobs that ask meanwhile go together in the
   * next. A backlog's jobs start on every worker of the runner at once: their statements, each
   * taking hundreds of waiting jobs, ran side by side and slowed one another and the first claim
   * (a fresh worker's first delivery waited ~150 ms on them).
   */
  let fanningOut = false;
  let scheduled = false;
  function schedule(): void {
    if (fanningOut || scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      fanningOut = true;
      void fanOutAsked().finally(() => {
        fanningOut = false;
        if (asked.length > 0) schedule();
      });
    });
  }
  async function fanOutAsked(): Promise<void> {
    const batch = asked;
    asked = [];
    try {
      const created = await store.fanOut(
        batch.map((a) => a.eventId),
        clock(),
        { takeWaiting: FAN_OUT_TAKES_WAITING },
      );
      if (created.length > 0) for (const d of dispatchers) d.wake();
      for (const a of batch) a.resolve(created.filter((c) => c.eventId === a.eventId).map((c) => c.id));
    } catch (err) {
      for (const a of batch) a.reject(err);
    }
  }

  return {
    fanOut(eventId: string): Promise<string[]> {
      return new Promise((resolve, reject) => {
        asked.push({ eventId, resolve, reject });
        schedule();
      });
    },

    async deliver(deliveryId: string, options: DeliverOptions = {}): Promise<DeliverRun> {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const delivery = await store.claimOne(deliveryId, leaseFor(timeoutMs));
      if (delivery === null) return 'unknown';
      if (delivery === 'busy') return 'busy';
      if (delivery.status === 'succeeded' || delivery.status === 'exhausted') {
        await store.release(delivery.id, delivery.leaseToken);
        return 'already_settled';
      }
      const startedAt = clock();
      if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > startedAt.getTime() + 1000) {
        // Ran early (this host's clock behind the database's): it waits its turn.
        await store.release(delivery.id, delivery.leaseToken);
        return 'not_due';
      }
      const result =
        delivery.endpoint.status === 'active'
          ? await sendAttempt(delivery, startedAt, options.send ?? deps.send, timeoutMs)
          : null;
      const finished = finishAttempt(delivery, result, startedAt, clock(), options.random);
      reportFinished(deps.observer, delivery.event.createdAt, finished);
      await store.settle([finished.record]);
      await applyEndpointChanges(store, [finished]);
      return finished.run;
    },

    dispatcher(options: DispatcherOptions): WebhookDispatcher {
      const dispatcher = webhookDispatcher({
        store,
        clock,
        send: deps.send,
        options,
        observer: deps.observer,
      });
      return {
        ...dispatcher,
        start() {
          dispatchers.add(dispatcher);
          dispatcher.start();
        },
        async stop(graceMs?: number) {
          dispatchers.delete(dispatcher);
          await dispatcher.stop(graceMs);
        },
      };
    },

    expireLeases: () => store.expireLeases(),
  };
}
