import { Type } from '@sinclair/typebox';
import { ORDER_STATUSES } from '../../../domain/orders/state-machine.ts';
import { DOOR_OUTCOMES, FAILURE_REASONS, SCAN_CONTEXTS, SCAN_PROBLEMS } from '../../../domain/scans/ports.ts';
import { MAX_SCANS } from '../../../domain/scans/scan-input.ts';
import { NullableString, PrefixedId, StringEnum } from './shared.ts';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** 500 scans of a few hundred bytes each: more than the API's 64 KiB. */
export const SCANS_BODY_LIMIT = 512 * 1024;

const ScanSchema = Type.Object(
  {
    id: Type.String({
      pattern: UUID_PATTERN,
      maxLength: 36,
      description:
        'Chosen by the phone when the scan happens: a scan sent again with its id is applied once.',
    }),
    context: StringEnum(SCAN_CONTEXTS, {
      description:
        'Where: `pickup` → picked_up, `hub` → in_transit, `loading` → out_for_delivery, `door` → the `outcome`.',
    }),
    code: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'What the scanner read: the tracking reference (Code 128, or typed, any case) or the DataMatrix text `REF|SORT|n/N`.',
    }),
    happened_at: Type.String({
      maxLength: 40,
      description:
        "When it happened on the phone, ISO 8601 with its offset. The order's history shows it, never later than the server's clock nor earlier than the order's last event; more than 7 days old: refused `too_old`.",
    }),
    outcome: Type.Optional(StringEnum(DOOR_OUTCOMES, { description: 'Door scans only (required there).' })),
    reason: Type.Optional(
      StringEnum(FAILURE_REASONS, { description: 'A failed attempt only (required there).' }),
    ),
    received_by: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'A delivery only: who took the parcel.' }),
    ),
    location: Type.Optional(
      Type.Object(
        {
          latitude: Type.Number({ minimum: -90, maximum: 90 }),
          longitude: Type.Number({ minimum: -180, maximum: 180 }),
        },
        { additionalProperties: false, description: 'Stored rounded to 3 decimals (about 100 m).' },
      ),
    ),
  },
  { title: 'Scan', additionalProperties: false },
);

export const ScanResultSchema = Type.Object(
  {
    id: Type.String({ pattern: UUID_PATTERN, maxLength: 36 }),
    result: StringEnum(['applied', 'refused'] as const),
    tracking_ref: NullableString({ maxLength: 14, description: 'The parcel the code named; null if none.' }),
    status: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      enum: [...ORDER_STATUSES, null],
      description: "The order's status after the scan (refused: as it is).",
    }),
    problem: Type.Unsafe<{ code: string; message: string } | null>({
      type: ['object', 'null'],
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: [...SCAN_PROBLEMS] },
        message: { type: 'string', maxLength: 500, description: "In the courier's language." },
      },
      description: 'Why it was refused; null when applied.',
    }),
  },
  { title: 'ScanResult' },
);

const scansField = Type.Array(ScanSchema, {
  minItems: 1,
  maxItems: MAX_SCANS,
  description: `1 to ${MAX_SCANS} scans, in any order: they are applied in the order they happened.`,
});

export const CourierScansBody = Type.Object({ scans: scansField }, { additionalProperties: false });

export const OpsScansBody = Type.Object(
  {
    scans: scansField,
    courier_id: Type.Optional(
      PrefixedId('cou', 16, {
        description:
          "The courier who scanned (checked against the day's rounds, and the messages in its language); without it, no round check.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ScansResponse = Type.Object({
  ok: Type.Literal(true),
  results: Type.Array(ScanResultSchema, {
    maxItems: MAX_SCANS,
    description: 'One per scan, in the order given.',
  }),
});
