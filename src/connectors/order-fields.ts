import { parsePhone } from '../domain/orders/order-input.ts';

/** Helpers every platform's order mapping shares: shops accept values our API would refuse. */

export const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;

/** A phone the shop accepted but we cannot read is left out rather than refusing the whole order. */
export function phoneOrNull(...candidates: unknown[]): string | null {
  for (const candidate of candidates) {
    const phone = str(candidate);
    if (phone === null) continue;
    try {
      return parsePhone(phone) ? phone : null;
    } catch {}
  }
  return null;
}

/** The e-mail our orders accept (the shop's check is looser): null when unusable. */
export function usableEmail(...candidates: unknown[]): string | null {
  const email = candidates.map(str).find((c) => c !== null) ?? null;
  return email !== null && /^[^\s@]+@[^\s@]+$/.test(email) && email.length <= 254 ? email : null;
}

/** One parcel of `grams` (the merchant ships the order together); no weight: the API's default. */
export function parcelOf(grams: number): { unit_type: 'parcel'; quantity: number; unit_weight?: string } {
  return grams > 0
    ? { unit_type: 'parcel', quantity: 1, unit_weight: `${Math.ceil(grams)}g` }
    : { unit_type: 'parcel', quantity: 1 };
}
