import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChoiceRefusal, checkChoices, daysOffered, isOpenForChanges } from './delivery-choices.ts';
import { codeDigest, newCode, sameDigest, typedCode } from './one-time-codes.ts';
import { recipientDataSealer } from './recipient-data-sealer.ts';

describe('the days offered', () => {
  it('are the 5 business days after the promised day when it is still ahead', () => {
    // Thursday 24 Dec 2026: Christmas (Friday) and the weekend are skipped.
    expect(daysOffered('2026-12-24', '2026-12-21')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-04',
    ]);
  });

  it('start from today when the promised day is past (a failed attempt) or absent', () => {
    expect(daysOffered('2026-11-20', '2026-11-26')).toEqual([
      '2026-11-27',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
    ]);
    expect(daysOffered(null, '2026-11-28')[0]).toBe('2026-11-30');
  });
});

describe('the recipient’s choices', () => {
  const offered = daysOffered('2026-11-26', '2026-11-26');
  const input = { instructions: '', safePlace: '', safePlaceDetail: '', date: '' };

  it('are trimmed; an empty field is nothing, an empty date keeps the day', () => {
    expect(
      checkChoices(
        { instructions: '  Code 4821B  ', safePlace: 'caretaker', safePlaceDetail: ' Loge ', date: '' },
        offered,
      ),
    ).toEqual({ instructions: 'Code 4821B', safePlace: { kind: 'caretaker', detail: 'Loge' }, date: null });
    expect(checkChoices({ ...input, safePlace: 'none' }, offered)).toEqual({
      instructions: null,
      safePlace: null,
      date: null,
    });
  });

  it('count characters as the reader sees them: 500 accented letters or emoji are allowed, 501 are not', () => {
    expect(checkChoices({ ...input, instructions: '🚪'.repeat(500) }, offered).instructions).toHaveLength(
      1000,
    );
    expect(() => checkChoices({ ...input, instructions: 'é'.repeat(501) }, offered)).toThrow(ChoiceRefusal);
  });

  it('refuse every bad field at once, naming each', () => {
    try {
      checkChoices(
        {
          instructions: 'x'.repeat(501),
          safePlace: 'roof',
          safePlaceDetail: 'y'.repeat(201),
          date: '2026-11-28',
        },
        offered,
      );
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ChoiceRefusal);
      const refusal = err as ChoiceRefusal;
      expect(refusal.status).toBe(400);
      expect(refusal.problems).toEqual([
        { field: 'instructions', reason: 'too_long' },
        { field: 'safe_place', reason: 'unknown' },
        { field: 'safe_place_detail', reason: 'too_long' },
        { field: 'date', reason: 'not_offered' },
      ]);
      expect(refusal.details!.map((d) => d.field)).toEqual([
        'instructions',
        'safe_place',
        'safe_place_detail',
        'date',
      ]);
    }
    expect(() => checkChoices({ ...input, safePlaceDetail: 'Mme Martin' }, offered)).toThrow(
      /needs a safe place/,
    );
  });

  it('are open while pending, picked up, in transit or after a failed attempt only', () => {
    expect(
      [
        'awaiting_address',
        'pending',
        'picked_up',
        'in_transit',
        'out_for_delivery',
        'failed_attempt',
        'delivered',
        'returned',
        'cancelled',
      ].filter((s) => isOpenForChanges(s as never)),
    ).toEqual(['pending', 'picked_up', 'in_transit', 'failed_attempt']);
  });
});

describe('one-time codes', () => {
  it('are 6 digits, leading zeros kept, and spread over the whole range', () => {
    const codes = Array.from({ length: 2000 }, newCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1900);
    expect(codes.some((c) => Number(c) < 500_000)).toBe(true);
    expect(codes.some((c) => Number(c) >= 500_000)).toBe(true);
  });

  it('are kept as a keyed digest bound to their row', () => {
    const key = randomBytes(32);
    const digest = codeDigest(key, 'rcd_0000000000000001', '123456');
    expect(digest).toHaveLength(32);
    expect(sameDigest(digest, codeDigest(key, 'rcd_0000000000000001', '123456'))).toBe(true);
    expect(sameDigest(digest, codeDigest(key, 'rcd_0000000000000002', '123456'))).toBe(false);
    expect(sameDigest(digest, codeDigest(randomBytes(32), 'rcd_0000000000000001', '123456'))).toBe(false);
  });

  it('are read as typed on a phone: spaces and dashes dropped, anything else refused', () => {
    expect(typedCode(' 123 456 ')).toBe('123456');
    expect(typedCode('123-456')).toBe('123456');
    for (const bad of ['12345', '1234567', 'abcdef', '12345a', '']) expect(typedCode(bad)).toBeNull();
  });
});

describe('the sealed choices', () => {
  it('open only with the same key and the same order', async () => {
    const key = randomBytes(32);
    const sealer = recipientDataSealer(async () => key);
    const sealed = await sealer.seal('Code 4821B, 3e étage', 42);
    expect(sealed.toString('utf8')).not.toContain('4821B');
    expect(await sealer.open(sealed, 42)).toBe('Code 4821B, 3e étage');
    await expect(sealer.open(sealed, 43)).rejects.toThrow();
    await expect(recipientDataSealer(async () => randomBytes(32)).open(sealed, 42)).rejects.toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    await expect(sealer.open(altered, 42)).rejects.toThrow();
    await expect(recipientDataSealer(async () => randomBytes(16)).seal('x', 1)).rejects.toThrow(/32 bytes/);
  });
});
