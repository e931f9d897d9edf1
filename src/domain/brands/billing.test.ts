import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { sirenChecksOut, validateCompany } from './billing.ts';

const BLANK = { legalName: '', billingAddress: '', siren: '', vatNumber: '', pickupAddress: '' };

const fieldsOf = (input: typeof BLANK & { siret?: string }) => {
  try {
    validateCompany(input);
    return [];
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.code).toBe('invalid_request');
    return (err.details ?? []).map((d) => d.field);
  }
};

describe('company details', () => {
  it("checks a SIREN's Luhn sum: every single wrong digit is caught", () => {
    expect(sirenChecksOut('732829320')).toBe(true);
    expect(sirenChecksOut('912345678')).toBe(false); // the placeholder seller's, failing on purpose
    for (let i = 0; i < 9; i++) {
      const digits = '732829320'.split('');
      digits[i] = String((Number(digits[i]) + 1) % 10);
      expect(sirenChecksOut(digits.join(''))).toBe(false);
    }
    expect(sirenChecksOut('73282932')).toBe(false);
  });

  it('normalises what is typed and keeps blanks as null', () => {
    expect(validateCompany(BLANK)).toEqual({
      legalName: null,
      billingAddress: null,
      siren: null,
      siret: null,
      vatNumber: null,
      defaultPickupAddress: null,
    });
    expect(
      validateCompany({ ...BLANK, siren: ' 732 829 320 ', vatNumber: 'fr44 732 829 320' }),
    ).toMatchObject({
      siren: '732829320',
      vatNumber: 'FR44732829320',
    });
  });

  it('reports every wrong field at once', () => {
    expect(fieldsOf({ ...BLANK, siren: '732829321', pickupAddress: '1 place Bellecour 69002 Lyon' })).toEqual(
      ['siren', 'pickup_address'],
    );
    expect(fieldsOf({ ...BLANK, siren: '732829320', vatNumber: 'FR96552100554' })).toEqual(['vat_number']);
    expect(fieldsOf({ ...BLANK, vatNumber: 'FR44732829320' })).toEqual(['vat_number']);
    expect(fieldsOf({ ...BLANK, legalName: 'x'.repeat(201), pickupAddress: 'somewhere' })).toEqual([
      'legal_name',
      'pickup_address',
    ]);
  });

  it('checks a SIRET: 14 digits passing the Luhn check, starting with the SIREN', () => {
    const valid = { ...BLANK, siren: '732829320' };
    expect(validateCompany({ ...valid, siret: '732 829 320 00017' }).siret).toBe('73282932000017');
    expect(fieldsOf({ ...valid, siret: '73282932000018' })).toEqual(['siret']); // one digit off
    expect(fieldsOf({ ...valid, siret: '7328293200001' })).toEqual(['siret']);
    expect(fieldsOf({ ...BLANK, siret: '73282932000017' })).toEqual(['siret']); // no SIREN
    expect(fieldsOf({ ...BLANK, siren: '552100554', siret: '73282932000017' })).toEqual(['siret']);
    expect(validateCompany(valid).siret).toBeNull();
  });

  it('wants a billing address with its postcode and city (an e-invoice carries them apart)', () => {
    expect(fieldsOf({ ...BLANK, billingAddress: '3 rue de Rivoli\nParis' })).toEqual(['billing_address']);
    expect(validateCompany({ ...BLANK, billingAddress: '3 rue de Rivoli\n75004 Paris' }).billingAddress).toBe(
      '3 rue de Rivoli\n75004 Paris',
    );
  });
});
