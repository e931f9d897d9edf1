import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, timeStep, totpAt } from './totp.ts';

// RFC 4226 Appendix D and RFC 6238 Appendix B: the SHA-1 secret is the ASCII of "12345678901234567890".
const SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP (RFC 4226 Appendix D)', () => {
  it('gives the published value for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(SECRET, counter))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238 Appendix B, SHA-1)', () => {
  const vectors: [number, string, string][] = [
    [59, '1970-01-01T00:00:59Z', '94287082'],
    [1111111109, '2005-03-18T01:58:29Z', '07081804'],
    [1111111111, '2005-03-18T01:58:31Z', '14050471'],
    [1234567890, '2009-02-13T23:31:30Z', '89005924'],
    [2000000000, '2033-05-18T03:33:20Z', '69279037'],
    [20000000000, '2603-10-11T11:33:20Z', '65353130'],
  ];
  it.each(vectors)('at %i s (%s) the 8-digit code is %s', (seconds, iso, code) => {
    const at = new Date(seconds * 1000);
    expect(at.toISOString().replace('.000', '')).toBe(iso);
    expect(totpAt(SECRET, at, 8)).toBe(code);
  });

  it('takes the 6-digit code of the current step or the one either side, once each', () => {
    const at = new Date(1111111111 * 1000);
    const step = timeStep(at);
    expect(step).toBe(37037037);
    expect(matchingStep(SECRET, totpAt(SECRET, at), at, null)).toBe(step);
    expect(matchingStep(SECRET, hotp(SECRET, step - 1), at, null)).toBe(step - 1);
    expect(matchingStep(SECRET, hotp(SECRET, step + 1), at, null)).toBe(step + 1);
    expect(matchingStep(SECRET, hotp(SECRET, step - 2), at, null)).toBeNull();
    expect(matchingStep(SECRET, hotp(SECRET, step + 2), at, null)).toBeNull();
    // Accepted once: a step already used (or an earlier one) is refused.
    expect(matchingStep(SECRET, totpAt(SECRET, at), at, step)).toBeNull();
    expect(matchingStep(SECRET, hotp(SECRET, step - 1), at, step - 1)).toBeNull();
    expect(matchingStep(SECRET, hotp(SECRET, step + 1), at, step)).toBe(step + 1);
    // Spaces as typed are fine; anything else than six digits is not a code.
    const code = totpAt(SECRET, at);
    expect(matchingStep(SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, at, null)).toBe(step);
    for (const bad of ['', '12345', '1234567', 'abcdef', `${code}0`])
      expect(matchingStep(SECRET, bad, at, null)).toBeNull();
  });
});

describe('base32 (RFC 4648 §10) and the otpauth URI', () => {
  it('encodes and decodes the RFC test vectors, without padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
      expect(base32Decode(`${encoded.toLowerCase()}===`).toString()).toBe(plain);
    }
    expect(base32Encode(SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(() => base32Decode('MZ1W')).toThrow(/not base32/);
  });

  it('names the issuer and the account, with the secret in base32', () => {
    const uri = otpauthUri({ issuer: 'Livraison DLV', account: 'ana@dlv.example', secret: SECRET });
    expect(uri).toBe(
      'otpauth://totp/Livraison%20DLV:ana%40dlv.example?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Livraison%20DLV&algorithm=SHA1&digits=6&period=30',
    );
  });
});
