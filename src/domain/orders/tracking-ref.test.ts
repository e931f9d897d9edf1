import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateTrackingRef,
  generateTrackingToken,
  normaliseTrackingRef,
  TRACKING_REF_PATTERN,
  TRACKING_TOKEN_PATTERN,
} from './tracking-ref.ts';

describe('tracking refs', () => {
  it('are DLV- and 10 Crockford characters, and practically never repeat', () => {
    const refs = new Set(Array.from({ length: 10_000 }, generateTrackingRef));
    expect(refs.size).toBe(10_000);
    for (const ref of refs) expect(ref).toMatch(TRACKING_REF_PATTERN);
  });

  it('come with tokens of 128 random bits (22 base64url characters) that never repeat either', () => {
    const drawn = Array.from({ length: 10_000 }, () => [generateTrackingRef(), generateTrackingToken()]);
    const tokens = new Set(drawn.map(([, token]) => token));
    expect(tokens.size).toBe(10_000);
    for (const token of tokens) {
      expect(token).toMatch(TRACKING_TOKEN_PATTERN);
      expect(Buffer.from(token!, 'base64url')).toHaveLength(16);
    }
  });

  it('normalises what people type', () => {
    expect(normaliseTrackingRef('dlv-7k3m9q2xhp')).toBe('DLV-7K3M9Q2XHP');
    expect(normaliseTrackingRef(' DLV7K3M9Q2XHP ')).toBe('DLV-7K3M9Q2XHP');
    expect(normaliseTrackingRef('DLV-OOOOOOOOOO')).toBe('DLV-0000000000');
    expect(normaliseTrackingRef('DLV-IIIIILLLLL')).toBe('DLV-1111111111');
    expect(normaliseTrackingRef('DLV-UUUUUUUUUU')).toBeNull();
    expect(normaliseTrackingRef('DLV-123')).toBeNull();
    expect(normaliseTrackingRef('ABC-7K3M9Q2XHP')).toBeNull();
  });

  it('round-trip through normalisation', () => {
    fc.assert(
      fc.property(
        fc.constant(null).map(() => generateTrackingRef()),
        (ref) => normaliseTrackingRef(ref) === ref,
      ),
    );
  });
});
