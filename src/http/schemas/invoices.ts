import { Type } from '@sinclair/typebox';
import { INVOICE_STATUSES } from '../../domain/invoices/invoice-service.ts';
import { NullableString, StringEnum } from './shared.ts';

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({
      examples: ['inv_3f9a0c1d2e3f4a5b'],
      description: 'Stable: a draft keeps its id once issued.',
    }),
    number: NullableString({
      description: 'F + year + 6-digit sequence, gap-free per year; null for a draft.',
      examples: ['F2026-000042'],
    }),
    period: Type.String({ description: 'Billed month (Europe/Paris), YYYY-MM.', examples: ['2026-11'] }),
    status: StringEnum(INVOICE_STATUSES, {
      description: '`draft` (current month, accruing), `issued`, `paid`.',
    }),
    currency: Type.Literal('EUR'),
    order_count: Type.Integer(),
    total_excl_tax_eur: Type.Number(),
    vat_eur: Type.Number({ description: "Sum of the lines' VAT (each rounded half up to the cent)." }),
    total_eur: Type.Number(),
    issued_at: NullableString({ format: 'date-time' }),
    due_date: NullableString({ format: 'date', description: 'Issue date + 30 days.' }),
    paid_at: NullableString({ format: 'date-time' }),
  },
  { $id: 'Invoice', title: 'Invoice' },
);

export const InvoiceLineSchema = Type.Object({
  tracking_ref: Type.String(),
  service: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  price_excl_tax_eur: Type.Number(),
  vat_eur: Type.Number(),
  price_eur: Type.Number(),
});

export const InvoiceListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(INVOICE_STATUSES, { description: 'Only invoices in this status.' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1–200.' }),
    ),
    cursor: Type.Optional(
      Type.String({ maxLength: 100, description: 'The `next_cursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);

export const InvoiceListResponse = Type.Object(
  {
    ok: Type.Literal(true),
    invoices: Type.Array(Type.Ref(InvoiceSchema)),
    next_cursor: NullableString({ description: 'Pass as `cursor` for the next page; null on the last.' }),
  },
  { description: 'Invoices, newest period first.' },
);

export const InvoiceDetailResponse = Type.Object(
  {
    ok: Type.Literal(true),
    invoice: Type.Intersect([Type.Ref(InvoiceSchema), Type.Object({ lines: Type.Array(InvoiceLineSchema) })]),
  },
  { description: 'The invoice with its lines (one per billed order).' },
);

export const InvoiceIdParams = Type.Object({
  id: Type.String({ maxLength: 40, examples: ['inv_3f9a0c1d2e3f4a5b'] }),
});
