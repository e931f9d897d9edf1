import type { Pool } from '../../db/pool.ts';
import { consoleBoardRepository } from '../../db/repositories/console-board-repository.ts';

/** How often the board's fingerprint is read while someone watches: a change shows within this and a fetch. */
const POLL_MS = 500;

/**
 * The live board's one poller per process: while at least one board is open it reads the day's
 * fingerprint (a few indexed maxima) twice a second and tells every open board when it changes, so
 * a scan from the courier API shows on the board within a second without a reload. Polling keeps
 * it independent of which process (API, worker) made the change.
 */
export function boardWatcher(pool: Pool) {
  const reader = consoleBoardRepository(pool);
  const listeners = new Map<string, Set<() => void>>();
  const last = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  async function tick() {
    if (running) return;
    running = true;
    try {
      for (const [date, set] of listeners) {
        if (set.size === 0) continue;
        const now = await reader.fingerprint(date);
        const before = last.get(date);
        last.set(date, now);
        if (before !== undefined && before !== now) for (const notify of set) notify();
      }
    } catch {
      // The database may be back on the next tick; the boards keep their last state meanwhile.
    } finally {
      running = false;
    }
  }

  return {
    /** Calls `onChange` whenever the day's board changes, until the returned function is called. */
    watch(date: string, onChange: () => void): () => void {
      const set = listeners.get(date) ?? new Set<() => void>();
      listeners.set(date, set);
      set.add(onChange);
      timer ??= setInterval(tick, POLL_MS);
      return () => {
        set.delete(onChange);
        if (set.size === 0) {
          listeners.delete(date);
          last.delete(date);
        }
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    close() {
      if (timer) clearInterval(timer);
      timer = null;
      listeners.clear();
    },
  };
}
