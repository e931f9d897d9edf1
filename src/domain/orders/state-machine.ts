import { AppError } from '../../errors.ts';

export const ORDER_STATUSES = [
  'awaiting_address',
  'pending',
  'picked_up',
  'in_transit',
  'out_for_delivery',
  'failed_attempt',
  'delivered',
  'returned',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** SPEC §5: the only moves an order can make. */
const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  awaiting_address: ['pending', 'cancelled'],
  pending: ['picked_up', 'cancelled'],
  picked_up: ['in_transit'],
  in_transit: ['out_for_delivery'],
  out_for_delivery: ['delivered', 'failed_attempt'],
  failed_attempt: ['out_for_delivery', 'returned'],
  delivered: [],
  returned: [],
  cancelled: [],
};

export const TERMINAL_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (s) => TRANSITIONS[s].length === 0,
);

/**
 * Who asks: brands cancel; the operator moves parcels; `address` is the completion of a missing
 * delivery address (PATCH), the only way out of `awaiting_address` besides cancelling; `courier`
 * is a scan (domain/scans), which makes the street moves only.
 */
export type Actor = 'brand' | 'operator' | 'address' | 'courier';

/** The moves a courier's scan makes (SPEC §10); `returned` only after the third failed attempt. */
const STREET_MOVES: readonly OrderStatus[] = [
  'picked_up',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'failed_attempt',
  'returned',
];

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

function allowedTransitions(from: OrderStatus): readonly OrderStatus[] {
  return TRANSITIONS[from];
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/**
 * Throws 422 `invalid_transition` unless `actor` may move an order from `from` to `to`.
 * `awaiting_address → pending` happens only by completing the address (PATCH), never by decree.
 */
export function assertTransition(from: OrderStatus, to: OrderStatus, actor: Actor): void {
  const completesAddress = from === 'awaiting_address' && to === 'pending';
  const allowed =
    canTransition(from, to) &&
    (actor === 'address'
      ? completesAddress
      : !completesAddress &&
        (actor === 'operator' || (actor === 'courier' ? STREET_MOVES.includes(to) : to === 'cancelled')));
  if (allowed) return;
  const next = allowedTransitions(from).filter((s) => !(from === 'awaiting_address' && s === 'pending'));
  const hint = TERMINAL_STATUSES.includes(from)
    ? `"${from}" is final`
    : `from "${from}" the order can go to ${next.map((s) => `"${s}"`).join(' or ')}`;
  throw new AppError('invalid_transition', `An order cannot go from "${from}" to "${to}": ${hint}.`);
}

/** Statuses in which the brand may still edit delivery details or cancel. */
export const EDITABLE_STATUSES: readonly OrderStatus[] = ['awaiting_address', 'pending'];
