import { Type } from '@sinclair/typebox';
import { FAILURE_REASONS } from '../../../domain/scans/ports.ts';
import { INT32_MAX, NullableString, StringEnum, Timestamp } from './shared.ts';

const ProofUrl = (what: string) =>
  NullableString({
    format: 'uri',
    maxLength: 300,
    description: `The ${what}, behind a signed link that expires (15 minutes in API answers, 7 days in webhooks); null when there is none, or once erased (90 days after the delivery).`,
  });

/** `proof_of_delivery` (decision 0006): the delivery's facts, and signed links to its files. */
export const ProofOfDeliverySchema = Type.Union(
  [
    Type.Object(
      {
        delivered_at: Timestamp('When the courier recorded the delivery (the phone’s time).'),
        received_by: NullableString({
          maxLength: 100,
          description: 'Who took the parcel, as the courier noted it.',
        }),
        photo_url: ProofUrl('photo taken at the door (JPEG, no metadata)'),
        signature_url: ProofUrl('signature drawn on the courier’s phone (PNG)'),
        location: Type.Union([
          Type.Object(
            {
              latitude: Type.Number({ minimum: -90, maximum: 90 }),
              longitude: Type.Number({ minimum: -180, maximum: 180 }),
            },
            { description: 'Where, rounded to 3 decimals (about 100 m).' },
          ),
          Type.Null(),
        ]),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'The proof of delivery, once delivered; null before. Sent by `GET /orders/{tracking_ref}` and the ' +
      '`order.delivered` webhook, not by lists.',
  },
);

/** `failed_attempt`: the last failed attempt at the door and how many there were. */
export const FailedAttemptSchema = Type.Union(
  [
    Type.Object(
      {
        at: Timestamp('When the courier recorded the failed attempt.'),
        reason: StringEnum(FAILURE_REASONS),
        attempts: Type.Integer({
          format: 'int32',
          minimum: 1,
          maximum: INT32_MAX,
          description: 'Failed attempts so far.',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'The last failed delivery attempt (kept after a later delivery); null when there was none. Sent by ' +
      '`GET /orders/{tracking_ref}` and the `order.delivery_failed` webhook, not by lists.',
  },
);
