import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { boundedMemo } from '../shared/bounded-memo.ts';

const WEBHOOK_USER_AGENT = 'dlv-webhooks/1.0';
const SECRET_PREFIX = 'whsec_';

export interface SignPayloadInput {
  /** Stable across retries and replays so receivers can deduplicate (at-least-once delivery). */
  msgId: string;
  /** The attempt's time, not the event's: receivers reject timestamps older than ~5 minutes. */
  timestamp: Date;
  body: string;
  /** Current secret first; during a rotation the previous one too, so old receivers keep verifying. */
  secrets: string[];
}

/**
 * Decoded signing keys by secret. Every delivery is signed: decoding the secret each time (and the
 * standardwebhooks package's pure JavaScript SHA-256) cost more than the rest of the signature; node's
 * own HMAC with the key decoded once signs the same bytes. Bounded: forgotten all at once past the limit.
 */
const keys = boundedMemo<string, KeyObject>(10_000);

function keyOf(secret: string): KeyObject {
  return keys(secret, () => {
    const raw = Buffer.from(
      secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
      'base64',
    );
    if (raw.length === 0) throw new Error('a webhook signing secret cannot be empty');
    return createSecretKey(raw);
  });
}

/** The request headers of one delivery attempt, per the Standard Webhooks specification. */
export function signPayload(input: SignPayloadInput): Record<string, string> {
  const secrets = input.secrets.length === 1 ? input.secrets : [...new Set(input.secrets)];
  if (secrets.length === 0) throw new Error('signPayload needs at least one secret');
  const timestamp = String(Math.floor(input.timestamp.getTime() / 1000));
  const signed = `${input.msgId}.${timestamp}.${input.body}`;
  const signatures = secrets.map(
    (secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`,
  );
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': input.msgId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}
