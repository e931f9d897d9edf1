import { Type } from '@sinclair/typebox';
import { PICKUP_STATUSES } from '../../../domain/pickups/ports.ts';
import { CalendarDate, NullableTimestamp, PrefixedId, StringEnum } from './shared.ts';

const TrackingRef = Type.String({ pattern: '^DLV-[0-9A-HJKMNP-TV-Z]{10}$', maxLength: 14 });
const Time = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5, description });

const PickupWindowSchema = Type.Object(
  {
    start: Time('HH:MM (Paris), 08:00 at the earliest.'),
    end: Time('HH:MM (Paris), 19:00 at the latest, at least 2 hours after `start`.'),
  },
  { additionalProperties: false, description: 'When the courier comes; default 14:00–18:00.' },
);

export const PickupSchema = Type.Object(
  {
    id: PrefixedId('pck', 16),
    date: CalendarDate('The business day of the collection (Europe/Paris).'),
    pickup_address: Type.String({ maxLength: 500 }),
    window: PickupWindowSchema,
    status: StringEnum(PICKUP_STATUSES, {
      description:
        '`planned` until the courier has come; then `collected` (every parcel scanned), `partially_collected` (some missing) or `missed` (none).',
    }),
    requested: Type.Boolean({ description: 'Whether the brand asked for this collection (POST /pickups).' }),
    orders: Type.Array(TrackingRef, {
      maxItems: 100000,
      description:
        'The parcels to collect (planned), or collected and missing (closed), as tracking references, oldest first.',
    }),
    missing: Type.Array(TrackingRef, {
      maxItems: 100000,
      description:
        "Not scanned at the closing: still `pending`, in the next business day's pickup. Empty while planned.",
    }),
    closed_at: NullableTimestamp('When the operator closed it; null while planned.'),
  },
  { $id: 'Pickup', title: 'Pickup' },
);

export const PickupListQuery = Type.Object(
  {
    date: Type.Optional(
      CalendarDate("One day's pickups (YYYY-MM-DD); without it, the last 7 days' and the upcoming ones."),
    ),
  },
  { additionalProperties: false },
);

export const PickupListResponse = Type.Object({
  ok: Type.Literal(true),
  pickups: Type.Array(Type.Ref(PickupSchema), {
    maxItems: 1000,
    description: 'By day, then pickup address.',
  }),
});

export const PickupResponse = Type.Object({ ok: Type.Literal(true), pickup: Type.Ref(PickupSchema) });

export const PickupIdParams = Type.Object({
  pickupId: Type.String({
    maxLength: 64,
    description: 'The pickup id, e.g. `pck_5b1e0c9d3a7f2e64`. Another brand’s pickup is a 404.',
  }),
});

export const PickupRequestBody = Type.Object(
  {
    date: CalendarDate(
      'A business day (not a weekend nor a French public holiday), today only before 12:00 Paris time.',
    ),
    window: Type.Optional(PickupWindowSchema),
  },
  { additionalProperties: false },
);

export const ClosePickupBody = Type.Object(
  {
    scanned: Type.Array(Type.String({ maxLength: 30 }), {
      maxItems: 1000,
      description: "The tracking references the courier scanned; the pickup's other parcels are missing.",
    }),
  },
  { additionalProperties: false },
);

export const OpsPickupListQuery = Type.Object(
  {
    date: CalendarDate('The day (YYYY-MM-DD).'),
    brand: Type.Optional(PrefixedId('brd', 16, { description: "Only this brand's pickups." })),
  },
  { additionalProperties: false },
);
