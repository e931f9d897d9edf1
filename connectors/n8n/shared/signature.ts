import { createHmac, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks' default: a delivery more than 5 minutes from our clock is a replay. */
const TOLERANCE_SECONDS = 5 * 60;

export type Headers = Record<string, string | string[] | undefined>;

/**
 * Verifies a Standard Webhooks signature (https://www.standardwebhooks.com, "Verifying
 * signatures"): HMAC-SHA256, keyed with the base64 part of `whsec_…`, over
 * `${webhook-id}.${webhook-timestamp}.${raw body}`; `webhook-signature` lists one or more
 * `v1,<base64>` separated by spaces (two after a secret rotation), any of which may match.
 * Returns why it failed, or null when the delivery is genuine.
 */
export function signatureProblem(
  secret: string,
  headers: Headers,
  rawBody: Buffer,
  now = Date.now(),
): string | null {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures)
    return 'missing webhook-id, webhook-timestamp or webhook-signature header';
  if (!/^\d{1,12}$/.test(timestamp)) return 'malformed webhook-timestamp';
  if (Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_SECONDS)
    return 'webhook-timestamp too far from now';

  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]))
    .digest();
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return 'no signature matches the subscription secret';
}
