/**
 * The time, as the services read it: given by deps.ts (the system clock) and by tests (a clock
 * they move), so rules about expiry, grace periods and business days are tested without waiting.
 */
export type Clock = () => Date;
