import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialCipher } from './credentials.ts';

describe('credentialCipher', () => {
  const key = randomBytes(32);
  const cipher = credentialCipher(async () => key);

  it('round-trips, with a fresh IV each time and no plaintext in the bytes', async () => {
    const token = 'shpat_0123456789abcdef0123456789abcdef';
    const a = await cipher.encrypt(token, 'con_0000000000000001');
    const b = await cipher.encrypt(token, 'con_0000000000000001');
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from(token))).toBe(false);
    expect(a.includes(Buffer.from('shpat_'))).toBe(false);
    expect(await cipher.decrypt(a, 'con_0000000000000001')).toBe(token);
  });

  it('refuses another connection’s ciphertext, another key and altered bytes', async () => {
    const sealed = await cipher.encrypt('secret', 'con_0000000000000001');
    await expect(cipher.decrypt(sealed, 'con_0000000000000002')).rejects.toThrow();
    await expect(
      credentialCipher(async () => randomBytes(32)).decrypt(sealed, 'con_0000000000000001'),
    ).rejects.toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    await expect(cipher.decrypt(altered, 'con_0000000000000001')).rejects.toThrow();
  });

  it('refuses a key that is not 256 bits', async () => {
    await expect(credentialCipher(async () => randomBytes(16)).encrypt('x', 'c')).rejects.toThrow(/32 bytes/);
  });
});
