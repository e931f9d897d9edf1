import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addressKeys } from './address-key.ts';
import { unsubscribeTokens } from './unsubscribe-token.ts';

const secret = randomBytes(32);
const optOutKey = randomBytes(32);
const keys = addressKeys(async () => optOutKey);
const tokens = unsubscribeTokens(async () => secret, keys);
const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe('unsubscribe tokens', () => {
  it('name the channel and the keyed digest of the address, never the address', async () => {
    const token = await tokens.tokenFor('email', 'Jane.Doe@Example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{66}$/);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('example');
    const target = await tokens.read(token);
    expect(target?.channel).toBe('email');
    expect(target?.key.equals(await keys.of('email', 'jane.doe@example.com'))).toBe(true);
  });

  it('hold nothing a guessed address can be checked against without the opt-out key', async () => {
    const bytes = Buffer.from(await tokens.tokenFor('email', 'jane.doe@example.com'), 'base64url');
    const unkeyed = sha256('email:jane.doe@example.com');
    // Before: bytes 1–32 were that SHA-256, which anyone can compute from a guess.
    expect(bytes.includes(unkeyed)).toBe(false);
    expect(bytes.subarray(1, 33).equals(createHmac('sha256', optOutKey).update(unkeyed).digest())).toBe(true);
    // Another deployment's key gives another digest for the same address.
    const elsewhere = unsubscribeTokens(
      async () => secret,
      addressKeys(async () => randomBytes(32)),
    );
    const there = Buffer.from(await elsewhere.tokenFor('email', 'jane.doe@example.com'), 'base64url');
    expect(there.subarray(1, 33).equals(bytes.subarray(1, 33))).toBe(false);
  });

  it('read the links sent before the key (unkeyed digest, channel bytes 1 and 2) as the keyed digest', async () => {
    for (const [channel, byte, address] of [
      ['email', 1, 'jane.doe@example.com'],
      ['sms', 2, '+33612345678'],
    ] as const) {
      const body = Buffer.concat([Buffer.from([byte]), sha256(`${channel}:${address}`)]);
      const mac = createHmac('sha256', secret).update(body).digest().subarray(0, 16);
      const old = Buffer.concat([body, mac]).toString('base64url');
      const target = await tokens.read(old);
      expect(target?.channel).toBe(channel);
      expect(target?.key.equals(await keys.of(channel, address))).toBe(true);
    }
  });

  it('refuse a token whose MAC, channel or length is wrong, or that another secret made', async () => {
    const token = await tokens.tokenFor('sms', '+33612345678');
    expect((await tokens.read(token))?.channel).toBe('sms');
    const bytes = Buffer.from(token, 'base64url');
    const flipped = Buffer.from(bytes);
    flipped[5]! ^= 1;
    expect(await tokens.read(flipped.toString('base64url'))).toBeNull();
    for (const channel of [9, 1, 2]) {
      const otherChannel = Buffer.from(bytes);
      otherChannel[0] = channel;
      expect(await tokens.read(otherChannel.toString('base64url'))).toBeNull();
    }
    expect(await tokens.read(token.slice(0, -1))).toBeNull();
    expect(await tokens.read(`${token}A`)).toBeNull();
    const other = unsubscribeTokens(async () => randomBytes(32), keys);
    expect(await other.read(token)).toBeNull();
  });
});
