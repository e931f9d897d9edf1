import type { EInvoiceStatus } from '../domain/einvoicing/einvoice-status.ts';
import type { InvoiceJson } from '../domain/invoices/invoice-json.ts';
import type { OrderJson } from '../domain/orders/order-json.ts';
import type { OrderStatus } from '../domain/orders/state-machine.ts';

/**
 * Every domain event that subscribers (webhooks, and next the shop connectors and automation) can
 * react to: its name, the version of its payload, and what it means. The one list: the outbox, the
 * webhook subscriptions, the OpenAPI webhooks and the CLI all take their types from here.
 */
export const EVENT_CATALOGUE = {
  'order.created': { version: 1, description: 'A delivery order was created.' },
  'order.status_changed': {
    version: 1,
    description: 'A delivery order moved to another status (picked up, delivered, cancelled…).',
  },
  'order.delivered': {
    version: 1,
    description: 'A delivery order was delivered (also sent as order.status_changed).',
  },
  'order.delivery_failed': {
    version: 1,
    description:
      'A delivery attempt failed: the order is failed_attempt, to be attempted again or returned (also sent as order.status_changed).',
  },
  'order.labelled': {
    version: 1,
    description: "A delivery order's label was printed for the first time (reprints send nothing).",
  },
  'order.rescheduled': {
    version: 1,
    description:
      "A delivery order's promised day was moved (by its recipient, on the tracking page); the price does not change.",
  },
  'order.address_flagged': {
    version: 1,
    description:
      "A delivery order's address was flagged (address_warnings: the geocoder could not place it surely, or places it in another postcode); correct it with PATCH /orders/{trackingRef}.",
  },
  'order.eta_changed': {
    version: 1,
    description:
      "A delivery order's arrival window moved by 30 minutes or more (the courier's round is ahead or behind): the new window and the one told before.",
  },
  'invoice.issued': { version: 1, description: "A month's invoice was issued." },
  'credit_note.issued': {
    version: 1,
    description: 'A credit note was issued for an order cancelled after its invoice was issued.',
  },
  'invoice.status_changed': {
    version: 1,
    description:
      "An issued invoice's or credit note's e-invoice moved on the e-invoicing platform (deposited, received, accepted, refused with the reason, rejected, paid).",
  },
  'pickup.completed': {
    version: 1,
    description:
      'A pickup was closed: the parcels the courier scanned (now picked_up) and those missing (still pending, moved to the next business day).',
  },
} as const satisfies Record<string, { version: number; description: string }>;

export type EventType = keyof typeof EVENT_CATALOGUE;

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** Each event's `data`, in the public JSON shapes the API serves. */
export interface EventPayloads {
  'order.created': { order: OrderJson };
  'order.status_changed': { order: OrderJson; previous_status: OrderStatus };
  'order.delivered': { order: OrderJson };
  'order.delivery_failed': { order: OrderJson };
  /** `labelled_at`: when the label was first printed (RFC 3339). */
  'order.labelled': { order: OrderJson; labelled_at: string };
  /** `previous_promised_date`: the day it was promised before; `changed_by`: who moved it. */
  'order.rescheduled': { order: OrderJson; previous_promised_date: string | null; changed_by: 'recipient' };
  /** The order with its `address_warnings` (at least one flag: `address_uncertain`, `postcode_mismatch`). */
  'order.address_flagged': { order: OrderJson };
  /**
   * `arrival`: the new estimate and two-hour window, and how many stops come before the order's;
   * `previous_window`: the window told before (RFC 3339 instants).
   */
  'order.eta_changed': {
    order: OrderJson;
    arrival: { eta: string; window_start: string; window_end: string; stops_before: number };
    previous_window: { start: string; end: string };
  };
  'invoice.issued': { invoice: InvoiceJson };
  'credit_note.issued': { credit_note: InvoiceJson };
  /** `invoice`: the invoice or credit note (its `type` says which) with its new `einvoice_status`. */
  'invoice.status_changed': { invoice: InvoiceJson; previous_einvoice_status: EInvoiceStatus };
  'pickup.completed': { pickup: PickupCompletedJson };
}

/** `pickup.completed`'s pickup: which parcels left with the courier and which stayed behind. */
interface PickupCompletedJson {
  id: string;
  date: string;
  pickup_address: string;
  status: 'collected' | 'partially_collected' | 'missed';
  collected: string[];
  missing: string[];
}

/**
 * Convenience events, sent beside `order.status_changed` when an order reaches these statuses, so
 * a workflow (Zapier, n8n…) triggered by a delivery needs no filter on the status.
 */
export const STATUS_EVENTS: Partial<Record<OrderStatus, 'order.delivered' | 'order.delivery_failed'>> = {
  delivered: 'order.delivered',
  failed_attempt: 'order.delivery_failed',
};
