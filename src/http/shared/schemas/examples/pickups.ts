import { errorExample, IDEMPOTENCY_KEY_REUSED, type OperationExamples } from './types.ts';

const PLANNED = {
  id: 'pck_5b1e0c9d3a7f2e64',
  date: '2026-11-24',
  pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
  window: { start: '14:00', end: '18:00' },
  status: 'planned',
  requested: false,
  orders: ['DLV-7K3M9Q2XHP', 'DLV-4T8N2W6RJC', 'DLV-9F3H7K2MXQ', 'DLV-2P6R8T4VBN', 'DLV-6X2C9M4KDW'],
  missing: [],
  closed_at: null,
};
const PARTIAL = {
  ...PLANNED,
  status: 'partially_collected',
  missing: ['DLV-2P6R8T4VBN', 'DLV-6X2C9M4KDW'],
  closed_at: '2026-11-24T15:42:10.000Z',
};
const REQUESTED = {
  ...PLANNED,
  id: 'pck_0a7d3c5e9b1f4862',
  date: '2026-11-25',
  window: { start: '09:00', end: '12:00' },
  requested: true,
  orders: [],
};
const NO_PICKUP = {
  unknown: {
    summary: 'No such pickup for this brand',
    value: errorExample('not_found', 'No pickup with id "pck_5b1e0c9d3a7f2e64".'),
  },
};

export const PICKUP_EXAMPLES: Record<string, OperationExamples> = {
  listPickups: {
    responses: {
      200: {
        day: { summary: "A day's pickup, partly collected", value: { ok: true, pickups: [PARTIAL] } },
        none: { summary: 'No pickup that day', value: { ok: true, pickups: [] } },
      },
      400: {
        badDate: {
          summary: 'Not a calendar date',
          value: errorExample('invalid_request', 'Invalid request: date must match format "date".', [
            { field: 'date', message: 'must match format "date"' },
          ]),
        },
      },
    },
  },
  requestPickup: {
    request: {
      default: { summary: 'Tomorrow, default window (14:00–18:00)', value: { date: '2026-11-25' } },
      morning: {
        summary: 'A morning collection',
        value: { date: '2026-11-25', window: { start: '09:00', end: '12:00' } },
      },
    },
    responses: {
      200: { requested: { summary: 'The collection asked for', value: { ok: true, pickup: REQUESTED } } },
      400: {
        window: {
          summary: 'A window outside the hours',
          value: errorExample('invalid_request', 'window.end: must be 19:00 or earlier', [
            { field: 'window.end', message: 'must be 19:00 or earlier' },
          ]),
        },
      },
      409: {
        closed: {
          summary: 'That day’s pickup is already closed',
          value: errorExample('pickup_closed', 'Pickup pck_0a7d3c5e9b1f4862 is already closed.'),
        },
      },
    },
    unprocessable: {
      date_in_past: {
        summary: 'A day in the past',
        message: 'date: 2026-11-23 is in the past (today is 2026-11-24 in Paris).',
        details: [{ field: 'date', message: '2026-11-23 is in the past (today is 2026-11-24 in Paris).' }],
      },
      not_a_business_day: {
        summary: 'A weekend day or a public holiday',
        message: 'date: 2026-11-28 is a weekend day; the next business day is 2026-11-30.',
        details: [
          { field: 'date', message: '2026-11-28 is a weekend day; the next business day is 2026-11-30.' },
        ],
      },
      pickup_cutoff_passed: {
        summary: 'Today, after 12:00 Paris time',
        message:
          'date: A collection today must be asked for before 12:00 (Paris); the next business day is 2026-11-25.',
        details: [
          {
            field: 'date',
            message:
              'A collection today must be asked for before 12:00 (Paris); the next business day is 2026-11-25.',
          },
        ],
      },
      no_pickup_address: {
        summary: 'The brand has no pickup address',
        message:
          'pickup_address: the brand has no pickup address; set one on its company page or ask the operator.',
        details: [
          {
            field: 'pickup_address',
            message: 'the brand has no pickup address; set one on its company page or ask the operator',
          },
        ],
      },
      idempotency_key_reused: IDEMPOTENCY_KEY_REUSED,
    },
  },
  getPickup: {
    responses: {
      200: {
        partial: { summary: 'Closed with two parcels missing', value: { ok: true, pickup: PARTIAL } },
        planned: { summary: 'Planned', value: { ok: true, pickup: PLANNED } },
      },
      404: NO_PICKUP,
    },
  },
  getPickupManifest: { responses: { 404: NO_PICKUP } },
};

export const OPS_PICKUP_EXAMPLES: Record<string, OperationExamples> = {
  opsListPickups: {
    responses: {
      200: {
        day: {
          summary: "A day's pickups",
          value: { ok: true, pickups: [{ brand_id: 'brd_3f9a0c1d2e3f4a5b', pickup: PLANNED }] },
        },
      },
    },
  },
  opsClosePickup: {
    request: {
      scanned: {
        summary: 'Three of five parcels scanned',
        value: { scanned: ['DLV-7K3M9Q2XHP', 'DLV-4T8N2W6RJC', 'DLV-9F3H7K2MXQ'] },
      },
    },
    responses: {
      200: {
        partial: {
          summary: 'Partly collected: two parcels missing',
          value: { ok: true, brand_id: 'brd_3f9a0c1d2e3f4a5b', pickup: PARTIAL },
        },
      },
      404: NO_PICKUP,
      409: {
        closed: {
          summary: 'Closed already',
          value: errorExample(
            'pickup_closed',
            'Pickup pck_5b1e0c9d3a7f2e64 is already closed (partially_collected).',
          ),
        },
      },
    },
    unprocessable: {
      not_in_pickup: {
        summary: 'A scanned parcel that is not in this pickup (nothing changed)',
        message: 'Not in this pickup: DLV-3M8K2Q7XWD; nothing was changed.',
        details: [{ field: 'scanned[2]', message: 'DLV-3M8K2Q7XWD is not in pickup pck_5b1e0c9d3a7f2e64' }],
      },
      pickup_not_due: {
        summary: 'Before 12:00 on its day',
        message:
          'Pickup pck_5b1e0c9d3a7f2e64 is for 2026-11-24: it can be closed from 12:00 (Paris) that day, once no order can join it.',
      },
    },
  },
};
