import { describe, expect, it } from 'vitest';
import { isDue, pickupDateFor, pickupIdFor, whyUnavailable, windowProblem } from './pickup-day.ts';

describe('pickup day (SPEC §10: cut-off 12:00 Paris, business days)', () => {
  it('11:59 in Paris is the same day, 12:00 the next business day (winter, UTC+1)', () => {
    expect(pickupDateFor(new Date('2026-11-24T10:59:59.999Z'))).toBe('2026-11-24');
    expect(pickupDateFor(new Date('2026-11-24T11:00:00.000Z'))).toBe('2026-11-25');
  });

  it('the cut-off follows Paris across DST (summer, UTC+2)', () => {
    expect(pickupDateFor(new Date('2026-06-16T09:59:00Z'))).toBe('2026-06-16');
    expect(pickupDateFor(new Date('2026-06-16T10:00:00Z'))).toBe('2026-06-17');
    // Friday 23 October 2026 is still summer time; the Monday after DST ended (25 October) is winter.
    expect(pickupDateFor(new Date('2026-10-23T09:59:00Z'))).toBe('2026-10-23');
    expect(pickupDateFor(new Date('2026-10-26T10:59:00Z'))).toBe('2026-10-26');
    expect(pickupDateFor(new Date('2026-10-26T11:00:00Z'))).toBe('2026-10-27');
  });

  it('Friday after the cut-off, and the weekend, go to Monday', () => {
    expect(pickupDateFor(new Date('2026-11-27T11:00:00Z'))).toBe('2026-11-30');
    expect(pickupDateFor(new Date('2026-11-28T08:00:00Z'))).toBe('2026-11-30');
    expect(pickupDateFor(new Date('2026-11-29T22:59:00Z'))).toBe('2026-11-30');
  });

  it('a public holiday is skipped (11 November, 25 December)', () => {
    expect(pickupDateFor(new Date('2026-11-10T11:00:00Z'))).toBe('2026-11-12');
    expect(pickupDateFor(new Date('2026-11-11T08:00:00Z'))).toBe('2026-11-12');
    expect(pickupDateFor(new Date('2026-12-24T11:30:00Z'))).toBe('2026-12-28');
  });

  it('a day can be asked for until its cut-off, never on a weekend, holiday or in the past', () => {
    const morning = new Date('2026-11-24T10:59:00Z');
    const noon = new Date('2026-11-24T11:00:00Z');
    expect(whyUnavailable('2026-11-24', morning)).toBeNull();
    expect(whyUnavailable('2026-11-24', noon)?.code).toBe('pickup_cutoff_passed');
    expect(whyUnavailable('2026-11-25', noon)).toBeNull();
    expect(whyUnavailable('2026-11-23', morning)?.code).toBe('date_in_past');
    expect(whyUnavailable('2026-11-28', morning)).toMatchObject({
      code: 'not_a_business_day',
      message: expect.stringContaining('2026-11-30'),
    });
    expect(whyUnavailable('2026-12-25', morning)?.message).toMatch(/public holiday/);
  });

  it('a pickup is due from its cut-off on', () => {
    expect(isDue('2026-11-24', new Date('2026-11-24T10:59:00Z'))).toBe(false);
    expect(isDue('2026-11-24', new Date('2026-11-24T11:00:00Z'))).toBe(true);
    expect(isDue('2026-11-24', new Date('2026-11-25T06:00:00Z'))).toBe(true);
    expect(isDue('2026-11-25', new Date('2026-11-24T15:00:00Z'))).toBe(false);
  });

  it('windows: HH:MM, 08:00–19:00, at least two hours', () => {
    expect(windowProblem({ start: '14:00', end: '18:00' })).toBeNull();
    expect(windowProblem({ start: '08:00', end: '19:00' })).toBeNull();
    expect(windowProblem({ start: '7:00', end: '18:00' })?.field).toBe('window.start');
    expect(windowProblem({ start: '07:30', end: '18:00' })?.field).toBe('window.start');
    expect(windowProblem({ start: '14:00', end: '19:30' })?.field).toBe('window.end');
    expect(windowProblem({ start: '14:00', end: '15:00' })?.field).toBe('window.end');
    expect(windowProblem({ start: '18:00', end: '14:00' })?.field).toBe('window.end');
  });

  it('ids: one per brand, address and day', () => {
    const id = pickupIdFor('brd_0000000000000001', '1 rue de Rivoli 75001 Paris', '2026-11-24');
    expect(id).toMatch(/^pck_[0-9a-f]{16}$/);
    expect(pickupIdFor('brd_0000000000000001', '1 rue de Rivoli 75001 Paris', '2026-11-24')).toBe(id);
    expect(pickupIdFor('brd_0000000000000002', '1 rue de Rivoli 75001 Paris', '2026-11-24')).not.toBe(id);
    expect(pickupIdFor('brd_0000000000000001', '1 rue de Rivoli 75001 Paris', '2026-11-25')).not.toBe(id);
    expect(pickupIdFor('brd_0000000000000001', '2 rue de Rivoli 75001 Paris', '2026-11-24')).not.toBe(id);
  });
});
