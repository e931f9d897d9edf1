import type { RedisHealth } from './redis-health.ts';
import { type BucketPolicy, type Decision, decide, type RateLimiter } from './token-bucket.ts';

// The bucket update as one atomic script, using Redis's clock so instances with skewed clocks agree.
// Returns the tokens available before this request (as a string, to keep the fraction).
const TAKE = `
local now = redis.call('TIME')
local t = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(state[1]), tonumber(state[2])
if tokens == nil then tokens = burst; at = t end
tokens = math.min(burst, tokens + (t - at) / 1000 * rate)
local after = tokens
if tokens >= 1 then after = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(after), 'at', t)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(tokens)
`;

// One request given back (an attempt that succeeded, where only failures count), never past the
// burst; a bucket that expired meanwhile is full already.
const REFUND = `
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
if tokens ~= nil then
  redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[1]), tokens + 1)))
end
return 1
`;

/** How long the first request waits for Redis at start-up before failing open. */
const CONNECT_WAIT_MS = 1000;

/**
 * Shares the limits between every API instance through Redis. If Redis cannot be reached the
 * request is let through (fail open): rate limiting protects the service, it must not take it down.
 */
export function redisRateLimiter(url: string, policy: BucketPolicy, health?: RedisHealth): RateLimiter {
  // ioredis is loaded here, when a limiter is first used with REDIS_URL set, never by a process without it.
  const connected = import('ioredis').then(({ Redis }) => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    // Reconnection attempts fail here too, a few times a second: the health object rate-limits the lines.
    redis.on('error', (err: Error) => health?.failed(err));
    redis.on('ready', () => health?.answered());
    redis.defineCommand('dlvTakeToken', { numberOfKeys: 1, lua: TAKE });
    redis.defineCommand('dlvRefundToken', { numberOfKeys: 1, lua: REFUND });
    // Without an offline queue a command sent before the connection is up fails (and the limiter
    // lets it through): a fresh instance's first requests would go uncounted, a burst of guesses
    // among them. The first take waits for the connection, at most CONNECT_WAIT_MS; later ones never.
    return new Promise<typeof redis>((resolve) => {
      const done = () => resolve(redis);
      redis.once('ready', done);
      setTimeout(done, CONNECT_WAIT_MS).unref();
    });
  });
  return {
    async take(key): Promise<Decision> {
      try {
        const take = (await connected) as unknown as {
          dlvTakeToken(key: string, rate: number, burst: number): Promise<string>;
        };
        const tokens = Number(
          await take.dlvTakeToken(`dlv:ratelimit:${key}`, policy.perSecond, policy.burst),
        );
        if (health?.failingOpen()) health.answered();
        return decide(policy, tokens);
      } catch (err) {
        health?.failed(err as Error);
        return { allowed: true, remaining: policy.burst, retryAfterMs: 0, resetMs: 0 };
      }
    },
    async refund(key) {
      try {
        const redis = (await connected) as unknown as {
          dlvRefundToken(key: string, burst: number): Promise<number>;
        };
        await redis.dlvRefundToken(`dlv:ratelimit:${key}`, policy.burst);
      } catch (err) {
        // Failing open as `take` does: a lost refund costs one request of the allowance at most.
        health?.failed(err as Error);
      }
    },
    async close() {
      (await connected).disconnect();
    },
  };
}
