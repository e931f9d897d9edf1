import type { Pickup } from './ports.ts';

/** A pickup in the public JSON (the API, the CLI's --json, the account area's forms). */
export function pickupJson(p: Pickup) {
  return {
    id: p.id,
    date: p.date,
    pickup_address: p.pickupAddress,
    window: { start: p.window.start, end: p.window.end },
    status: p.status,
    requested: p.requestedAt !== null,
    orders: p.orderRefs,
    missing: p.missingRefs,
    closed_at: p.closedAt ? p.closedAt.toISOString() : null,
  };
}
