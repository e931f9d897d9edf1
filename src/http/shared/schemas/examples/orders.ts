import type { Order } from '../../../../domain/orders/order.ts';
import { NO_CO2E } from '../../../../domain/orders/order-fields.ts';
import { orderJson, orderLinks } from '../../../../domain/orders/order-json.ts';
import { errorExample, IDEMPOTENCY_KEY_REUSED, type OperationExamples } from './types.ts';

// The examples are real renderings (orderJson) of sample orders: a field added to the order's
// column map shows up here, and the compiler asks for its sample value.
const LINKS = orderLinks('https://api.livraison-dlv.fr');
const PENDING_ORDER: Order = {
  id: 1,
  ...NO_CO2E,
  trackingRef: 'DLV-7K3M9Q2XHP',
  trackingToken: 'q3J5vT8wZ0bXcR2mK9yL4A',
  brandId: 'brd_3f9a0c1d2e3f4a5b',
  status: 'pending',
  livemode: true,
  reference: 'CMD-10042',
  customerEmail: 'camille.martin@exemple.fr',
  amountCents: 8990,
  pickupAddress: '5 rue du Dépôt 93200 Saint-Denis',
  deliveryAddress: '12 rue Oberkampf 75011 Paris',
  deliveryPostcode: '75011',
  deliveryCity: 'Paris',
  deliveryZone: 'paris',
  deliveryRecipient: 'Camille Martin',
  deliveryPhone: '+33612345678',
  deliveryEmail: 'camille.martin@exemple.fr',
  // At its postcode (no geocoder configured): the offline default's point for 75011.
  deliveryLat: 48.8574,
  deliveryLng: 2.3795,
  deliveryLocationPrecision: 'postcode',
  deliveryLocationSource: 'postcode',
  addressWarnings: [],
  addressCheckDueAt: null,
  service: 'standard',
  unitType: 'parcel',
  quantity: 1,
  unitWeightGrams: 2500,
  priceCents: 1008,
  priceExclTaxCents: 840,
  vatCents: 168,
  promisedDate: '2026-11-25',
  pickupId: 'pck_5b1e0c9d3a7f2e64',
  pickedUpAt: null,
  createdAt: new Date('2026-11-24T09:12:31.000Z'),
  updatedAt: new Date('2026-11-24T09:12:31.000Z'),
};
const PENDING = orderJson(PENDING_ORDER, LINKS);

const AWAITING = orderJson(
  {
    ...PENDING_ORDER,
    id: 2,
    trackingRef: 'DLV-3N8R2W5YTA',
    trackingToken: 'Xo1pN6dGs4uHe7rQy2wVtB',
    status: 'awaiting_address',
    reference: 'CMD-10043',
    customerEmail: 'louis.bernard@exemple.fr',
    amountCents: null,
    deliveryAddress: null,
    deliveryPostcode: null,
    deliveryCity: null,
    deliveryZone: null,
    deliveryRecipient: null,
    deliveryPhone: null,
    deliveryEmail: null,
    deliveryLat: null,
    deliveryLng: null,
    deliveryLocationPrecision: null,
    deliveryLocationSource: null,
    service: 'express',
    unitWeightGrams: 1000,
    priceCents: null,
    priceExclTaxCents: null,
    vatCents: null,
    promisedDate: null,
    createdAt: new Date('2026-11-24T08:47:02.000Z'),
    updatedAt: new Date('2026-11-24T08:47:02.000Z'),
  },
  LINKS,
);

const created = (order: { status: string; created_at: string }) => [
  { status: order.status, at: order.created_at, note: null },
];
const PENDING_DETAIL = { ...PENDING, events: created(PENDING) };
const DELIVERED_DETAIL = {
  ...PENDING,
  status: 'delivered',
  updated_at: '2026-11-25T15:40:12.000Z',
  events: [
    { status: 'pending', at: '2026-11-24T09:12:31.000Z', note: null },
    { status: 'picked_up', at: '2026-11-24T16:05:44.000Z', note: 'Enlèvement Saint-Denis' },
    { status: 'in_transit', at: '2026-11-24T18:30:00.000Z', note: 'Hub Saint-Ouen' },
    { status: 'out_for_delivery', at: '2026-11-25T08:02:19.000Z', note: null },
    { status: 'delivered', at: '2026-11-25T15:40:12.000Z', note: 'Remis en main propre' },
  ],
};

const NO_PROOF = { proof_of_delivery: null, failed_attempt: null };
// Links are signed at each answer and expire 15 minutes later (docs/proof-of-delivery.md).
const PROOF_LINK = (kind: string) =>
  `https://api.livraison-dlv.fr/proofs/att_3f9c2a7b1e0d4c58/${kind}?expires=1764085512&sig=Qm9vJ3kX0cA1vT8wZ0bXcR2mK9yL4A7pN3sE6fH2jU5`;
const DELIVERED_PROOF = {
  proof_of_delivery: {
    delivered_at: '2026-11-25T15:40:12.000Z',
    received_by: 'Camille Martin',
    photo_url: PROOF_LINK('photo'),
    signature_url: PROOF_LINK('signature'),
    location: { latitude: 48.865, longitude: 2.378 },
  },
  failed_attempt: null,
};
const CANCELLED_DETAIL = {
  ...AWAITING,
  status: 'cancelled',
  updated_at: '2026-11-24T10:00:00.000Z',
  events: [
    { status: 'awaiting_address', at: '2026-11-24T08:47:02.000Z', note: null },
    { status: 'cancelled', at: '2026-11-24T10:00:00.000Z', note: null },
  ],
};

const CREATE_REQUEST = {
  customer_email: 'camille.martin@exemple.fr',
  amount_eur: 89.9,
  delivery_address: '12 rue Oberkampf 75011 Paris',
  delivery_recipient: 'Camille Martin',
  delivery_phone: '06 12 34 56 78',
  delivery_email: 'camille.martin@exemple.fr',
  service: 'standard',
  unit_type: 'colis',
  quantity: 1,
  unit_weight: '2,5 kg',
  reference: 'CMD-10042',
};

const OUT_OF_ZONE = {
  summary: 'Delivery or pickup address outside Île-de-France',
  message:
    'delivery_address: 69002 (Lyon) is outside the delivery zone; only Île-de-France (75, 77, 78, 91, 92, 93, 94, 95) is served.',
  details: [{ field: 'delivery_address', message: 'must be in Île-de-France' }],
};
const INVALID_ADDRESS = {
  summary:
    'No valid French postcode in the delivery or pickup address, or no pickup address while the brand has no default one',
  message: 'delivery_address: "75099" is not a French postcode.',
  details: [{ field: 'delivery_address', message: 'must contain a valid French postcode' }],
};
const UNPRICEABLE = {
  summary: "The brand's grid has no price for this load",
  message: 'no price for express pallet to grande_couronne weighing 1200 kg per unit (at most 1000 kg)',
};

export const ORDER_EXAMPLES: Record<string, OperationExamples> = {
  createOrder: {
    request: {
      complete: { summary: 'A priced order with its delivery address', value: CREATE_REQUEST },
      awaitingAddress: {
        summary: 'An order whose address the customer will give later',
        value: { customer_email: 'louis.bernard@exemple.fr', service: 'express', reference: 'CMD-10043' },
      },
      withPoint: {
        summary: 'With the point the brand knows (extension): the order is placed there',
        value: {
          ...CREATE_REQUEST,
          delivery_address: '12 Place Léon Blum 75011 Paris',
          delivery_lat: 48.858828,
          delivery_lng: 2.379506,
        },
      },
    },
    responses: {
      200: {
        created: {
          summary: 'Created, priced and dated',
          value: { ok: true, trackingRef: PENDING.tracking_ref, order: PENDING_DETAIL },
        },
        awaitingAddress: {
          summary: 'Created without an address: awaiting it, not yet priced',
          value: {
            ok: true,
            trackingRef: AWAITING.tracking_ref,
            order: { ...AWAITING, events: created(AWAITING) },
          },
        },
      },
      400: {
        invalidFields: {
          summary: 'Every invalid field at once',
          value: errorExample(
            'invalid_request',
            'Invalid request: customer_email must be an e-mail address; service must be one of express, standard, economy.',
            [
              { field: 'customer_email', message: 'must be an e-mail address' },
              { field: 'service', message: 'must be one of express, standard, economy' },
            ],
          ),
        },
        pointOutsideRegion: {
          summary: "The brand's point is not in Île-de-France (here: latitude and longitude swapped)",
          value: errorExample(
            'invalid_request',
            'delivery_lat: with delivery_lng is outside Île-de-France; they look swapped (latitude ~48–49, longitude ~1.5–3.5)',
            [
              {
                field: 'delivery_lat',
                message:
                  'with delivery_lng is outside Île-de-France; they look swapped (latitude ~48–49, longitude ~1.5–3.5)',
              },
            ],
          ),
        },
      },
    },
    unprocessable: {
      out_of_zone: OUT_OF_ZONE,
      invalid_address: INVALID_ADDRESS,
      unpriceable: UNPRICEABLE,
      idempotency_key_reused: IDEMPOTENCY_KEY_REUSED,
    },
  },
  listOrders: {
    responses: {
      200: {
        page: {
          summary: 'A page with more to come',
          value: {
            ok: true,
            orders: [PENDING, AWAITING],
            next_cursor: 'AcVqdVz5iK8Ou0r9cU5sCsb3Ym2aNaCn2Lxu-XlKa4Yd38Y',
          },
        },
        last: { summary: 'The last page', value: { ok: true, orders: [], next_cursor: null } },
      },
      400: {
        badCursor: {
          summary: 'A cursor this API did not issue for this list',
          value: errorExample('invalid_request', 'cursor: is not a cursor returned by this API', [
            { field: 'cursor', message: 'is not a cursor returned by this API' },
          ]),
        },
      },
    },
  },
  getOrder: {
    responses: {
      200: {
        pending: {
          summary: 'An order waiting for pickup',
          value: { ok: true, order: { ...PENDING_DETAIL, ...NO_PROOF } },
        },
        delivered: {
          summary: 'A delivered order, its history and its proof of delivery',
          value: { ok: true, order: { ...DELIVERED_DETAIL, ...DELIVERED_PROOF } },
        },
      },
      404: {
        unknown: {
          summary: 'No such order for this brand',
          value: errorExample('not_found', 'No order with trackingRef "DLV-7K3M9Q2XHP".'),
        },
      },
    },
  },
  updateOrder: {
    request: {
      completeAddress: {
        summary: 'Give the address of an order awaiting it',
        value: {
          delivery_address: '4 avenue de la République 94300 Vincennes',
          delivery_recipient: 'Louis Bernard',
          delivery_phone: '+33 7 81 22 33 44',
        },
      },
    },
    responses: {
      200: {
        updated: {
          summary: 'The order, priced and dated afresh',
          value: { ok: true, order: PENDING_DETAIL },
        },
      },
    },
    unprocessable: {
      out_of_zone: OUT_OF_ZONE,
      invalid_address: INVALID_ADDRESS,
      unpriceable: UNPRICEABLE,
      invalid_transition: {
        summary: 'The order is past pickup',
        message: 'An order can only be edited while awaiting_address or pending; this one is "in_transit".',
      },
      idempotency_key_reused: IDEMPOTENCY_KEY_REUSED,
    },
  },
  cancelOrder: {
    request: { none: { summary: 'No body is needed; `{}` is the same', value: {} } },
    responses: {
      200: {
        cancelled: {
          summary: 'Cancelled before pickup (or already cancelled: the order as it is, nothing sent again)',
          value: { ok: true, order: CANCELLED_DETAIL },
        },
      },
      400: {
        field: {
          summary: 'A body with a field: the cancellation takes none',
          value: errorExample('invalid_request', 'Invalid request: reason is not a known field.', [
            { field: 'reason', message: 'is not a known field' },
          ]),
        },
      },
    },
    unprocessable: {
      invalid_transition: {
        summary: 'The order was already picked up',
        message:
          'An order cannot go from "picked_up" to "cancelled": from "picked_up" the order can go to "in_transit".',
      },
      idempotency_key_reused: IDEMPOTENCY_KEY_REUSED,
    },
  },
  simulateOrder: {
    request: {
      step: { summary: 'The parcel is collected', value: { to: 'picked_up' } },
      failed: { summary: 'Nobody at the door', value: { to: 'failed_attempt', reason: 'absent' } },
    },
    responses: {
      200: {
        moved: {
          summary: 'The test order moved (its events and webhooks sent, with livemode: false)',
          value: { ok: true, order: { ...PENDING_DETAIL, livemode: false, status: 'picked_up' } },
        },
      },
      403: {
        live: {
          summary: 'A live key: only test orders are simulated',
          value: errorExample(
            'test_mode_only',
            'Only a test key (dlv_test_…) can simulate an order: a live order moves by its parcel only.',
          ),
        },
      },
      409: {
        order: {
          summary: 'A step that does not follow the order’s status',
          value: errorExample(
            'simulation_out_of_order',
            'A test order cannot go from "pending" to "delivered": simulate the steps in the street\'s order (picked_up, in_transit, out_for_delivery, then delivered or failed_attempt).',
          ),
        },
      },
    },
    unprocessable: {
      invalid_transition: {
        summary: 'Another change came first',
        message: 'The order changed concurrently; retry.',
      },
    },
  },
};

/** For the operations API, which answers the same order with its brand. */
export const OPS_ORDER_EXAMPLES: Record<string, OperationExamples> = {
  opsGetOrder: {
    responses: {
      200: {
        order: {
          summary: "A brand's order",
          value: { ok: true, brand_id: 'brd_9a8b7c6d5e4f3a2b', order: PENDING_DETAIL },
        },
      },
    },
  },
  opsSetOrderStatus: {
    request: {
      pickedUp: { summary: 'Scanned at pickup', value: { status: 'picked_up', note: 'Scan hub Saint-Ouen' } },
    },
    responses: {
      200: {
        moved: {
          summary: 'The order in its new status',
          value: {
            ok: true,
            brand_id: 'brd_9a8b7c6d5e4f3a2b',
            order: {
              ...PENDING_DETAIL,
              status: 'picked_up',
              updated_at: '2026-11-24T16:05:44.000Z',
              events: [
                ...PENDING_DETAIL.events,
                { status: 'picked_up', at: '2026-11-24T16:05:44.000Z', note: 'Scan hub Saint-Ouen' },
              ],
            },
          },
        },
      },
    },
    unprocessable: {
      invalid_transition: {
        summary: 'Not a next status of the order',
        message:
          'An order cannot go from "pending" to "delivered": from "pending" the order can go to "picked_up" or "cancelled".',
      },
    },
  },
};
