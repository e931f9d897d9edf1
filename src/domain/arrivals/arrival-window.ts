/**
 * The recipient's two-hour window around an estimated arrival (docs/arrival-times.md). The window
 * opens half an hour before the estimate, rounded down to the quarter hour ("from 10:15": the
 * recipient is home by then), and lasts two hours: a courier running up to about 75 minutes late
 * or 30 minutes early still arrives inside it, which is how delays pile up along a round (rarely
 * early, sometimes late). Paris is a whole number of hours from UTC, so a quarter hour of UTC is one
 * of Paris.
 */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const LEAD_MS = 30 * 60 * 1000;
const WINDOW_MS = 2 * 60 * 60 * 1000;
/** How far the estimate must move before the recipient is told another window (`order.eta_changed`). */
const WINDOW_MOVE_MS = 30 * 60 * 1000;

export interface ArrivalWindow {
  start: Date;
  end: Date;
}

/** `notBefore`: when the estimate is made (a window never opens in the past's quarter hours). */
export function windowAround(eta: Date, notBefore: Date): ArrivalWindow {
  const quarter = (ms: number) => Math.floor(ms / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const start = Math.max(
    quarter(eta.getTime() - LEAD_MS),
    quarter(Math.min(notBefore.getTime(), eta.getTime())),
  );
  return { start: new Date(start), end: new Date(start + WINDOW_MS) };
}

/**
 * The window to keep after a new estimate: the one already told while the estimate's own window
 * is less than 30 minutes from it (a window that shifts at every scan is no promise), else the new
 * one, `moved` (the recipient is told again).
 */
export function nextWindow(
  told: ArrivalWindow | null,
  eta: Date,
  notBefore: Date,
): { window: ArrivalWindow; moved: boolean } {
  const fresh = windowAround(eta, notBefore);
  if (told === null) return { window: fresh, moved: false };
  if (Math.abs(fresh.start.getTime() - told.start.getTime()) >= WINDOW_MOVE_MS)
    return { window: fresh, moved: true };
  return { window: told, moved: false };
}
