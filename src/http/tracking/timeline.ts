import type { OrderEvent } from '../../domain/orders/order.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';

/** A step of the recipient's timeline: the statuses a recipient cares about, the first merged. */
type Milestone =
  | 'created'
  | 'picked_up'
  | 'in_transit'
  | 'out_for_delivery'
  | 'delivered'
  | 'failed_attempt'
  | 'returned'
  | 'cancelled';

export interface Step {
  milestone: Milestone;
  /** When it happened; null for a step still to come. */
  at: Date | null;
  state: 'done' | 'current' | 'upcoming';
}

const HAPPY_PATH: readonly Milestone[] = [
  'created',
  'picked_up',
  'in_transit',
  'out_for_delivery',
  'delivered',
];

const milestoneOf = (status: OrderStatus): Milestone =>
  status === 'awaiting_address' || status === 'pending' ? 'created' : status;

/**
 * The history as the recipient sees it: each change of milestone once, in order (edits of the
 * details, which repeat the status, and a completed address are not news to them), then the steps
 * still to come on the way to delivery. Notes are never shown: they are the operator's words.
 */
export function timeline(events: readonly OrderEvent[]): Step[] {
  const past: Step[] = [];
  for (const event of events) {
    const milestone = milestoneOf(event.status);
    if (past.at(-1)?.milestone === milestone) continue;
    past.push({ milestone, at: event.at, state: 'done' });
  }
  const last = past.at(-1);
  if (!last)
    return HAPPY_PATH.map((milestone, i) => ({ milestone, at: null, state: i ? 'upcoming' : 'current' }));
  last.state = 'current';
  if (['delivered', 'returned', 'cancelled'].includes(last.milestone)) return past;
  // After a failed attempt the parcel goes out again; elsewhere, what is left of the happy path.
  const from = last.milestone === 'failed_attempt' ? 3 : HAPPY_PATH.indexOf(last.milestone) + 1;
  return [
    ...past,
    ...HAPPY_PATH.slice(from).map((milestone) => ({ milestone, at: null, state: 'upcoming' as const })),
  ];
}
