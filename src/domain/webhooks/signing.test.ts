import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from './secrets.ts';
import { signPayload } from './signing.ts';

const body = JSON.stringify({ type: 'order.created', id: 'msg_1', created_at: '2026-01-01T00:00:00.000Z' });

describe('signPayload', () => {
  it('sets the Standard Webhooks and content headers', () => {
    const headers = signPayload({
      msgId: 'msg_0123',
      timestamp: new Date('2026-03-01T10:00:00.999Z'),
      body,
      secrets: [generateWebhookSecret()],
    });
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'dlv-webhooks/1.0',
      'webhook-id': 'msg_0123',
      'webhook-timestamp': String(Date.UTC(2026, 2, 1, 10) / 1000),
    });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('signs id.timestamp.body with HMAC-SHA256 of the decoded secret', () => {
    const secret = generateWebhookSecret();
    const timestamp = new Date('2026-03-01T10:00:00Z');
    const headers = signPayload({ msgId: 'msg_x', timestamp, body, secrets: [secret] });
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`msg_x.${timestamp.getTime() / 1000}.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('signs with every secret during a rotation, and each one verifies', () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const headers = signPayload({
      msgId: 'msg_r',
      timestamp: new Date(),
      body,
      secrets: [current, previous],
    });
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
  });

  it('fails verification for a tampered body, another secret or another id', () => {
    const secret = generateWebhookSecret();
    const headers = signPayload({ msgId: 'msg_t', timestamp: new Date(), body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body.replace('msg_1', 'msg_2'), headers)).toThrow(
      /No matching signature/,
    );
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_u' })).toThrow(
      /No matching signature/,
    );
  });

  it('signs the UTF-8 bytes of a body beyond ASCII as the standardwebhooks package verifies them', () => {
    const secret = generateWebhookSecret();
    const accented = JSON.stringify({
      type: 'order.created',
      id: 'msg_é',
      data: { city: 'Châlons-en-Champagne ✓' },
    });
    for (let i = 0; i < 2; i++) {
      // The second signature comes from the remembered key: it must verify too.
      const headers = signPayload({
        msgId: 'msg_é',
        timestamp: new Date(),
        body: accented,
        secrets: [secret],
      });
      expect(new Webhook(secret).verify(accented, headers)).toEqual(JSON.parse(accented));
    }
  });

  it('signs a duplicated secret once', () => {
    const secret = generateWebhookSecret();
    const headers = signPayload({ msgId: 'm', timestamp: new Date(), body, secrets: [secret, secret] });
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(1);
  });

  it('refuses to sign without a secret', () => {
    expect(() => signPayload({ msgId: 'm', timestamp: new Date(), body, secrets: [] })).toThrow(/secret/);
  });
});
