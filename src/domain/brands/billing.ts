import { AppError, fieldProblem, invalidField, validateAll } from '../../errors.ts';
import type { Role, User } from '../accounts/user.ts';
import { parsePostalAddress } from '../einvoicing/postal-address.ts';
import { frenchVatKey } from '../invoices/seller.ts';
import { validatePickupAddress } from './brand.ts';

/** What the brand's invoices print in their buyer block, set by its owner. Null: not given. */
interface BrandBilling {
  legalName: string | null;
  billingAddress: string | null;
  /** 9 digits, no spaces. */
  siren: string | null;
  /** 14 digits (the SIREN and the establishment's 5), no spaces. */
  siret: string | null;
  /** FR + key + SIREN, no spaces. */
  vatNumber: string | null;
}

/** The company page's form: every field as typed, blank meaning "none". */
export interface CompanyInput {
  legalName: string;
  billingAddress: string;
  siren: string;
  /** Absent (callers before the SIRET existed): none. */
  siret?: string;
  vatNumber: string;
  pickupAddress: string;
}

export type CompanyDetails = BrandBilling & { defaultPickupAddress: string | null };

/** Only the owner changes what the invoices print and where parcels are collected. */
export const canEditCompany = (role: Role): boolean => role === 'owner';

export function mayEditCompany(user: User): void {
  if (!canEditCompany(user.role))
    throw new AppError('insufficient_scope', 'Only the owner can change the company details.');
}

/**
 * INSEE's check on a SIREN: the Luhn sum of its 9 digits is a multiple of 10. It catches every
 * single mistyped digit and most swaps of neighbours.
 */
export function sirenChecksOut(siren: string): boolean {
  if (!/^\d{9}$/.test(siren)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let digit = Number(siren[8 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const blankToNull = (value: string): string | null => {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

function text(field: string, value: string, max: number): string | null {
  const trimmed = blankToNull(value);
  if (trimmed !== null && trimmed.length > max) throw fieldProblem(field, 'length.atMost', { max });
  return trimmed;
}

function siren(value: string): string | null {
  const digits = value.replace(/\s/g, '');
  if (digits === '') return null;
  if (!/^\d{9}$/.test(digits)) throw fieldProblem('siren', 'siren.digits');
  if (!sirenChecksOut(digits)) throw fieldProblem('siren', 'siren.checkDigit');
  return digits;
}

/**
 * The establishment's SIRET: 14 digits passing the same Luhn check (La Poste's establishments
 * excepted by INSEE: their SIRET's digits add up to a multiple of 5), whose first 9 are the SIREN.
 */
function siretChecksOut(siret: string): boolean {
  if (!/^\d{14}$/.test(siret)) return false;
  if (siret.startsWith('356000000')) return [...siret].reduce((sum, d) => sum + Number(d), 0) % 5 === 0;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let digit = Number(siret[13 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function siret(value: string, ofSiren: () => string | null): string | null {
  const digits = value.replace(/\s/g, '');
  if (digits === '') return null;
  if (!/^\d{14}$/.test(digits)) throw fieldProblem('siret', 'siret.digits');
  if (!siretChecksOut(digits)) throw fieldProblem('siret', 'siret.checkDigit');
  let sirenDigits: string | null;
  try {
    sirenDigits = ofSiren();
  } catch {
    return digits; // the SIREN's own error is reported
  }
  if (sirenDigits === null) throw fieldProblem('siret', 'siret.needsSiren');
  if (!digits.startsWith(sirenDigits))
    throw fieldProblem('siret', 'siret.notTheSirens', { siren: sirenDigits });
  return digits;
}

/** A billing address an e-invoice can carry: a line "postcode city" (EN 16931 BG-8). */
function billingAddress(value: string): string | null {
  const address = text('billing_address', value, 500);
  if (address !== null && parsePostalAddress(address) === null)
    throw fieldProblem('billing_address', 'address.postcodeCity');
  return address;
}

/** The French VAT number of that SIREN (checked as config.ts checks the seller's). */
function vatNumber(value: string, ofSiren: () => string | null): string | null {
  const vat = value.replace(/\s/g, '').toUpperCase();
  if (vat === '') return null;
  if (!/^FR\d{11}$/.test(vat)) throw fieldProblem('vat_number', 'vat.format');
  let sirenDigits: string | null;
  try {
    sirenDigits = ofSiren();
  } catch {
    return vat; // the SIREN's own error is reported; this one would only repeat it
  }
  if (sirenDigits === null) throw fieldProblem('vat_number', 'vat.needsSiren');
  const expected = `FR${frenchVatKey(sirenDigits)}${sirenDigits}`;
  if (vat !== expected) throw fieldProblem('vat_number', 'vat.notTheSirens', { expected });
  return vat;
}

/** The Île-de-France check of order pickups, its 422 reported here as the form field's mistake. */
function pickup(value: string): string | null {
  const address = blankToNull(value);
  try {
    return validatePickupAddress(address);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'out_of_zone' || err.code === 'invalid_address')) {
      const stated = err.details?.[0]?.problem;
      throw stated
        ? fieldProblem('pickup_address', stated.code, stated.values)
        : invalidField('pickup_address', err.details?.[0]?.message ?? err.message);
    }
    throw err;
  }
}

/** Every field checked at once, so the form shows each mistake next to its field. */
export function validateCompany(input: CompanyInput): CompanyDetails {
  return validateAll({
    legalName: () => text('legal_name', input.legalName, 200),
    billingAddress: () => billingAddress(input.billingAddress),
    siren: () => siren(input.siren),
    siret: () => siret(input.siret ?? '', () => siren(input.siren)),
    vatNumber: () => vatNumber(input.vatNumber, () => siren(input.siren)),
    defaultPickupAddress: () => pickup(input.pickupAddress),
  });
}

/** A change of some fields (the ops API, `dlv brands company`): the others keep their stored value. */
export function companyInputWith(
  brand: CompanyDetails,
  patch: Partial<
    Record<'legalName' | 'billingAddress' | 'siren' | 'siret' | 'vatNumber' | 'pickupAddress', string>
  >,
): CompanyInput {
  return {
    legalName: patch.legalName ?? brand.legalName ?? '',
    billingAddress: patch.billingAddress ?? brand.billingAddress ?? '',
    siren: patch.siren ?? brand.siren ?? '',
    siret: patch.siret ?? brand.siret ?? '',
    vatNumber: patch.vatNumber ?? brand.vatNumber ?? '',
    pickupAddress: patch.pickupAddress ?? brand.defaultPickupAddress ?? '',
  };
}
