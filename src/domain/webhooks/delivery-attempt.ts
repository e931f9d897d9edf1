import { deliveryOutcome } from './delivery-outcome.ts';
import { signingSecrets } from './endpoint.ts';
import { buildEventBody } from './events.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from './outbound.ts';
import type { AttemptRecord, ClaimedDelivery, WebhookDeliveryStore } from './ports.ts';
import { signPayload } from './signing.ts';

/** What happened to a delivery on one run. */
export type AttemptRun = 'succeeded' | 'failed' | 'exhausted' | 'endpoint_disabled';

/** What the endpoint's row must hear of an attempt (rarely anything: only when its health changes). */
interface EndpointChange {
  endpointId: string;
  /** The failure run starts (false) or ends (true). */
  healthy?: boolean;
  /** 410 Gone or 5 days of failures: disabled, or deleted for an API subscription that answered 410. */
  stop?: { reason: string; gone: boolean; at: Date };
  /** When the failure run started (the attempt's start). */
  at: Date;
}

/** One attempt's outcome, to record: the delivery's row and log, and what its endpoint must hear. */
export interface FinishedAttempt {
  run: AttemptRun;
  record: AttemptRecord;
  endpoint: EndpointChange | null;
  /** The HTTP result; null when no request was made. */
  result: DeliveryAttemptResult | null;
}

/** The delivered bytes of a delivery's event: the same for each of its endpoints and attempts. */
export function eventBodyOf(delivery: ClaimedDelivery): string {
  const { event } = delivery;
  return buildEventBody({ type: event.type, id: event.id, createdAt: event.createdAt, data: event.data });
}

/**
 * Sends one attempt: the body rebuilt from the stored event (the same bytes every time, the event
 * id as webhook-id, so every attempt and replay can be deduplicated by the receiver), signed at
 * `at` with the endpoint's current secrets. `body`: the event's, when already built for another of
 * its deliveries.
 */
export function sendAttempt(
  delivery: ClaimedDelivery,
  at: Date,
  send: (input: SendWebhookInput) => Promise<DeliveryAttemptResult>,
  timeoutMs: number | undefined,
  body: string = eventBodyOf(delivery),
): Promise<DeliveryAttemptResult> {
  const { event, endpoint } = delivery;
  const headers = signPayload({
    msgId: event.id,
    timestamp: at,
    body,
    secrets: signingSecrets(endpoint, at),
  });
  return send({ url: endpoint.url, headers, body, timeoutMs });
}

/**
 * The one place an attempt's outcome is decided (whichever path sent it: the dispatcher or a single
 * `deliver`): success, a retry at its time per the SPEC §8 schedule, or exhausted; and whether the
 * endpoint's failure run starts or ends, or the endpoint must stop. `result` null: the endpoint is
 * no longer active, the delivery is settled without a request.
 */
export function finishAttempt(
  delivery: ClaimedDelivery,
  result: DeliveryAttemptResult | null,
  startedAt: Date,
  finishedAt: Date,
  random?: () => number,
): FinishedAttempt {
  const base = { deliveryId: delivery.id, leaseToken: delivery.leaseToken, at: finishedAt };
  if (result === null) {
    return {
      run: 'endpoint_disabled',
      result,
      endpoint: null,
      record: {
        ...base,
        attempt: null,
        outcome: { status: 'exhausted', nextAttemptAt: null },
        attemptCount: delivery.attemptCount,
        lastStatus: null,
        lastError: `endpoint ${delivery.endpoint.status}`,
      },
    };
  }
  const number = delivery.attemptCount + 1;
  const { endpoint } = delivery;
  const outcome = deliveryOutcome({
    attempt: number,
    result,
    now: finishedAt,
    firstFailureAt: endpoint.firstFailureAt,
    random,
  });
  const healthChanged = result.ok === (endpoint.firstFailureAt !== null);
  // A tool's subscription answered 410 Gone: its workflow is gone, so is the subscription (REST
  // hooks). The operator's endpoints are only disabled: `dlv webhooks enable` brings one back.
  const stop = outcome.disableReason
    ? {
        reason: outcome.disableReason,
        gone: result.status === 410 && endpoint.origin === 'api',
        at: finishedAt,
      }
    : undefined;
  return {
    run: outcome.status,
    result,
    endpoint:
      healthChanged || stop
        ? { endpointId: endpoint.id, ...(healthChanged && { healthy: result.ok }), stop, at: startedAt }
        : null,
    record: {
      ...base,
      attempt: { number, startedAt, result },
      outcome,
      attemptCount: number,
      lastStatus: result.status,
      lastError: result.error,
    },
  };
}

/** Writes what the endpoints must hear of a batch of attempts: the last word per endpoint. */
export async function applyEndpointChanges(
  store: Pick<WebhookDeliveryStore, 'trackEndpointHealth' | 'disableEndpoint' | 'deleteEndpoint'>,
  finished: readonly FinishedAttempt[],
): Promise<void> {
  const last = new Map<string, EndpointChange>();
  for (const f of finished) {
    if (!f.endpoint) continue;
    const before = last.get(f.endpoint.endpointId);
    last.set(f.endpoint.endpointId, { ...before, ...f.endpoint, stop: f.endpoint.stop ?? before?.stop });
  }
  for (const change of last.values()) {
    if (change.healthy !== undefined)
      await store.trackEndpointHealth(change.endpointId, change.healthy, change.at);
    if (change.stop) {
      const { reason, gone, at } = change.stop;
      await (gone ? store.deleteEndpoint : store.disableEndpoint)(change.endpointId, reason, at);
    }
  }
}
