import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.ts';
import { unsubscribeTokens } from './unsubscribe-token.ts';

const secret = randomBytes(32);
const tokens = unsubscribeTokens(async () => secret);

describe('unsubscribe tokens', () => {
  it('names the channel and the address digest, never the address', async () => {
    const token = await tokens.tokenFor('email', 'Jane.Doe@Example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{66}$/);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('example');
    const target = await tokens.read(token);
    expect(target?.channel).toBe('email');
    expect(target?.key.equals(addressKey('email', 'jane.doe@example.com'))).toBe(true);
  });

  it('refuses a token whose MAC, channel or length is wrong, or that another secret made', async () => {
    const token = await tokens.tokenFor('sms', '+33612345678');
    expect((await tokens.read(token))?.channel).toBe('sms');
    const bytes = Buffer.from(token, 'base64url');
    const flipped = Buffer.from(bytes);
    flipped[5]! ^= 1;
    expect(await tokens.read(flipped.toString('base64url'))).toBeNull();
    const otherChannel = Buffer.from(bytes);
    otherChannel[0] = 9;
    expect(await tokens.read(otherChannel.toString('base64url'))).toBeNull();
    expect(await tokens.read(token.slice(0, -1))).toBeNull();
    expect(await tokens.read(`${token}A`)).toBeNull();
    const other = unsubscribeTokens(async () => randomBytes(32));
    expect(await other.read(token)).toBeNull();
  });
});
