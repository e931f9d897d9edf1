import type { WebhookEventType } from './events.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted';

interface WebhookAttempt {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseExcerpt: string;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  /** When the event happened: past the message logs' retention, it is no longer replayed. */
  eventCreatedAt: Date;
  endpointId: string;
  origin: 'fan_out' | 'replay';
  replayOf: string | null;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: WebhookAttempt[];
}

/** A delivery and its attempts, as the operator's tools show them. */
interface DeliveryJson {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  endpoint_id: string;
  origin: WebhookDelivery['origin'];
  replay_of: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  attempts: {
    attempt: number;
    started_at: string;
    duration_ms: number;
    response_status: number | null;
    response_excerpt: string;
    error: string | null;
  }[];
}

export function deliveryJson(d: WebhookDelivery): DeliveryJson {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    endpoint_id: d.endpointId,
    origin: d.origin,
    replay_of: d.replayOf,
    status: d.status,
    attempt_count: d.attemptCount,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    last_status: d.lastStatus,
    last_error: d.lastError,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      duration_ms: a.durationMs,
      response_status: a.responseStatus,
      response_excerpt: a.responseExcerpt,
      error: a.error,
    })),
  };
}
