import { errorExample, type OperationExamples, type Unprocessable } from './types.ts';

const COURIER = {
  id: 'cou_5b1e0c9d3a7f2e64',
  email: 'lea.martin@example.fr',
  name: 'Léa Martin',
  phone: '+33612345678',
  locale: 'fr',
  must_choose_password: true,
  disabled_at: null,
  created_at: '2026-11-20T08:12:00.000Z',
};

const ROUND = {
  id: 'rnd_3f9a0c1d2e3f4a5b',
  date: '2026-11-24',
  name: 'PC-93',
  courier_id: 'cou_5b1e0c9d3a7f2e64',
  sort_codes: ['PC-93'],
  version: 3,
  vehicle_id: 'veh_0a1b2c3d4e5f6a7b',
  planned_distance_m: 18450,
  planned_duration_s: 4320,
  planned_by: 'in-process',
  driven_distance_m: null,
  stops: [
    {
      position: 1,
      pinned: false,
      planned_arrival: '2026-11-24T13:05:00.000Z',
      leg_distance_m: 4200,
      kind: 'pickup',
      pickup: {
        id: 'pck_5b1e0c9d3a7f2e64',
        brand_name: 'Maison Lumière',
        pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
        window: { start: '14:00', end: '18:00' },
        status: 'planned',
        parcels: ['DLV-7K3M9Q2XHP', 'DLV-4T8N2W6RJC'],
      },
    },
    {
      position: 2,
      pinned: true,
      planned_arrival: '2026-11-24T13:31:00.000Z',
      leg_distance_m: 1850,
      kind: 'delivery',
      order: {
        tracking_ref: 'DLV-9F3H7K2MXQ',
        status: 'in_transit',
        recipient: 'Jane Doe',
        address: '1 place Victor Hugo 93200 Saint-Denis',
        postcode: '93200',
        city: 'Saint-Denis',
        delivery_location: { lat: 48.9356, lng: 2.3539, precision: 'postcode', source: 'postcode' },
        phone: '+33612345678',
        sort_code: 'PC-93',
        quantity: 1,
        failed_attempts: 0,
        instructions: 'Code 4821B, 3rd floor, left door',
        safe_place: { kind: 'caretaker', detail: 'Mr Dupont, at the lodge' },
      },
    },
  ],
};

const ROUND_CONFLICT = {
  stale: {
    summary: 'The round changed since it was read (nothing written)',
    value: errorExample(
      'round_conflict',
      'Round PC-93 changed since version 2 (it is at version 3): read it again, then redo the change.',
      [{ field: 'version', message: 'is 2; the round is at version 3' }],
    ),
  },
};

const NO_ROUND = {
  unknown: { summary: 'No such round', value: errorExample('not_found', 'No round rnd_3f9a0c1d2e3f4a5b.') },
};

const STOP_REFUSALS: Partial<
  Record<'already_on_round' | 'unknown_stops' | 'invalid_stops' | 'courier_disabled', Unprocessable>
> = {
  already_on_round: {
    summary: 'An order or pickup already on another round that day (nothing written)',
    message: 'stops[0] is already on round PC-93 that day.',
    details: [{ field: 'stops[0]', message: 'is already on round PC-93 that day' }],
  },
  unknown_stops: {
    summary: 'A stop that names no order or pickup of the day (nothing written)',
    message: '1 stop(s) name no order or pickup of 2026-11-24.',
    details: [{ field: 'stops[1].tracking_ref', message: 'no order DLV-0000000000' }],
  },
  invalid_stops: {
    summary: 'An order with nothing left to deliver as a new stop (nothing written)',
    message:
      'stops[0].tracking_ref: order DLV-9F3H7K2MXQ is delivered; only an order still to deliver can be a stop.',
    details: [
      {
        field: 'stops[0].tracking_ref',
        message: 'order DLV-9F3H7K2MXQ is delivered; only an order still to deliver can be a stop',
      },
    ],
  },
  courier_disabled: {
    summary: 'A disabled courier',
    message: 'courier_id: courier cou_5b1e0c9d3a7f2e64 is disabled.',
    details: [{ field: 'courier_id', message: 'is a disabled courier' }],
  },
};

const HUB = {
  id: 'hub_1a2b3c4d5e6f7a8b',
  name: 'Hub Bastille',
  address: '10 rue de la Roquette 75011 Paris',
  lat: 48.8541,
  lng: 2.3722,
  created_at: '2026-11-20T08:00:00.000Z',
};
const VEHICLE = {
  id: 'veh_0a1b2c3d4e5f6a7b',
  name: 'Van 1',
  kind: 'electric_van',
  capacity_parcels: 120,
  capacity_kg: 600,
  hub_id: HUB.id,
  disabled_at: null,
  created_at: '2026-11-20T08:05:00.000Z',
};
const SHIFT = {
  courier_id: 'cou_5b1e0c9d3a7f2e64',
  date: '2026-11-24',
  starts_at: '08:00',
  ends_at: '16:00',
  vehicle_id: VEHICLE.id,
  break: { from: '12:00', until: '14:00', minutes: 30 },
};
const NEW_HUB = { name: HUB.name, address: HUB.address, lat: HUB.lat, lng: HUB.lng };
const NEW_VEHICLE = {
  name: 'Van 1',
  kind: 'electric_van',
  capacity_parcels: 120,
  capacity_kg: 600,
  hub: 'Hub Bastille',
};

export const OPS_ROUND_EXAMPLES: Record<string, OperationExamples> = {
  opsListHubs: { responses: { 200: { hubs: { summary: 'The hubs', value: { ok: true, hubs: [HUB] } } } } },
  opsAddHub: {
    request: { hub: { summary: 'A hub in Paris 11e', value: NEW_HUB } },
    responses: { 201: { added: { summary: 'Added', value: { ok: true, hub: HUB } } } },
  },
  opsListVehicles: {
    responses: { 200: { vehicles: { summary: 'The vehicles', value: { ok: true, vehicles: [VEHICLE] } } } },
  },
  opsAddVehicle: {
    request: { van: { summary: 'An electric van', value: NEW_VEHICLE } },
    responses: { 201: { added: { summary: 'Added', value: { ok: true, vehicle: VEHICLE } } } },
  },
  opsDisableVehicle: {
    responses: {
      200: {
        disabled: {
          summary: 'Out of service',
          value: { ok: true, vehicle: { ...VEHICLE, disabled_at: '2026-11-25T18:00:00.000Z' } },
        },
      },
    },
  },
  opsListShifts: {
    responses: { 200: { shifts: { summary: 'The day’s shifts', value: { ok: true, shifts: [SHIFT] } } } },
  },
  opsListCouriers: {
    responses: { 200: { list: { summary: 'The couriers', value: { ok: true, couriers: [COURIER] } } } },
  },
  opsAddCourier: {
    request: {
      generated: {
        summary: 'A one-time password generated',
        value: { email: 'lea.martin@example.fr', name: 'Léa Martin', phone: '06 12 34 56 78' },
      },
    },
    responses: {
      201: {
        added: {
          summary: 'Added; the one-time password is shown once',
          value: { ok: true, courier: COURIER, one_time_password: 'k7mp-x3qa-9rtd-h2wz' },
        },
      },
    },
  },
  opsResetCourierPassword: {
    responses: {
      200: {
        reset: {
          summary: 'A new one-time password, shown once; the courier’s sessions ended',
          value: { ok: true, courier: COURIER, one_time_password: 'p4cv-8nhw-t2ke-y9sm' },
        },
      },
      404: {
        unknown: {
          summary: 'No such courier',
          value: errorExample('not_found', 'No courier cou_5b1e0c9d3a7f2e64.'),
        },
      },
    },
    unprocessable: {
      courier_disabled: {
        summary: 'A disabled courier',
        message: 'Courier cou_5b1e0c9d3a7f2e64 is disabled: it cannot sign in, so it gets no new password.',
      },
    },
  },
  opsDisableCourier: {
    responses: {
      200: {
        disabled: {
          summary: 'Disabled: its sessions ended',
          value: {
            ok: true,
            courier: { ...COURIER, must_choose_password: false, disabled_at: '2026-11-24T18:02:00.000Z' },
          },
        },
      },
    },
  },
  opsListRounds: {
    responses: { 200: { day: { summary: "A day's rounds", value: { ok: true, rounds: [ROUND] } } } },
  },
  opsGetRound: {
    responses: { 200: { round: { summary: 'A round', value: { ok: true, round: ROUND } } }, 404: NO_ROUND },
  },
  opsPlanRounds: {
    request: {
      plan: { summary: 'Plan a day and assign couriers', value: { date: '2026-11-24', assign: true } },
    },
    responses: { 200: { planned: { summary: 'The day planned', value: { ok: true, rounds: [ROUND] } } } },
  },
  opsCreateRound: {
    request: {
      external: {
        summary: "An external planner's round",
        value: {
          date: '2026-11-24',
          name: 'North 1',
          courier_id: 'cou_5b1e0c9d3a7f2e64',
          stops: [{ pickup_id: 'pck_5b1e0c9d3a7f2e64' }, { tracking_ref: 'DLV-9F3H7K2MXQ' }],
        },
      },
    },
    responses: {
      201: { created: { summary: 'Created', value: { ok: true, round: { ...ROUND, name: 'North 1' } } } },
    },
    unprocessable: STOP_REFUSALS,
  },
  opsPinRoundStop: {
    request: {
      pin: {
        summary: 'Pin a delivery to its round',
        value: { stop: { tracking_ref: 'DLV-9F3H7K2MXQ' }, pinned: true, version: 3 },
      },
    },
    responses: {
      200: { pinned: { summary: 'Pinned', value: { ok: true, round: ROUND } } },
      404: NO_ROUND,
      409: ROUND_CONFLICT,
    },
  },
  opsMoveRoundStop: {
    request: {
      move: {
        summary: 'To the first place of another round',
        value: {
          stop: { tracking_ref: 'DLV-9F3H7K2MXQ' },
          to_round_id: 'rnd_9c8b7a6f5e4d3c2b',
          position: 1,
          version: 3,
          to_version: 5,
        },
      },
    },
    responses: {
      200: {
        moved: {
          summary: 'Moved',
          value: {
            ok: true,
            from: ROUND,
            to: { ...ROUND, id: 'rnd_9c8b7a6f5e4d3c2b', name: 'Van 2', version: 6 },
          },
        },
      },
      404: NO_ROUND,
      409: ROUND_CONFLICT,
    },
  },
  opsSetShift: {
    request: {
      shift: {
        summary: 'Léa drives Van 1 from 8 to 16, with 30 minutes’ lunch between 12 and 14',
        value: {
          courier_id: 'cou_5b1e0c9d3a7f2e64',
          date: '2026-11-24',
          starts_at: '08:00',
          ends_at: '16:00',
          vehicle_id: 'Van 1',
          break: { from: '12:00', until: '14:00', minutes: 30 },
        },
      },
    },
    responses: { 200: { set: { summary: 'Set', value: { ok: true, shift: SHIFT } } } },
    unprocessable: { courier_disabled: STOP_REFUSALS.courier_disabled as Unprocessable },
  },
  opsAssignRound: {
    request: { assign: { summary: 'Give it to a courier', value: { courier_id: 'cou_5b1e0c9d3a7f2e64' } } },
    responses: {
      200: { assigned: { summary: 'Assigned', value: { ok: true, round: ROUND } } },
      404: NO_ROUND,
      409: ROUND_CONFLICT,
    },
    unprocessable: { courier_disabled: STOP_REFUSALS.courier_disabled as Unprocessable },
  },
  opsSetRoundStops: {
    request: {
      reorder: {
        summary: 'The delivery before the pickup',
        value: { stops: [{ tracking_ref: 'DLV-9F3H7K2MXQ' }, { pickup_id: 'pck_5b1e0c9d3a7f2e64' }] },
      },
    },
    responses: {
      200: { reordered: { summary: 'Reordered', value: { ok: true, round: ROUND } } },
      404: NO_ROUND,
      409: ROUND_CONFLICT,
    },
    unprocessable: {
      already_on_round: STOP_REFUSALS.already_on_round!,
      unknown_stops: STOP_REFUSALS.unknown_stops!,
      invalid_stops: STOP_REFUSALS.invalid_stops!,
    },
  },
};
