/**
 * The time, as the services read it: given by deps.ts (the system clock) and by tests (a clock
 * they move), so rules about expiry, grace periods and business days are tested without waiting.
 */
export type Clock = () => Date;

/** The system clock: what runs outside tests. */
export const systemClock: Clock = () => new Date();

/**
 * The clock's time in milliseconds, for hot paths that only compare times: with the system clock,
 * Date.now (no Date object per call); with a test's clock, that clock's time.
 */
export function millisOf(clock: Clock): () => number {
  return clock === systemClock ? Date.now : () => clock().getTime();
}
