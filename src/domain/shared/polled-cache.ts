/** A per-key cache that every instance drops when a version number in the database changes. */
export interface PolledCache<V> {
  /** The cached value, synchronously when known (the hot path allocates nothing). */
  get(key: string): V | Promise<V>;
  clear(): void;
  refresh(): Promise<void>;
  /** Starts polling; resolves once the first check is done (or failed: the timer retries). */
  startWatching(): Promise<void>;
  stopWatching(): void;
}

/**
 * A per-key cache that every instance drops when a version number in the database changes: each
 * instance polls that one number, so a change made by any instance (or the CLI) reaches all of
 * them within one poll. A change made by this instance can `clear()` at once.
 */
export function polledCache<V>(options: {
  load: (key: string) => Promise<V>;
  version: () => Promise<number>;
  refreshEveryMs: number;
}): PolledCache<V> {
  const entries = new Map<string, { value: V } | Promise<V>>();
  // Bumped on every clear, so a load that started before it cannot store a stale answer after it.
  let generation = 0;
  let seenVersion: number | null = null;
  let timer: NodeJS.Timeout | null = null;

  function clear(): void {
    entries.clear();
    generation++;
  }

  async function refresh(): Promise<void> {
    const version = await options.version();
    // Unknown before (first check failed): whatever was cached meanwhile may predate a change.
    if (version !== seenVersion) clear();
    seenVersion = version;
  }

  return {
    get(key: string): V | Promise<V> {
      const entry = entries.get(key);
      if (entry !== undefined) return entry instanceof Promise ? entry : entry.value;
      const started = generation;
      const loading = options.load(key).then(
        (value) => {
          if (generation === started) entries.set(key, { value });
          return value;
        },
        (err) => {
          // A failed load (database down) must not stick: the next call tries again.
          if (entries.get(key) === loading) entries.delete(key);
          throw err;
        },
      );
      entries.set(key, loading);
      return loading;
    },
    clear,
    refresh,
    async startWatching(): Promise<void> {
      await refresh().catch(() => {});
      timer ??= setInterval(() => refresh().catch(() => {}), options.refreshEveryMs);
      timer.unref();
    },
    stopWatching(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
