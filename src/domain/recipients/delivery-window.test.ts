import { describe, expect, it } from 'vitest';
import { deliveryWindow } from './delivery-window.ts';

describe('deliveryWindow', () => {
  it('adds 12 minutes per stop ahead, rounds down to the quarter hour, lasts two hours', () => {
    // Loaded 09:07 Paris (08:07 UTC), 4 stops ahead: 09:55 → 09:45–11:45.
    const window = deliveryWindow({ loadedAt: new Date('2026-11-25T08:07:00Z'), stopsBefore: 4 });
    expect(window).toEqual({ from: new Date('2026-11-25T08:45:00Z'), to: new Date('2026-11-25T10:45:00Z') });
  });

  it('the first stop starts at the loading time’s quarter hour', () => {
    const window = deliveryWindow({ loadedAt: new Date('2026-11-25T08:00:00Z'), stopsBefore: 0 });
    expect(window.from).toEqual(new Date('2026-11-25T08:00:00Z'));
    expect(window.to).toEqual(new Date('2026-11-25T10:00:00Z'));
  });

  it('an exact quarter hour stays itself', () => {
    // 08:30 + 5 × 12 min = 09:30.
    const window = deliveryWindow({ loadedAt: new Date('2026-11-25T07:30:00Z'), stopsBefore: 5 });
    expect(window.from).toEqual(new Date('2026-11-25T08:30:00Z'));
  });
});
