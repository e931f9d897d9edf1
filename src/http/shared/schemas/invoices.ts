import { Type } from '@sinclair/typebox';
import { EINVOICE_STATUSES } from '../../../domain/einvoicing/einvoice-status.ts';
import { INVOICE_STATUSES, INVOICE_TYPES } from '../../../domain/invoices/invoice-service.ts';
import { ServiceSchema } from './rates.ts';
import {
  DATE_MAX_LENGTH,
  INT32_MAX,
  NullableString,
  NullableTimestamp,
  PATH_PARAM_MAX_LENGTH,
  Page,
  PageCursor,
  PageLimit,
  PrefixedId,
  StringEnum,
  TIMESTAMP_MAX_LENGTH,
  Timestamp,
  TrackingRef,
} from './shared.ts';

/** `F` + year + `-` + 6-digit sequence. */
export const INVOICE_NUMBER_PATTERN = '^F[0-9]{4}-[0-9]{6}$';
/** `A` (avoir) + year + `-` + 6-digit sequence: the credit notes' own series. */
export const CREDIT_NOTE_NUMBER_PATTERN = '^A[0-9]{4}-[0-9]{6}$';
/** A billed month, `YYYY-MM`. */
export const PERIOD_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export const InvoiceSchema = Type.Object(
  {
    id: PrefixedId('inv', 16, {
      examples: ['inv_3f9a0c1d2e3f4a5b'],
      description: 'Stable: a draft keeps its id once issued. Credit notes have ids of the same shape.',
    }),
    number: NullableString({
      pattern: '^[FA][0-9]{4}-[0-9]{6}$',
      maxLength: 12,
      description:
        'F + year + 6-digit sequence, gap-free per year; null for a draft. A credit note is numbered in its own gap-free series, A + year + 6-digit sequence.',
      examples: ['F2026-000042'],
    }),
    period: Type.String({
      pattern: PERIOD_PATTERN,
      maxLength: 7,
      description:
        'Billed month (Europe/Paris), YYYY-MM; for a credit note, the month of the invoice it corrects.',
      examples: ['2026-11'],
    }),
    status: StringEnum(INVOICE_STATUSES, {
      description: '`draft` (current month, accruing), `issued`, `paid`. A credit note is always `issued`.',
    }),
    currency: Type.Literal('EUR'),
    order_count: Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }),
    total_excl_tax_eur: Type.Number({ description: 'Negative on a credit note, as are its VAT and total.' }),
    vat_eur: Type.Number({ description: "Sum of the lines' VAT (each rounded half up to the cent)." }),
    total_eur: Type.Number(),
    issued_at: NullableTimestamp(),
    due_date: NullableString({
      format: 'date',
      maxLength: DATE_MAX_LENGTH,
      description: 'Issue date + 30 days; null for a draft and for a credit note, on which nothing is due.',
    }),
    paid_at: NullableString({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH }),
    type: StringEnum(INVOICE_TYPES, {
      description:
        "`invoice`, or `credit_note` (facture d'avoir): issued when an order on an issued invoice is cancelled, it credits that order's line; the invoice itself never changes.",
    }),
    credits_invoice: Type.Unsafe<{ id: string; number: string } | null>({
      type: ['object', 'null'],
      required: ['id', 'number'],
      properties: {
        id: {
          type: 'string',
          pattern: '^inv_[0-9a-f]{16}$',
          maxLength: 20,
          examples: ['inv_3f9a0c1d2e3f4a5b'],
        },
        number: {
          type: 'string',
          pattern: INVOICE_NUMBER_PATTERN,
          maxLength: 12,
          examples: ['F2026-000042'],
        },
      },
      description: 'On a credit note, the invoice it corrects; null on an invoice.',
    }),
    einvoice_status: Type.Unsafe<(typeof EINVOICE_STATUSES)[number] | null>({
      type: ['string', 'null'],
      enum: [...EINVOICE_STATUSES, null],
      description:
        '**Extension.** Where the issued document (a Factur-X) stands on the e-invoicing platform: `pending` (to be sent), ' +
        '`deposited`, `received`, `accepted`, `refused` (by the buyer, with the reason), `rejected` (by a platform, with the reason), ' +
        '`paid` (the payment reported). Null for a draft and for a document issued before e-invoicing.',
      examples: ['accepted'],
    }),
    einvoice_status_reason: NullableString({
      maxLength: 2000,
      description:
        "**Extension.** Why the e-invoice was refused or rejected (the platform's words), or what its last step was.",
    }),
    einvoice_status_at: NullableString({
      format: 'date-time',
      maxLength: TIMESTAMP_MAX_LENGTH,
      description: '**Extension.** When the e-invoice reached its status.',
    }),
  },
  { $id: 'Invoice', title: 'Invoice' },
);

const InvoiceLineSchema = Type.Object({
  tracking_ref: TrackingRef(),
  service: ServiceSchema,
  created_at: Timestamp(),
  price_excl_tax_eur: Type.Number(),
  vat_eur: Type.Number(),
  price_eur: Type.Number(),
  co2e_grams: Type.Union(
    [Type.Integer({ format: 'int32', minimum: 0, maximum: 2_147_483_647 }), Type.Null()],
    {
      description:
        "**Extension.** The order's CO₂e (its `co2e.grams`), null until it is delivered or returned: see docs/emissions.md.",
    },
  ),
});

export const InvoiceListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(INVOICE_STATUSES, { description: 'Only invoices in this status.' })),
    type: Type.Optional(
      StringEnum(INVOICE_TYPES, { description: 'Only invoices, or only credit notes; both when absent.' }),
    ),
    limit: PageLimit,
    cursor: PageCursor,
  },
  { additionalProperties: false },
);

export const InvoiceListResponse = Page(
  'invoices',
  Type.Ref(InvoiceSchema),
  'Invoices and credit notes, newest period first; within a period, its credit notes (newest first) before its invoice.',
);

export const InvoiceDetailResponse = Type.Object(
  {
    ok: Type.Literal(true),
    invoice: Type.Intersect([
      Type.Ref(InvoiceSchema),
      Type.Object({
        co2e_grams: Type.Integer({
          format: 'int64',
          minimum: 0,
          maximum: 9_007_199_254_740_991,
          description:
            "**Extension.** The sum of the lines' `co2e_grams` (the orders delivered or returned so far).",
        }),
        lines: Type.Array(InvoiceLineSchema, {
          description:
            'One per billed order of the month (per credited order, with negative amounts, on a credit note): as many as `order_count`.',
        }),
      }),
    ]),
  },
  { description: 'The invoice with its lines (one per billed order).' },
);

export const InvoiceIdParams = Type.Object({
  id: Type.String({
    maxLength: PATH_PARAM_MAX_LENGTH,
    examples: ['inv_3f9a0c1d2e3f4a5b'],
    description: 'An id that names no invoice of the brand is a 404, whatever its shape.',
  }),
});
