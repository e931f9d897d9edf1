import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import { timeline } from './timeline.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute));
const events = (...statuses: OrderStatus[]) =>
  statuses.map((status, i) => ({ status, at: at(i), note: 'x' }));
const summary = (...statuses: OrderStatus[]) =>
  timeline(events(...statuses)).map(
    (s) => `${s.milestone}:${s.state}${s.at ? `@${s.at.getUTCMinutes()}` : ''}`,
  );

describe('the recipient timeline', () => {
  it('merges a completed address and detail edits into the first step, then shows what is to come', () => {
    expect(summary('awaiting_address', 'pending', 'pending')).toEqual([
      'created:current@0',
      'picked_up:upcoming',
      'in_transit:upcoming',
      'out_for_delivery:upcoming',
      'delivered:upcoming',
    ]);
  });

  it('ends at delivery', () => {
    expect(summary('pending', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered')).toEqual([
      'created:done@0',
      'picked_up:done@1',
      'in_transit:done@2',
      'out_for_delivery:done@3',
      'delivered:current@4',
    ]);
  });

  it('shows a failed attempt, then a new round out for delivery', () => {
    const statuses: OrderStatus[] = [
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
    ];
    expect(summary(...statuses).slice(4)).toEqual([
      'failed_attempt:current@4',
      'out_for_delivery:upcoming',
      'delivered:upcoming',
    ]);
    expect(summary(...statuses, 'returned').slice(4)).toEqual([
      'failed_attempt:done@4',
      'returned:current@5',
    ]);
  });

  it('stops at a cancellation', () => {
    expect(summary('pending', 'cancelled')).toEqual(['created:done@0', 'cancelled:current@1']);
  });
});
