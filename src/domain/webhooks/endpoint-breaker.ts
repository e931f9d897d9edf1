/** When a failing endpoint's circuit opens, and for how long. */
export interface BreakerPolicy {
  /** Consecutive failed attempts (an error status, a timeout, no connection) that open it. */
  failures: number;
  /** How long it stays open: none of the endpoint's deliveries is attempted meanwhile. */
  pauseMs: number;
}

interface BreakerState {
  failures: number;
  /** Open until then (ms); null: closed. */
  openUntil: number | null;
}

export type BreakerChange = 'opened' | 'closed' | null;

/**
 * A circuit breaker per endpoint, in this process's memory. Closed, attempts go as the per-endpoint
 * limit allows; after `failures` failed attempts in a row it opens: the endpoint's deliveries wait
 * in the table, untried and holding nothing, for `pauseMs`; then one probe is let through
 * (half-open): a success closes it, a failure opens it again. Attempts still in flight when it
 * opened do not extend the pause. Endpoints without a state are closed, so healthy ones cost nothing.
 */
export function endpointBreakers(policy: BreakerPolicy) {
  const states = new Map<string, BreakerState>();
  return {
    /**
     * How many attempts the breaker lets start now: null (no limit of its own), 0 while open, 1
     * once the pause is over (the probe).
     */
    allowance(endpointId: string, now: number): number | null {
      const state = states.get(endpointId);
      if (!state || state.openUntil === null) return null;
      return now < state.openUntil ? 0 : 1;
    },
    record(endpointId: string, ok: boolean, now: number): BreakerChange {
      const state = states.get(endpointId);
      if (ok) {
        states.delete(endpointId);
        return state?.openUntil != null ? 'closed' : null;
      }
      if (!state) {
        if (policy.failures <= 1) {
          states.set(endpointId, { failures: 1, openUntil: now + policy.pauseMs });
          return 'opened';
        }
        states.set(endpointId, { failures: 1, openUntil: null });
        return null;
      }
      state.failures += 1;
      if (state.openUntil !== null) {
        // The probe failed: open again. A failure of an attempt started before it opened: no change.
        if (now >= state.openUntil) {
          state.openUntil = now + policy.pauseMs;
          return 'opened';
        }
        return null;
      }
      if (state.failures >= policy.failures) {
        state.openUntil = now + policy.pauseMs;
        return 'opened';
      }
      return null;
    },
    /** Endpoints with a breaker not closed, or failing: those the claims must ask about. */
    tracked(): string[] {
      return [...states.keys()];
    },
  };
}
