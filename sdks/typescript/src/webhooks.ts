import type { WebhookEvent } from './generated.js';

/** A delivery whose signature, timestamp or headers do not check out: answer it 400 and drop it. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

const encoder = new TextEncoder();

/**
 * Verifies a webhook delivery as Standard Webhooks specifies (https://www.standardwebhooks.com):
 * the HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under the subscription's `whsec_` secret
 * must be one of the `webhook-signature` entries, and the timestamp within `toleranceSeconds` of
 * now. Pass the body exactly as received (the raw text, before any JSON parsing). Web Crypto only:
 * runs on Node ≥ 20, Deno, Bun, workers and browsers.
 */
export async function verifyWebhook<E = WebhookEvent>(
  secret: string,
  body: string | Uint8Array,
  headers: Headers,
  options: { toleranceSeconds?: number; now?: Date } = {},
): Promise<E> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, -timestamp or -signature');
  if (!/^[0-9]+$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('The webhook-timestamp is too far from now (a replay?)');
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const expected = await sign(secret, id, Number(timestamp), text);
  const matches = signatures
    .split(' ')
    .map((entry) => entry.split(',', 2))
    .some(
      ([version, signature]) => version === 'v1' && signature !== undefined && sameText(signature, expected),
    );
  if (!matches) throw new WebhookVerificationError('No signature matches the secret');
  return JSON.parse(text) as E;
}

/** The `v1` signature of a payload (what the API sends; useful to test a receiver). */
export async function sign(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    base64Decode(secret.startsWith('whsec_') ? secret.slice(6) : secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return base64Encode(new Uint8Array(mac));
}

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Compares in time independent of where the texts differ (no timing oracle on the signature). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function base64Decode(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
