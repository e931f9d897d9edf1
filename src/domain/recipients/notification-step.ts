import type { NotificationStep } from './ports.ts';

interface OrderEventData {
  order?: { status?: unknown; promised_date?: unknown; tracking_ref?: unknown };
  previous_status?: unknown;
}

interface EtaChangedData {
  arrival?: { window_start?: unknown; window_end?: unknown };
}

const STREET_STEPS: ReadonlySet<string> = new Set(['out_for_delivery', 'delivered', 'failed_attempt']);

/**
 * The step an outbox event tells a recipient about, or null when it tells nothing (decision 0007):
 * `confirmed` when the order is priced with its promised day (born `pending`, or its address
 * completed: `awaiting_address` → `pending`), then the street's moves, and `eta_changed` when the
 * window announced to a parcel out for delivery moved by 30 minutes or more.
 */
export function stepOf(type: string, data: unknown): NotificationStep | null {
  const { order, previous_status } = (data ?? {}) as OrderEventData;
  if (!order || typeof order.tracking_ref !== 'string') return null;
  if (type === 'order.eta_changed') return order.status === 'out_for_delivery' ? 'eta_changed' : null;
  if (type === 'order.created')
    return order.status === 'pending' && typeof order.promised_date === 'string' ? 'confirmed' : null;
  if (type !== 'order.status_changed') return null;
  if (order.status === 'pending') return previous_status === 'awaiting_address' ? 'confirmed' : null;
  return typeof order.status === 'string' && STREET_STEPS.has(order.status)
    ? (order.status as NotificationStep)
    : null;
}

/** The event types that can carry a step: the subscriber listens to these only. */
export const NOTIFYING_EVENT_TYPES: ReadonlySet<string> = new Set([
  'order.created',
  'order.status_changed',
  'order.eta_changed',
]);

/** The new window an `order.eta_changed` event announced (what the message says), null when absent. */
export function announcedWindow(data: unknown): { from: Date; to: Date } | null {
  const { arrival } = (data ?? {}) as EtaChangedData;
  const from = typeof arrival?.window_start === 'string' ? new Date(arrival.window_start) : null;
  const to = typeof arrival?.window_end === 'string' ? new Date(arrival.window_end) : null;
  return from && to && !Number.isNaN(from.getTime()) && !Number.isNaN(to.getTime()) ? { from, to } : null;
}
