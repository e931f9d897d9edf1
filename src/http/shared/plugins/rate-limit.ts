import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../errors.ts';
import type { RateLimiter } from '../../../infra/rate-limit/token-bucket.ts';

const POLICY_NAME = 'per-key';

/**
 * Limits each API key (after authentication, so the bucket is the key's, not an address's) and
 * describes the policy with the IETF RateLimit-Policy / RateLimit header fields. Refused requests
 * get 429 `rate_limited` with Retry-After.
 */
export function registerRateLimit(
  app: FastifyInstance,
  limiter: RateLimiter,
  policy: { perSecond: number; burst: number },
): void {
  const window = Math.max(1, Math.ceil(policy.burst / policy.perSecond));
  const policyHeader = `"${POLICY_NAME}";q=${policy.burst};w=${window}`;
  // Built once: a flooding key is refused thousands of times a second, and capturing a stack trace
  // for each refusal would be the costliest part of saying no (the error carries nothing per request).
  const refusal = new AppError(
    'rate_limited',
    `Too many requests for this API key: ${policy.perSecond} per second, bursts of ${policy.burst}.`,
  );
  app.addHook('onRequest', async (request, reply) => {
    const key = request.principal?.kind === 'apiKey' ? request.principal.key.id : undefined;
    if (!key) return; // public routes and requests refused by authentication
    const decision = await limiter.take(key);
    reply.header('ratelimit-policy', policyHeader);
    reply.header(
      'ratelimit',
      `"${POLICY_NAME}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`,
    );
    if (!decision.allowed) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
      throw refusal;
    }
  });
  app.addHook('onClose', () => limiter.close());
}
