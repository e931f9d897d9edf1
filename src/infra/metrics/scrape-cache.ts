/**
 * `read` at most once per `ttlMs`, its result shared by the scrapes in between and by concurrent
 * ones (a scrape of every instance at once costs one query per instance, not one per scraper).
 * A failure is not kept: the next scrape tries again.
 */
export function scrapeCache<T>(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
  let value: { at: number; result: T } | null = null;
  let inFlight: Promise<T> | null = null;
  return (): Promise<T> => {
    if (value && now() - value.at < ttlMs) return Promise.resolve(value.result);
    inFlight ??= read().then(
      (result) => {
        value = { at: now(), result };
        inFlight = null;
        return result;
      },
      (err: unknown) => {
        inFlight = null;
        throw err;
      },
    );
    return inFlight;
  };
}
