import type { BoardReader } from '../../domain/console/board.ts';

/**
 * How often the day's fingerprint is read while someone watches. The issue asks for a scan on the
 * board within 2 s: one poll (≤ 1 s) plus the page's fetch of the fragment (p50 ~100 ms for 40 rounds and
 * 1,500 stops, `BENCH_ONLY=console npm run bench`) keeps well inside it at half the reads of 500 ms.
 */
const BOARD_POLL_MS = 1000;

export interface BoardWatcher {
  /** Calls `onChange` whenever the day's board changes, until the returned function is called. */
  watch(date: string, onChange: () => void): () => void;
  /** How many boards are open in this process (for the tests and the bench). */
  watching(): number;
  close(): void;
}

/**
 * The live board's one poller per process, whatever the number of open boards: while at least one
 * SSE client watches a day it reads that day's fingerprint (a few indexed maxima) once per
 * `pollMs` — one read per day watched, shared by every client — and tells each open board when it
 * changes. With no client connected there is no timer and no query at all. Polling keeps it
 * independent of which process (API, worker) made the change; the next poll is scheduled only once
 * the current one is done, so a slow database never piles reads up.
 */
export function boardWatcher(
  reader: Pick<BoardReader, 'fingerprint'>,
  options: { pollMs?: number } = {},
): BoardWatcher {
  const pollMs = options.pollMs ?? BOARD_POLL_MS;
  const listeners = new Map<string, Set<() => void>>();
  const last = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let closed = false;
  /** The last read failed: the next waits a full period (never a tight loop on a database that is down). */
  let failed = false;

  function schedule() {
    if (timer || running || closed || listeners.size === 0) return;
    // A day just opened is read at once: its first read is the mark changes are measured from, and
    // a change made before it (a scan right after the board connected) would otherwise go unseen.
    const unmarked = [...listeners.keys()].some((date) => !last.has(date));
    timer = setTimeout(tick, unmarked && !failed ? 0 : pollMs);
    // An open stream keeps the process alive, not this timer.
    timer.unref();
  }

  async function tick() {
    timer = null;
    running = true;
    try {
      for (const [date, set] of [...listeners]) {
        const now = await reader.fingerprint(date);
        const before = last.get(date);
        // A board closed while the read was out has nobody to tell (and no mark to keep).
        if (!listeners.has(date)) continue;
        last.set(date, now);
        if (before !== undefined && before !== now) for (const notify of set) notify();
      }
      failed = false;
    } catch {
      // The database may be back on the next tick; the boards keep their last state meanwhile.
      failed = true;
    } finally {
      running = false;
      schedule();
    }
  }

  return {
    watch(date, onChange) {
      const set = listeners.get(date) ?? new Set<() => void>();
      listeners.set(date, set);
      set.add(onChange);
      if (!last.has(date) && timer) {
        // Waiting for the next poll: bring it forward to mark the new day now.
        clearTimeout(timer);
        timer = null;
      }
      schedule();
      return () => {
        set.delete(onChange);
        if (set.size > 0) return;
        listeners.delete(date);
        last.delete(date);
        if (listeners.size === 0 && timer) {
          clearTimeout(timer);
          timer = null;
        }
      };
    },
    watching: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      listeners.clear();
      last.clear();
    },
  };
}
