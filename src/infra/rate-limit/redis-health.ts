/**
 * Whether the Redis behind the shared rate limits answers, and the one place its outages are logged.
 * The limiters fail open while Redis is away (rate limiting protects the service, it must not take it
 * down), so every request would otherwise log the same error: here the first failure is logged at
 * once, then at most one line a minute saying how many more there were, and the recovery once.
 * Readiness reads `failingOpen()` to say "degraded".
 */
export interface RedisHealth {
  failed(err: Error): void;
  /** Redis answered (a command succeeded, or the client reconnected). */
  answered(): void;
  failingOpen(): boolean;
  /** Where the outage lines go (the process's logger, once it exists); stderr until then. */
  logTo(log: OutageLog): void;
}

type OutageLog = (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void;

export function redisHealth(options: { now?: () => number; logEveryMs?: number } = {}): RedisHealth {
  const now = options.now ?? Date.now;
  const every = options.logEveryMs ?? 60_000;
  let log: OutageLog = (level, fields, message) =>
    process.stderr.write(`${JSON.stringify({ level, msg: message, ...fields })}\n`);
  let failing = false;
  let loggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return {
    failed(err) {
      failing = true;
      if (now() - loggedAt < every) {
        unlogged += 1;
        return;
      }
      log(
        'warn',
        { redis: 'unavailable', error: err.message, failuresSinceLastLine: unlogged },
        'rate limits: Redis unavailable, failing open (logged at most once a minute)',
      );
      loggedAt = now();
      unlogged = 0;
    },
    answered() {
      if (!failing) return;
      failing = false;
      log('info', { redis: 'ok', failuresSinceLastLine: unlogged }, 'rate limits: Redis is back');
      loggedAt = Number.NEGATIVE_INFINITY;
      unlogged = 0;
    },
    failingOpen: () => failing,
    logTo(next) {
      log = next;
    },
  };
}
