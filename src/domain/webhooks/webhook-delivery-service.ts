import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import { reportAttempt } from './delivery-observer.ts';
import { deliveryOutcome } from './delivery-outcome.ts';
import { signingSecrets } from './endpoint.ts';
import { buildEventBody } from './events.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from './outbound.ts';
import type { DeliveryObserver, LockedDelivery } from './ports.ts';
import { signPayload } from './signing.ts';

export interface DeliverOptions {
  /** Per attempt; SPEC §8's 15 s unless a test wants less. */
  timeoutMs?: number;
  /** Retry jitter draw in [0, 1); injectable so tests can pin the schedule. */
  random?: () => number;
  /** Where to send; the real one unless a test stands in for the network. */
  send?: (input: SendWebhookInput) => Promise<DeliveryAttemptResult>;
}

/** What one run did, for logs and tests. */
export type DeliverRun =
  | 'busy'
  | 'unknown'
  | 'already_settled'
  | 'not_due'
  | 'endpoint_disabled'
  | 'succeeded'
  | 'failed'
  | 'exhausted';

/** Well past the 15 s send timeout: a live worker has settled or locked its delivery by then. */
export const ORPHAN_GRACE_MS = 2 * 60 * 1000;

/** The delivery side of webhooks, run by jobs: fan-out of an outbox event, one attempt, recovery. */
export interface WebhookDeliveryService {
  /** One delivery (and its job) per subscribed active endpoint; safe to run twice for one event. */
  fanOut(eventId: string): Promise<string[]>;
  /**
   * One attempt of one delivery, under the delivery's row lock for the whole send, so no two
   * workers ever send it at once and a crashed worker's lock dies with its connection. HTTP
   * failures are outcomes, not errors: they are logged and the next attempt is enqueued at its
   * time per the SPEC §8 schedule (the job queue's own retries only cover database trouble).
   */
  deliver(deliveryId: string, options?: DeliverOptions): Promise<DeliverRun>;
  /**
   * A worker killed mid-send leaves its job locked (graphile-worker frees such jobs only after 4
   * hours) while its delivery row lock died with its connection: such deliveries are enqueued
   * again, so a crash delays a webhook by about a minute instead of hours.
   */
  recoverOrphans(): Promise<string[]>;
}

export function webhookDeliveryService(deps: {
  stores: Pick<Stores, 'webhookDeliveries'>;
  transact: Transact;
  clock: Clock;
  /** The outbound HTTP client (infra), with the SSRF guard applied on every attempt. */
  send: (input: SendWebhookInput) => Promise<DeliveryAttemptResult>;
  /** Told each attempt's outcome (the metrics); none by default. */
  observer?: DeliveryObserver;
}): WebhookDeliveryService {
  const { transact, clock } = deps;

  function attempt(delivery: LockedDelivery, at: Date, options: DeliverOptions) {
    const { event, endpoint } = delivery;
    // Rebuilt from the stored event on each attempt: the same bytes every time, and the event id as
    // webhook-id, so every attempt and replay can be deduplicated by the receiver.
    const body = buildEventBody({
      type: event.type,
      id: event.id,
      createdAt: event.createdAt,
      data: event.data,
    });
    const headers = signPayload({
      msgId: event.id,
      timestamp: at,
      body,
      secrets: signingSecrets(endpoint, at),
    });
    return (options.send ?? deps.send)({
      url: endpoint.url,
      headers,
      body,
      timeoutMs: options.timeoutMs,
    });
  }

  return {
    fanOut: (eventId: string) => deps.stores.webhookDeliveries.fanOut(eventId, clock()),

    deliver(deliveryId: string, options: DeliverOptions = {}): Promise<DeliverRun> {
      return transact(async ({ webhookDeliveries: repo }) => {
        const delivery = await repo.lock(deliveryId);
        if (!delivery) return (await repo.exists(deliveryId)) ? 'busy' : 'unknown';
        if (delivery.status === 'succeeded' || delivery.status === 'exhausted') return 'already_settled';
        const startedAt = clock();
        if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > startedAt.getTime() + 1000) {
          // Ran early (a replaced job, or this host's clock behind the database's): wait its turn.
          await repo.requeue(delivery.id);
          return 'not_due';
        }
        if (delivery.endpoint.status !== 'active') {
          await repo.settle(delivery.id, {
            outcome: { status: 'exhausted', nextAttemptAt: null },
            attemptCount: delivery.attemptCount,
            lastStatus: null,
            lastError: `endpoint ${delivery.endpoint.status}`,
            at: startedAt,
          });
          return 'endpoint_disabled';
        }

        const result = await attempt(delivery, startedAt, options);
        const finishedAt = clock();
        const number = delivery.attemptCount + 1;
        await repo.recordAttempt({ deliveryId: delivery.id, number, startedAt, result });
        const outcome = deliveryOutcome({
          attempt: number,
          result,
          now: finishedAt,
          firstFailureAt: delivery.endpoint.firstFailureAt,
          random: options.random,
        });
        await repo.settle(delivery.id, {
          outcome,
          attemptCount: number,
          lastStatus: result.status,
          lastError: result.error,
          at: finishedAt,
        });
        reportAttempt(deps.observer, {
          result,
          outcome: outcome.status,
          eventCreatedAt: delivery.event.createdAt,
          finishedAt,
        });
        if (result.ok === (delivery.endpoint.firstFailureAt !== null)) {
          await repo.trackEndpointHealth(delivery.endpoint.id, result.ok, startedAt);
        }
        if (outcome.disableReason) {
          // A tool's subscription answered 410 Gone: its workflow is gone, so is the subscription
          // (REST hooks). The operator's endpoints are only disabled: the operator set them up and
          // decides, and `dlv webhooks enable` brings one back.
          const gone = result.status === 410 && delivery.endpoint.origin === 'api';
          await (gone ? repo.deleteEndpoint : repo.disableEndpoint)(
            delivery.endpoint.id,
            outcome.disableReason,
            finishedAt,
          );
        }
        return outcome.status;
      });
    },

    recoverOrphans: () => deps.stores.webhookDeliveries.requeueOrphans(clock(), ORPHAN_GRACE_MS),
  };
}
