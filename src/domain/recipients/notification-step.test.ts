import { describe, expect, it } from 'vitest';
import { stepOf } from './notification-step.ts';

const order = (status: string, promised_date: string | null = '2026-11-25') => ({
  tracking_ref: 'DLV-7RHSCC7RYX',
  status,
  promised_date,
});

describe('stepOf', () => {
  it('confirmed: born pending with its promised day, or its address completed', () => {
    expect(stepOf('order.created', { order: order('pending') })).toBe('confirmed');
    expect(stepOf('order.created', { order: order('awaiting_address', null) })).toBeNull();
    expect(stepOf('order.created', { order: order('pending', null) })).toBeNull();
    expect(
      stepOf('order.status_changed', { order: order('pending'), previous_status: 'awaiting_address' }),
    ).toBe('confirmed');
    // Back to pending for another reason (a missed pickup moved on): nothing new to say.
    expect(
      stepOf('order.status_changed', { order: order('pending'), previous_status: 'picked_up' }),
    ).toBeNull();
  });

  it('the street’s moves, and nothing for the others', () => {
    for (const status of ['out_for_delivery', 'delivered', 'failed_attempt'])
      expect(stepOf('order.status_changed', { order: order(status), previous_status: 'in_transit' })).toBe(
        status,
      );
    for (const status of ['picked_up', 'in_transit', 'returned', 'cancelled'])
      expect(stepOf('order.status_changed', { order: order(status), previous_status: 'pending' })).toBeNull();
    // The convenience events repeat order.status_changed: never told twice.
    expect(stepOf('order.delivered', { order: order('delivered') })).toBeNull();
    expect(stepOf('order.labelled', { order: order('pending') })).toBeNull();
    expect(stepOf('order.status_changed', {})).toBeNull();
  });
});
