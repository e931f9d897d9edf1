import { EINVOICE_STATUSES } from '../../../domain/einvoicing/einvoice-status.ts';
import { ORDER_STATUSES } from '../../../domain/orders/state-machine.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../domain/webhooks/events.ts';
import { MAX_ATTEMPTS } from '../../../domain/webhooks/retry-schedule.ts';
import { CREDIT_NOTE_NUMBER_PATTERN, INVOICE_NUMBER_PATTERN, PERIOD_PATTERN } from './invoices.ts';
import { FailedAttemptSchema, ProofOfDeliverySchema } from './proofs.ts';
import { DATE_MAX_LENGTH, INT32_MAX, TIMESTAMP_MAX_LENGTH } from './shared.ts';

/** Event ids: `msg_` + 24 hex, the same in the body and in the `webhook-id` header. */
const EVENT_ID = { type: 'string', pattern: '^msg_[0-9a-f]{24}$', maxLength: 28 };
const TIMESTAMP = { type: 'string', format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH };

// The top-level `webhooks` of the public OpenAPI 3.1 document: what our servers POST to a brand's
// endpoint (SPEC §8). Plain JSON Schema, as no route validates these; the order is the public
// OrderSummary (the order without its event history), exactly what the API returns in lists.

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The event id: the same on every attempt and replay of this event, so receivers can drop duplicates.',
    schema: { ...EVENT_ID, examples: ['msg_6f1c0a9e2b7d4c3a8e5f1b20'] },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt. Reject messages more than 5 minutes away from your clock.',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$', maxLength: 12, examples: ['1764320400'] },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per valid secret (two for 24 h after a rotation). Verify with any Standard Webhooks library.',
    schema: {
      type: 'string',
      pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)?$',
      maxLength: 95,
      examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
    },
  },
];

/** The e-invoice's status on the platform (extension; docs/einvoicing.md). */
const EINVOICE_STATUS_PROPERTIES = {
  einvoice_status: {
    type: ['string', 'null'],
    enum: [...EINVOICE_STATUSES, null],
    description:
      'Where the Factur-X stands on the e-invoicing platform; null for a document issued before e-invoicing.',
  },
  einvoice_status_reason: {
    type: ['string', 'null'],
    maxLength: 2000,
    description: "Why it was refused or rejected (the platform's words), or what the last step was.",
  },
  einvoice_status_at: { ...TIMESTAMP, type: ['string', 'null'] },
};

const InvoicePayload = {
  type: 'object',
  title: 'Invoice',
  required: [
    'id',
    'number',
    'period',
    'status',
    'currency',
    'order_count',
    'total_excl_tax_eur',
    'vat_eur',
    'total_eur',
    'issued_at',
    'due_date',
    'paid_at',
    'type',
    'credits_invoice',
    'einvoice_status',
    'einvoice_status_reason',
    'einvoice_status_at',
  ],
  properties: {
    id: { type: 'string', pattern: '^inv_[0-9a-f]{16}$', maxLength: 20, examples: ['inv_3f9a0c1d2e3f4a5b'] },
    number: { type: 'string', pattern: INVOICE_NUMBER_PATTERN, maxLength: 12, examples: ['F2026-000042'] },
    period: {
      type: 'string',
      pattern: PERIOD_PATTERN,
      maxLength: 7,
      description: 'Billed month (Europe/Paris), YYYY-MM.',
      examples: ['2026-11'],
    },
    status: { type: 'string', enum: ['issued', 'paid'] },
    currency: { type: 'string', const: 'EUR' },
    order_count: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
    total_excl_tax_eur: { type: 'number' },
    vat_eur: { type: 'number' },
    total_eur: { type: 'number' },
    issued_at: TIMESTAMP,
    due_date: { type: 'string', format: 'date', maxLength: DATE_MAX_LENGTH },
    paid_at: { ...TIMESTAMP, type: ['string', 'null'] },
    type: { type: 'string', const: 'invoice' },
    credits_invoice: { type: 'null' },
    ...EINVOICE_STATUS_PROPERTIES,
  },
};

const INVOICE_ID = { type: 'string', pattern: '^inv_[0-9a-f]{16}$', maxLength: 20 };

/** The same object as an invoice, with the credit note's number, negative amounts and its invoice. */
const CreditNotePayload = {
  ...InvoicePayload,
  title: 'Credit note',
  properties: {
    ...InvoicePayload.properties,
    number: {
      type: 'string',
      pattern: CREDIT_NOTE_NUMBER_PATTERN,
      maxLength: 12,
      examples: ['A2026-000007'],
    },
    period: { ...InvoicePayload.properties.period, description: 'The month of the invoice it corrects.' },
    status: { type: 'string', const: 'issued' },
    order_count: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX },
    total_excl_tax_eur: { type: 'number', maximum: 0 },
    vat_eur: { type: 'number', maximum: 0 },
    total_eur: { type: 'number', maximum: 0 },
    due_date: { type: 'null' },
    paid_at: { type: 'null' },
    type: { type: 'string', const: 'credit_note' },
    credits_invoice: {
      type: 'object',
      required: ['id', 'number'],
      properties: {
        id: { ...INVOICE_ID, examples: ['inv_3f9a0c1d2e3f4a5b'] },
        number: {
          type: 'string',
          pattern: INVOICE_NUMBER_PATTERN,
          maxLength: 12,
          examples: ['F2026-000042'],
        },
      },
      description: 'The invoice this credit note corrects; that invoice is unchanged.',
    },
  },
};

const TRACKING_REFS = {
  type: 'array',
  maxItems: 1000,
  items: {
    type: 'string',
    pattern: '^DLV-[0-9A-HJKMNP-TV-Z]{10}$',
    maxLength: 14,
    examples: ['DLV-7K3M9Q2XHP'],
  },
};

const PickupCompletedPayload = {
  type: 'object',
  title: 'Completed pickup',
  required: ['id', 'date', 'pickup_address', 'status', 'collected', 'missing'],
  properties: {
    id: { type: 'string', pattern: '^pck_[0-9a-f]{16}$', maxLength: 20, examples: ['pck_5b1e0c9d3a7f2e64'] },
    date: {
      type: 'string',
      format: 'date',
      maxLength: DATE_MAX_LENGTH,
      description: 'The business day (Paris).',
    },
    pickup_address: { type: 'string', maxLength: 500 },
    status: { type: 'string', enum: ['collected', 'partially_collected', 'missed'] },
    collected: { ...TRACKING_REFS, description: 'Parcels the courier scanned: now `picked_up`.' },
    missing: {
      ...TRACKING_REFS,
      description:
        "Parcels not scanned: still `pending`, in the next business day's pickup. Each is reported missing once.",
    },
  },
};

const ORDER_ONLY = {
  type: 'object',
  required: ['order'],
  properties: { order: { $ref: '#/components/schemas/OrderSummary' } },
};

/**
 * `order.delivered` and `order.delivery_failed`: the order and, when a door scan moved it, its proof
 * members as `GET /orders/{tracking_ref}` gives them, with links valid 7 days (decision 0006).
 */
const DOOR_EVENT = {
  type: 'object',
  required: ['order'],
  properties: {
    order: {
      allOf: [
        { $ref: '#/components/schemas/OrderSummary' },
        {
          type: 'object',
          properties: { proof_of_delivery: ProofOfDeliverySchema, failed_attempt: FailedAttemptSchema },
        },
      ],
      description:
        'The order. When a door scan moved it (the courier app, `POST /ops/v1/scans`, `POST /ops/v1/orders/{ref}/proof`), ' +
        'also `proof_of_delivery` and `failed_attempt`, as in `GET /orders/{tracking_ref}` but with file links signed ' +
        'for 7 days from the event (the same links on every retry and replay); absent when the operator set the ' +
        'status without a scan.',
    },
  },
};

const DATA: Record<WebhookEventType, object> = {
  'order.created': ORDER_ONLY,
  'order.status_changed': {
    type: 'object',
    required: ['order', 'previous_status'],
    properties: {
      order: { $ref: '#/components/schemas/OrderSummary' },
      previous_status: {
        type: 'string',
        enum: [...ORDER_STATUSES],
        description: 'The status the order left.',
        examples: ['in_transit'],
      },
    },
  },
  'order.delivered': DOOR_EVENT,
  'order.delivery_failed': DOOR_EVENT,
  'order.labelled': {
    type: 'object',
    required: ['order', 'labelled_at'],
    properties: {
      order: { $ref: '#/components/schemas/OrderSummary' },
      labelled_at: { ...TIMESTAMP, description: 'When the label was first printed.' },
    },
  },
  'order.rescheduled': {
    type: 'object',
    required: ['order', 'previous_promised_date', 'changed_by'],
    properties: {
      order: { $ref: '#/components/schemas/OrderSummary' },
      previous_promised_date: {
        type: ['string', 'null'],
        format: 'date',
        maxLength: 10,
        description: 'The day the order was promised before the change (YYYY-MM-DD, Paris).',
        examples: ['2026-11-24'],
      },
      changed_by: {
        type: 'string',
        enum: ['recipient'],
        description: 'Who moved the day: the recipient, on the tracking page (free for the brand).',
      },
    },
  },
  'order.address_flagged': ORDER_ONLY,
  'order.eta_changed': {
    type: 'object',
    required: ['order', 'arrival', 'previous_window'],
    properties: {
      order: { $ref: '#/components/schemas/OrderSummary' },
      arrival: {
        type: 'object',
        required: ['eta', 'window_start', 'window_end', 'stops_before'],
        description:
          "The new estimate (docs/arrival-times.md): the arrival, the recipient's two-hour window, and how many stops of the courier's round come before this order's. Never a position.",
        properties: {
          eta: { type: 'string', format: 'date-time', maxLength: 40, examples: ['2026-11-24T11:05:00.000Z'] },
          window_start: {
            type: 'string',
            format: 'date-time',
            maxLength: 40,
            examples: ['2026-11-24T10:30:00.000Z'],
          },
          window_end: {
            type: 'string',
            format: 'date-time',
            maxLength: 40,
            examples: ['2026-11-24T12:30:00.000Z'],
          },
          stops_before: { type: 'integer', format: 'int32', minimum: 0, maximum: 1000, examples: [7] },
        },
      },
      previous_window: {
        type: 'object',
        required: ['start', 'end'],
        description: 'The window told before this change.',
        properties: {
          start: { type: 'string', format: 'date-time', maxLength: 40 },
          end: { type: 'string', format: 'date-time', maxLength: 40 },
        },
      },
    },
  },
  'invoice.issued': {
    type: 'object',
    required: ['invoice'],
    properties: { invoice: InvoicePayload },
  },
  'credit_note.issued': {
    type: 'object',
    required: ['credit_note'],
    properties: { credit_note: CreditNotePayload },
  },
  'invoice.status_changed': {
    type: 'object',
    required: ['invoice', 'previous_einvoice_status'],
    properties: {
      invoice: {
        oneOf: [InvoicePayload, CreditNotePayload],
        description: 'The invoice, or the credit note (`type` says which), with its new `einvoice_status`.',
      },
      previous_einvoice_status: {
        type: 'string',
        enum: [...EINVOICE_STATUSES],
        description: 'The status the e-invoice left.',
        examples: ['deposited'],
      },
    },
  },
  'pickup.completed': {
    type: 'object',
    required: ['pickup'],
    properties: { pickup: PickupCompletedPayload },
  },
};

const SUMMARY: Record<WebhookEventType, string> = {
  'order.created': 'An order was created',
  'order.status_changed': 'An order changed status',
  'order.delivered': 'An order was delivered',
  'order.delivery_failed': 'A delivery attempt failed',
  'order.labelled': "An order's label was printed for the first time",
  'order.rescheduled': "An order's promised day was moved by its recipient",
  'order.address_flagged': "An order's address was flagged (see its address_warnings)",
  'order.eta_changed': "An order's arrival window moved by 30 minutes or more",
  'invoice.issued': 'A monthly invoice was issued',
  'credit_note.issued': 'A credit note was issued for an order cancelled after its invoice',
  'invoice.status_changed': "An e-invoice's status changed on the e-invoicing platform",
  'pickup.completed': 'A pickup was closed, with the parcels collected and those missing',
};

function eventOperation(type: WebhookEventType) {
  return {
    post: {
      operationId: `webhook-${type.replace('.', '-')}`,
      summary: SUMMARY[type],
      description:
        `Sent to every active endpoint and subscription of the brand subscribed to \`${type}\`. A 2xx answer within 15 s is success; ` +
        `otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (${MAX_ATTEMPTS} attempts in all). ` +
        'Delivery is at least once: deduplicate on `webhook-id`. A 410 answer deletes a subscription made through ' +
        'the API and disables an endpoint set up by the operator.',
      tags: ['Webhooks'],
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type', 'id', 'created_at', 'data'],
              properties: {
                type: { type: 'string', const: type },
                id: { ...EVENT_ID, description: 'The event id, equal to the `webhook-id` header.' },
                created_at: { ...TIMESTAMP, description: 'When the event happened.' },
                data: DATA[type],
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'Received (any 2xx). The body is ignored.' },
        '410': {
          description:
            'Gone: the subscription is deleted (the operator’s endpoint disabled) and receives nothing more.',
        },
      },
    },
  };
}

export const PUBLIC_WEBHOOKS = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, eventOperation(t)]));
