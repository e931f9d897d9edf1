import { describe, expect, it } from 'vitest';
import { deliveryOutcome } from './delivery-outcome.ts';
import { signingSecrets } from './endpoint.ts';

const now = new Date('2026-03-10T12:00:00Z');
const failed = (status: number | null, retryAfter: string | null = null) => ({
  ok: false,
  status,
  retryAfter,
});
const middle = () => 0.5;

describe('deliveryOutcome', () => {
  it('ends the delivery on success', () => {
    expect(
      deliveryOutcome({
        attempt: 3,
        result: { ok: true, status: 200, retryAfter: null },
        now,
        firstFailureAt: now,
      }),
    ).toEqual({ status: 'succeeded', nextAttemptAt: null, disableReason: null });
  });

  it('schedules the next attempt after a failure', () => {
    expect(
      deliveryOutcome({ attempt: 1, result: failed(500), now, firstFailureAt: null, random: middle }),
    ).toEqual({
      status: 'failed',
      nextAttemptAt: new Date(now.getTime() + 5000),
      disableReason: null,
    });
    expect(
      deliveryOutcome({ attempt: 2, result: failed(null), now, firstFailureAt: now, random: middle }),
    ).toMatchObject({ nextAttemptAt: new Date(now.getTime() + 300_000) });
  });

  it('gives up after the eighth attempt', () => {
    expect(deliveryOutcome({ attempt: 8, result: failed(500), now, firstFailureAt: now })).toEqual({
      status: 'exhausted',
      nextAttemptAt: null,
      disableReason: null,
    });
  });

  it('disables on 410 at once, and after 5 days of failures', () => {
    expect(deliveryOutcome({ attempt: 1, result: failed(410), now, firstFailureAt: null })).toMatchObject({
      status: 'exhausted',
      disableReason: 'the receiver answered 410 Gone',
    });
    const fiveDaysAgo = new Date(now.getTime() - 5 * 24 * 3600_000);
    expect(
      deliveryOutcome({ attempt: 1, result: failed(500), now, firstFailureAt: fiveDaysAgo }),
    ).toMatchObject({
      status: 'exhausted',
      disableReason: `failing since ${fiveDaysAgo.toISOString()} (5 days)`,
    });
  });
});

describe('signingSecrets', () => {
  const secrets = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: now };
  it('signs with both secrets until the previous one expires, then with the current one only', () => {
    expect(signingSecrets(secrets, new Date(now.getTime() - 1))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(secrets, now)).toEqual(['whsec_new']);
    expect(signingSecrets({ ...secrets, previousSecret: null, previousSecretExpiresAt: null }, now)).toEqual([
      'whsec_new',
    ]);
  });
});
