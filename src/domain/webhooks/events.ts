import { invalidField } from '../../errors.ts';

import { EVENT_TYPES, type EventType } from '../../events/catalogue.ts';

/** Endpoints subscribe to the outbox's event types: the catalogue is the one list. */
export const WEBHOOK_EVENT_TYPES: readonly EventType[] = EVENT_TYPES;

export type WebhookEventType = EventType;

function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * An endpoint's subscription from the CLI (`--events a,b`) or an API array. Nothing given means
 * every event, so an endpoint added without `--events` also receives event types added later.
 * The result is deduplicated and in canonical order, so stored subscriptions compare equal.
 */
export function parseEventTypes(input: string | string[] | undefined, field = 'events'): WebhookEventType[] {
  const raw = (typeof input === 'string' ? input.split(',') : (input ?? []))
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (raw.length === 0) return [...WEBHOOK_EVENT_TYPES];
  const unknown = raw.filter((item) => !isWebhookEventType(item));
  if (unknown.length > 0) {
    throw invalidField(
      field,
      `unknown event type ${unknown.map((u) => `"${u}"`).join(', ')}; expected one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
  }
  return WEBHOOK_EVENT_TYPES.filter((type) => raw.includes(type));
}

export interface EventBodyInput {
  type: WebhookEventType;
  /** The event id, shared by every endpoint's delivery of this event. */
  id: string;
  createdAt: Date;
  /** `{ order, previous_status? }`, `{ invoice }` or `{ credit_note }`, already in the public JSON shape. */
  data: Record<string, unknown>;
}

/**
 * The delivered JSON, built once and stored: retries and replays must send the same bytes the
 * signature covers, so the body is never re-serialised from live data.
 */
export function buildEventBody(input: EventBodyInput): string {
  return JSON.stringify({
    type: input.type,
    id: input.id,
    created_at: input.createdAt.toISOString(),
    data: input.data,
  });
}
