import { Webhook } from 'standardwebhooks';

const WEBHOOK_USER_AGENT = 'dlv-webhooks/1.0';

export interface SignPayloadInput {
  /** Stable across retries and replays so receivers can deduplicate (at-least-once delivery). */
  msgId: string;
  /** The attempt's time, not the event's: receivers reject timestamps older than ~5 minutes. */
  timestamp: Date;
  body: string;
  /** Current secret first; during a rotation the previous one too, so old receivers keep verifying. */
  secrets: string[];
}

/** The request headers of one delivery attempt, per the Standard Webhooks specification. */
export function signPayload(input: SignPayloadInput): Record<string, string> {
  const secrets = [...new Set(input.secrets)];
  if (secrets.length === 0) throw new Error('signPayload needs at least one secret');
  const signatures = secrets.map((secret) =>
    new Webhook(secret).sign(input.msgId, input.timestamp, input.body),
  );
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': input.msgId,
    'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
