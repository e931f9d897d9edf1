import type { RoundPosition } from './notification-ports.ts';

/** Time a courier takes per delivery stop (SPEC §10's estimate). */
const MINUTES_PER_STOP = 12;
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const WINDOW_MS = 2 * 60 * 60 * 1000;

export interface DeliveryWindow {
  from: Date;
  to: Date;
}

/**
 * The 2-hour window announced with "out for delivery": from the loading scan, 12 minutes per
 * delivery still ahead of this one on the round, rounded down to the quarter hour (a recipient
 * told "from 10:15" is home by then), for two hours. Paris is a whole number of hours from UTC,
 * so a quarter hour of UTC is one of Paris.
 */
export function deliveryWindow(position: RoundPosition): DeliveryWindow {
  const estimate = position.loadedAt.getTime() + position.stopsBefore * MINUTES_PER_STOP * 60 * 1000;
  const from = Math.floor(estimate / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  return { from: new Date(from), to: new Date(from + WINDOW_MS) };
}
