import { describe, expect, it } from 'vitest';
import {
  type Actor,
  assertTransition,
  canTransition,
  ORDER_STATUSES,
  type OrderStatus,
  TERMINAL_STATUSES,
} from './state-machine.ts';

// SPEC §5, written out independently of the module's table.
const ALLOWED = new Set([
  'awaiting_address>pending',
  'awaiting_address>cancelled',
  'pending>picked_up',
  'pending>cancelled',
  'picked_up>in_transit',
  'in_transit>out_for_delivery',
  'out_for_delivery>delivered',
  'out_for_delivery>failed_attempt',
  'failed_attempt>out_for_delivery',
  'failed_attempt>returned',
]);

function expected(from: OrderStatus, to: OrderStatus, actor: Actor): boolean {
  if (!ALLOWED.has(`${from}>${to}`)) return false;
  if (from === 'awaiting_address' && to === 'pending') return actor === 'address';
  if (actor === 'address') return false;
  if (actor === 'brand') return to === 'cancelled';
  // A courier's scan never cancels (nor completes an address, above).
  if (actor === 'courier') return to !== 'cancelled';
  return true;
}

describe('order state machine', () => {
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      it(`${from} → ${to}`, () => {
        expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}>${to}`));
        for (const actor of ['brand', 'operator', 'address', 'courier'] as const) {
          const attempt = () => assertTransition(from, to, actor);
          if (expected(from, to, actor)) expect(attempt, actor).not.toThrow();
          else expect(attempt, actor).toThrow(expect.objectContaining({ code: 'invalid_transition' }));
        }
      });
    }
  }

  it('has exactly three terminal statuses', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(['cancelled', 'delivered', 'returned']);
  });

  it('explains the refusal with the allowed next statuses', () => {
    expect(() => assertTransition('pending', 'delivered', 'operator')).toThrow(/"picked_up" or "cancelled"/);
    expect(() => assertTransition('delivered', 'returned', 'operator')).toThrow(/final/);
  });
});
