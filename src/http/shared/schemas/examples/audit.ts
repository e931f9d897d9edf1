import type { OperationExamples } from './types.ts';

const MOVE = {
  id: '184467',
  at: '2026-11-24T09:42:17.203Z',
  actor: { kind: 'bootstrap', id: null, label: 'OPS_TOKEN' },
  origin: {
    client_address: '10.20.30.40',
    user_agent: 'depot-scanner/3.1',
    request_id: 'req_3f9a0c1d2e3f000000000042',
  },
  action: 'order.status_changed',
  object: { type: 'order', id: 'DLV-7K3M9Q2XHP' },
  brand_id: 'brd_3f9a0c1d2e3f4a5b',
  order_refs: ['DLV-7K3M9Q2XHP'],
  changes: { status: { before: 'pending', after: 'picked_up' } },
  details: null,
};

const READ = {
  id: '184466',
  at: '2026-11-24T09:40:03.915Z',
  actor: { kind: 'cli', id: 'alice@depot-1', label: 'alice@depot-1' },
  origin: null,
  action: 'recipient.read',
  object: { type: 'order', id: 'DLV-7K3M9Q2XHP' },
  brand_id: 'brd_3f9a0c1d2e3f4a5b',
  order_refs: ['DLV-7K3M9Q2XHP'],
  changes: null,
  details: { view: 'order' },
};

export const OPS_AUDIT_EXAMPLES: Record<string, OperationExamples> = {
  opsListAudit: {
    responses: {
      200: {
        order: {
          summary: "An order's trail: a move by the OPS_TOKEN, a read by dlv",
          value: { ok: true, events: [MOVE, READ], next_cursor: null },
        },
      },
    },
  },
};
