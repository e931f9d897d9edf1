import { describe, expect, it } from 'vitest';
import { composeSms, gsm7Septets, measureSms, toGsm7 } from './sms-text.ts';

describe('SMS length', () => {
  it('counts GSM-7 septets, the extension table twice', () => {
    expect(gsm7Septets('Livré à 10h')).toBe(11);
    expect(gsm7Septets('[€]')).toBe(6);
    expect(gsm7Septets('{}^~|\\')).toBe(12);
    // ç and ê are not in the default alphabet (Ç is).
    expect(gsm7Septets('Ç')).toBe(1);
    expect(gsm7Septets('ç')).toBeNull();
    expect(gsm7Septets('fête')).toBeNull();
  });

  it('one message up to 160 septets, then parts of 153', () => {
    expect(measureSms('a'.repeat(160))).toEqual({ encoding: 'gsm7', units: 160, parts: 1 });
    expect(measureSms('a'.repeat(161))).toEqual({ encoding: 'gsm7', units: 161, parts: 2 });
    expect(measureSms('a'.repeat(306))).toEqual({ encoding: 'gsm7', units: 306, parts: 2 });
    expect(measureSms('a'.repeat(307))).toEqual({ encoding: 'gsm7', units: 307, parts: 3 });
    // 80 euro signs are 160 septets: still one message; one more character is two.
    expect(measureSms('€'.repeat(80)).parts).toBe(1);
    expect(measureSms(`${'€'.repeat(80)}a`).parts).toBe(2);
  });

  it('falls back to UCS-2 (70, then 67 per part, in UTF-16 units) for one foreign character', () => {
    expect(measureSms(`${'a'.repeat(69)}ç`)).toEqual({ encoding: 'ucs2', units: 70, parts: 1 });
    expect(measureSms(`${'a'.repeat(70)}ç`)).toEqual({ encoding: 'ucs2', units: 71, parts: 2 });
    // An emoji is two UTF-16 units.
    expect(measureSms('📦')).toEqual({ encoding: 'ucs2', units: 2, parts: 1 });
    expect(measureSms(`${'a'.repeat(134)}📦`).parts).toBe(3);
  });

  it('replaces the typography GSM-7 lacks, keeps what has no plain form', () => {
    expect(toGsm7('L’équipe « Café » — fête…')).toBe('L\'équipe " Café " - fete...');
    expect(toGsm7('garçon\u00a0ça')).toBe('garcon ca');
    expect(toGsm7('Привет')).toBe('Привет');
    expect(gsm7Septets(toGsm7('Votre colis arrive aujourd’hui'))).not.toBeNull();
  });
});

describe('composeSms', () => {
  const link = 'https://dlv.example.com/track/AbCdEfGhIjKlMnOpQrStUv';

  it('puts the brand first and the link last, in GSM-7', () => {
    const text = composeSms({
      brand: 'Maison Éole',
      message: 'votre colis arrive aujourd’hui.',
      link,
      locale: 'fr',
    });
    expect(text).toBe(`Maison Éole : votre colis arrive aujourd'hui. ${link}`);
    expect(
      composeSms({ brand: 'Maison Éole', message: 'your parcel arrives today.', link, locale: 'en' }),
    ).toBe(`Maison Éole: your parcel arrives today. ${link}`);
    expect(measureSms(text)).toMatchObject({ encoding: 'gsm7', parts: 1 });
  });

  it('shortens a long brand name to keep one message, never the link', () => {
    const message = 'votre colis arrive aujourd’hui entre 10h00 et 12h00. Suivi :';
    const brand = 'La Très Grande Boutique Parisienne des Objets Introuvables et Merveilleux';
    const text = composeSms({ brand, message, link, locale: 'fr' });
    expect(measureSms(text)).toMatchObject({ encoding: 'gsm7', parts: 1 });
    expect(measureSms(text).units).toBeGreaterThan(150);
    expect(text.startsWith('La Très Grande')).toBe(true);
    expect(text.endsWith(link)).toBe(true);
  });

  it('lets a text that cannot fit go to two parts, with 12 characters of the brand at least', () => {
    const text = composeSms({
      brand: 'A brand with a long name',
      message: 'x'.repeat(150),
      link,
      locale: 'en',
    });
    expect(text.startsWith('A brand wit.: ')).toBe(true);
    expect(measureSms(text).parts).toBe(2);
  });
});
