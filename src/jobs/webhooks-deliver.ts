import type { Task } from 'graphile-worker';
import { withTransaction } from '../db/pool.ts';
import {
  type LockedDelivery,
  webhookDeliveriesRepository,
} from '../db/repositories/webhook-deliveries-repository.ts';
import { WEBHOOKS_DELIVER } from '../db/repositories/webhook-jobs-sql.ts';
import type { Deps } from '../deps.ts';
import { deliveryOutcome } from '../domain/webhooks/delivery-outcome.ts';
import { signingSecrets } from '../domain/webhooks/endpoint.ts';
import { buildEventBody } from '../domain/webhooks/events.ts';
import { type DeliveryAttemptResult, sendWebhook } from '../domain/webhooks/send-webhook.ts';
import { signPayload } from '../domain/webhooks/signing.ts';
import { readPayload } from './webhook-payloads.ts';

export { WEBHOOKS_DELIVER };

export interface DeliverOptions {
  /** Per attempt; SPEC §8's 15 s unless a test wants less. */
  timeoutMs?: number;
  /** Retry jitter draw in [0, 1); injectable so tests can pin the schedule. */
  random?: () => number;
  /** Where to send; the real one unless a test stands in for the network. */
  send?: (input: Parameters<typeof sendWebhook>[0]) => Promise<DeliveryAttemptResult>;
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

/**
 * One attempt of one delivery, under the delivery's row lock for the whole send, so no two
 * workers ever send it at once and a crashed worker's lock dies with its connection. HTTP
 * failures are outcomes, not errors: they are logged and the next attempt is enqueued at its
 * time per the SPEC §8 schedule (graphile-worker's own retries only cover database trouble).
 */
export async function deliverWebhook(
  deps: Deps,
  deliveryId: string,
  options: DeliverOptions = {},
): Promise<DeliverRun> {
  const repo = webhookDeliveriesRepository(deps.pool);
  return withTransaction(deps.pool, async (client) => {
    const delivery = await repo.lock(client, deliveryId);
    if (!delivery) {
      const exists = await client.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      return exists.rowCount ? 'busy' : 'unknown';
    }
    if (delivery.status === 'succeeded' || delivery.status === 'exhausted') return 'already_settled';
    const startedAt = deps.clock();
    if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > startedAt.getTime() + 1000) {
      // Ran early (a replaced job, or this host's clock behind the database's): wait its turn.
      await repo.requeue(client, delivery.id);
      return 'not_due';
    }
    if (delivery.endpoint.status === 'disabled') {
      await repo.settle(client, delivery.id, {
        outcome: { status: 'exhausted', nextAttemptAt: null },
        attemptCount: delivery.attemptCount,
        lastStatus: null,
        lastError: 'endpoint disabled',
        at: startedAt,
      });
      return 'endpoint_disabled';
    }

    const result = await send(deps, delivery, startedAt, options);
    const finishedAt = deps.clock();
    const number = delivery.attemptCount + 1;
    await repo.recordAttempt(client, { deliveryId: delivery.id, number, startedAt, result });
    const outcome = deliveryOutcome({
      attempt: number,
      result,
      now: finishedAt,
      firstFailureAt: delivery.endpoint.firstFailureAt,
      random: options.random,
    });
    await repo.settle(client, delivery.id, {
      outcome,
      attemptCount: number,
      lastStatus: result.status,
      lastError: result.error,
      at: finishedAt,
    });
    if (result.ok === (delivery.endpoint.firstFailureAt !== null)) {
      await repo.trackEndpointHealth(client, delivery.endpoint.id, result.ok, startedAt);
    }
    if (outcome.disableReason) {
      await repo.disableEndpoint(client, delivery.endpoint.id, outcome.disableReason, finishedAt);
    }
    return outcome.status;
  });
}

function send(
  deps: Deps,
  delivery: LockedDelivery,
  at: Date,
  options: DeliverOptions,
): Promise<DeliveryAttemptResult> {
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
  return (options.send ?? sendWebhook)({
    url: endpoint.url,
    headers,
    body,
    timeoutMs: options.timeoutMs,
    allowInsecure: deps.config.webhooksAllowInsecure,
  });
}

export function webhooksDeliverTask(deps: Deps, options: DeliverOptions = {}): Task {
  return async (payload, helpers) => {
    const deliveryId = readPayload(payload, 'delivery_id');
    const run = await deliverWebhook(deps, deliveryId, options);
    helpers.logger.debug(`delivery ${deliveryId}: ${run}`);
  };
}
