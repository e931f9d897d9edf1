import { parsePhone } from '../domain/orders/order-input.ts';

/**
 * Small readers shared by the connectors' order mappings: a shop's order fields are loosely typed
 * (empty strings for "none", numbers as strings), and a field we cannot use is left out rather than
 * refusing the whole order, unless the order cannot be delivered without it.
 */

export const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;

/** The delivery address as one line our locator reads: street, complement, postcode and city. */
export function addressLine(a: {
  street: unknown;
  complement: unknown;
  postcode: unknown;
  city: unknown;
}): string | null {
  const street = [str(a.street), str(a.complement)].filter(Boolean).join(', ');
  const town = [str(a.postcode), str(a.city)].filter(Boolean).join(' ');
  const line = [street, town].filter(Boolean).join(' ');
  return line === '' ? null : line.slice(0, 500);
}

/** "First Last, Company" (either part may be missing), or null. */
export function recipientName(name: string | null, company: unknown): string | null {
  return [name, str(company)].filter(Boolean).join(', ').slice(0, 200) || null;
}

/** The first phone of the candidates that we can read; a shop accepts phones we cannot. */
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

export const usableEmail = (email: string | null): email is string =>
  email !== null && email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email);

/** Euros as a number, only for an order in euros (our amounts are in euros). */
export function amountInEuros(currency: unknown, total: unknown): number | null {
  const amount = str(total);
  if (currency !== 'EUR' || amount === null || !/^\d+(\.\d+)?$/.test(amount)) return null;
  return Math.round(Number(amount) * 100) / 100;
}

/** The first e-mail of the candidates, when our orders accept it (the shop's check is looser); else null. */
export function firstUsableEmail(...candidates: unknown[]): string | null {
  const email = candidates.map(str).find((c) => c !== null) ?? null;
  return usableEmail(email) ? email : null;
}

/** One parcel of `grams` (the merchant ships the order together); no weight: the API's default. */
export function parcelOf(grams: number): { unit_type: 'parcel'; quantity: number; unit_weight?: string } {
  return grams > 0
    ? { unit_type: 'parcel', quantity: 1, unit_weight: `${Math.ceil(grams)}g` }
    : { unit_type: 'parcel', quantity: 1 };
}
