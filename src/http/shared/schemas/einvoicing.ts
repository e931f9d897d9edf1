import { Type } from '@sinclair/typebox';
import { EINVOICE_STATUSES } from '../../../domain/einvoicing/einvoice-status.ts';
import { NullableString, NullableTimestamp, PrefixedId, StringEnum, Timestamp } from './shared.ts';

/** The operator's view of an e-invoice's transmission: its platform, attempts and every status. */
export const EInvoiceTransmissionSchema = Type.Object(
  {
    status: StringEnum(EINVOICE_STATUSES),
    reason: NullableString({ maxLength: 2000 }),
    status_at: Timestamp(),
    platform: NullableString({
      maxLength: 40,
      description: '`directory` or `afnor`; null until handed over.',
    }),
    flow_id: NullableString({ maxLength: 200, description: "The platform's id of the submitted flow." }),
    submitted_at: NullableTimestamp(),
    attempts: Type.Integer({ format: 'int32', minimum: 0, maximum: 1000 }),
    last_error: NullableString({
      maxLength: 2000,
      description: 'Why the last attempt failed (the platform down, a refusal with its reason).',
    }),
    history: Type.Array(
      Type.Object({
        status: StringEnum(EINVOICE_STATUSES),
        reason: NullableString({ maxLength: 2000 }),
        at: Timestamp(),
      }),
      { maxItems: 100, description: 'Every status, oldest first.' },
    ),
  },
  { title: 'EInvoiceTransmission' },
);

const CompanySchema = Type.Object({
  legal_name: NullableString({ maxLength: 200 }),
  billing_address: NullableString({
    maxLength: 500,
    description: 'Lines separated by newlines; one of them "postcode city" (e.g. "75011 Paris").',
  }),
  siren: NullableString({ pattern: '^[0-9]{9}$', maxLength: 9 }),
  siret: NullableString({ pattern: '^[0-9]{14}$', maxLength: 14 }),
  vat_number: NullableString({ pattern: '^FR[0-9]{11}$', maxLength: 13 }),
  pickup_address: NullableString({ maxLength: 500 }),
});

export const CompanyResponse = Type.Object({
  ok: Type.Literal(true),
  brand_id: PrefixedId('brd', 16),
  company: CompanySchema,
  missing_for_invoicing: Type.Array(
    Type.Object({
      field: StringEnum(['siren', 'billing_address'] as const),
      message: Type.String({ maxLength: 200 }),
    }),
    {
      maxItems: 2,
      description: 'What an e-invoice still lacks: while not empty, the brand is not invoiced.',
    },
  ),
});

const field = (maxLength: number, description: string) =>
  Type.Optional(Type.String({ maxLength, description }));

export const CompanyUpdate = Type.Object(
  {
    legal_name: field(200, 'Blank: none.'),
    billing_address: field(500, 'With a "postcode city" line; blank: none.'),
    siren: field(20, '9 digits (spaces allowed), checked with Luhn; blank: none.'),
    siret: field(20, '14 digits starting with the SIREN; blank: none.'),
    vat_number: field(20, "The SIREN's French VAT number; blank: none."),
    pickup_address: field(500, 'In Île-de-France; blank: none.'),
  },
  { additionalProperties: false, description: 'Fields left out keep their value.' },
);
