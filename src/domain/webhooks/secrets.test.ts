import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret } from './secrets.ts';

describe('generateWebhookSecret', () => {
  it('is whsec_ + base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('never repeats', () => {
    const secrets = new Set(Array.from({ length: 200 }, generateWebhookSecret));
    expect(secrets.size).toBe(200);
  });

  it('is accepted by the Standard Webhooks library', () => {
    expect(() => new Webhook(generateWebhookSecret())).not.toThrow();
  });
});

describe('isWebhookSecret', () => {
  it('accepts generated secrets', () => {
    expect(isWebhookSecret(generateWebhookSecret())).toBe(true);
  });

  it.each([
    ['no prefix', Buffer.alloc(32, 1).toString('base64')],
    ['empty', 'whsec_'],
    ['not base64', 'whsec_not*base64!!'],
    ['too short', `whsec_${Buffer.alloc(8, 1).toString('base64')}`],
    ['too long', `whsec_${Buffer.alloc(100, 1).toString('base64')}`],
  ])('rejects %s', (_label, value) => {
    expect(isWebhookSecret(value)).toBe(false);
  });
});
