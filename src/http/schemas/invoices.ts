import { Type } from '@sinclair/typebox';
import { INVOICE_STATUSES } from '../../domain/invoices/invoice-service.ts';
import { SERVICE_CODES } from '../../domain/pricing/services.ts';
import {
  DATE_MAX_LENGTH,
  INT32_MAX,
  NullableString,
  NullableTimestamp,
  PATH_PARAM_MAX_LENGTH,
  PageLimit,
  PrefixedId,
  StringEnum,
  TIMESTAMP_MAX_LENGTH,
  Timestamp,
  TrackingRef,
} from './shared.ts';

/** `F` + year + `-` + 6-digit sequence. */
export const INVOICE_NUMBER_PATTERN = '^F[0-9]{4}-[0-9]{6}$';
/** A billed month, `YYYY-MM`. */
export const PERIOD_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export const InvoiceSchema = Type.Object(
  {
    id: PrefixedId('inv', 16, {
      examples: ['inv_3f9a0c1d2e3f4a5b'],
      description: 'Stable: a draft keeps its id once issued.',
    }),
    number: NullableString({
      pattern: INVOICE_NUMBER_PATTERN,
      maxLength: 12,
      description: 'F + year + 6-digit sequence, gap-free per year; null for a draft.',
      examples: ['F2026-000042'],
    }),
    period: Type.String({
      pattern: PERIOD_PATTERN,
      maxLength: 7,
      description: 'Billed month (Europe/Paris), YYYY-MM.',
      examples: ['2026-11'],
    }),
    status: StringEnum(INVOICE_STATUSES, {
      description: '`draft` (current month, accruing), `issued`, `paid`.',
    }),
    currency: Type.Literal('EUR'),
    order_count: Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }),
    total_excl_tax_eur: Type.Number(),
    vat_eur: Type.Number({ description: "Sum of the lines' VAT (each rounded half up to the cent)." }),
    total_eur: Type.Number(),
    issued_at: NullableTimestamp(),
    due_date: NullableString({
      format: 'date',
      maxLength: DATE_MAX_LENGTH,
      description: 'Issue date + 30 days.',
    }),
    paid_at: NullableString({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH }),
  },
  { $id: 'Invoice', title: 'Invoice' },
);

export const InvoiceLineSchema = Type.Object({
  tracking_ref: TrackingRef(),
  service: Type.Unsafe<string>({ type: 'string', enum: [...SERVICE_CODES] }),
  created_at: Timestamp(),
  price_excl_tax_eur: Type.Number(),
  vat_eur: Type.Number(),
  price_eur: Type.Number(),
});

export const InvoiceListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(INVOICE_STATUSES, { description: 'Only invoices in this status.' })),
    limit: PageLimit,
    cursor: Type.Optional(
      Type.String({ maxLength: 100, description: 'The `next_cursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);

export const InvoiceListResponse = Type.Object(
  {
    ok: Type.Literal(true),
    invoices: Type.Array(Type.Ref(InvoiceSchema), { maxItems: 200, description: 'At most `limit`.' }),
    next_cursor: NullableString({
      pattern: '^[A-Za-z0-9_-]{1,40}$',
      maxLength: 40,
      description: 'Pass as `cursor` for the next page; null on the last.',
    }),
  },
  { description: 'Invoices, newest period first.' },
);

export const InvoiceDetailResponse = Type.Object(
  {
    ok: Type.Literal(true),
    invoice: Type.Intersect([
      Type.Ref(InvoiceSchema),
      Type.Object({
        lines: Type.Array(InvoiceLineSchema, {
          description: 'One per billed order of the month: as many as `order_count`.',
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
