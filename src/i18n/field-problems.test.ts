import { describe, expect, it } from 'vitest';
import { checkPassword } from '../domain/accounts/password.ts';
import { validateCompany } from '../domain/brands/billing.ts';
import { AppError, fieldProblem, validateAll } from '../errors.ts';
import { problemOfMessage } from './field-problems.ts';
import { formErrorWords } from './form-errors.ts';

const { fieldError } = formErrorWords([]);

const thrown = (run: () => unknown): AppError => {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('nothing thrown');
};

describe('field problems: the domain raises a code, the surfaces word it', () => {
  it('a domain error carries its code and values; its message is the same English as before', () => {
    const err = thrown(() => checkPassword('short', 'a@b.fr'));
    expect(err.message).toBe('password: must be 12 to 128 characters');
    const [detail] = err.details!;
    expect(detail!.problem).toEqual({ code: 'length.between', values: { min: 12, max: 128 } });
    // The wire shape of a detail is unchanged: the code is for the surfaces that word it.
    expect(JSON.parse(JSON.stringify(detail))).toEqual({
      field: 'password',
      message: 'must be 12 to 128 characters',
    });
    expect(fieldError('fr', 'Mot de passe', detail!)).toBe(
      'Mot de passe : doit compter de 12 à 128 caractères',
    );
    expect(fieldError('en', 'Password', detail!)).toBe('Password: must be 12 to 128 characters');
  });

  it('a value in the problem is worded by the code, not found again in a sentence', () => {
    const err = thrown(() =>
      validateCompany({
        legalName: '',
        billingAddress: '',
        siren: '732829320',
        vatNumber: 'FR00732829320',
        pickupAddress: '',
      }),
    );
    const detail = err.details!.find((d) => d.field === 'vat_number')!;
    expect(detail.problem?.code).toBe('vat.notTheSirens');
    expect(fieldError('fr', 'TVA', detail)).toBe(
      `TVA : doit être le numéro de TVA de ce SIREN, ${detail.problem!.values!.expected}`,
    );
  });

  it('keeps the code through validateAll, which gathers every field’s problem', () => {
    const err = thrown(() =>
      validateAll({
        a: () => {
          throw fieldProblem('a', 'url.https');
        },
        b: () => {
          throw fieldProblem('b', 'events.none');
        },
      }),
    );
    expect(err.details!.map((d) => d.problem?.code)).toEqual(['url.https', 'events.none']);
  });

  it('reads a problem stored as its English sentence back as its code (the shop sync problems)', () => {
    expect(problemOfMessage('must be in Île-de-France')).toEqual({ code: 'address.outsideZone', values: {} });
    expect(problemOfMessage('must be an integer from 1 to 1000')).toEqual({
      code: 'quantity.range',
      values: { max: '1000' },
    });
    expect(problemOfMessage('is somehow wrong')).toBeNull();
  });
});
