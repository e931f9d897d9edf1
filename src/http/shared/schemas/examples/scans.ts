import { errorExample, type OperationExamples } from './types.ts';

const HUB = {
  id: '6c1f2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  context: 'hub',
  code: 'DLV-7K3M9Q2XHP|PAR-11|1/2',
  happened_at: '2026-11-24T19:02:11+01:00',
};
const DOOR = {
  id: '8a2e4c6d-1f3b-4a5c-9d7e-2b4c6d8e0f1a',
  context: 'door',
  code: 'DLV-4T8N2W6RJC',
  happened_at: '2026-11-25T11:41:03+01:00',
  outcome: 'failed_attempt',
  reason: 'absent',
  location: { latitude: 48.8655, longitude: 2.3789 },
};

/** A door scan refused because the sender cancelled the order while the phone was offline. */
export const CANCELLED_MEANWHILE = {
  id: DOOR.id,
  result: 'refused',
  tracking_ref: 'DLV-4T8N2W6RJC',
  status: 'cancelled',
  problem: {
    code: 'order_cancelled',
    message: 'Parcel DLV-4T8N2W6RJC was cancelled by the sender: do not deliver it.',
  },
};

export const OPS_SCAN_EXAMPLES: Record<string, OperationExamples> = {
  opsApplyScans: {
    request: {
      offline: {
        summary: "A courier's queued scans, sent when the network returned",
        value: { courier_id: 'cou_5b1e0c9d3a7f2e64', scans: [HUB, DOOR] },
      },
    },
    responses: {
      200: {
        mixed: {
          summary: 'One applied, one refused',
          value: {
            ok: true,
            results: [
              {
                id: HUB.id,
                result: 'applied',
                tracking_ref: 'DLV-7K3M9Q2XHP',
                status: 'in_transit',
                problem: null,
              },
              CANCELLED_MEANWHILE,
            ],
          },
        },
      },
      400: {
        time: {
          summary: 'A time without its offset',
          value: errorExample(
            'invalid_request',
            'scans[1].happened_at: must be an ISO 8601 date-time with its offset (2026-11-24T15:30:00+01:00)',
            [
              {
                field: 'scans[1].happened_at',
                message: 'must be an ISO 8601 date-time with its offset (2026-11-24T15:30:00+01:00)',
              },
            ],
          ),
        },
      },
    },
  },
};
