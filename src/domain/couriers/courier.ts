import { fieldProblem, invalidField } from '../../errors.ts';
import type { Locale } from '../../i18n/locales.ts';
import { validateEmail } from '../accounts/user.ts';

/** One of the operator's couriers, as the operator and the courier app see them (never the hash). */
export interface Courier {
  id: string;
  email: string;
  name: string;
  phone: string | null;
  locale: Locale;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface CourierSessionRecord {
  courierId: string;
  createdAt: Date;
  lastSeenAt: Date;
  csrfToken: string;
}

/** What `couriers add` accepts, checked whole (one 400 naming every bad field). */
export interface NewCourierInput {
  email: string;
  name: string;
  phone?: string | null;
  locale?: string | null;
  /** Absent: a one-time password is generated and given back once. */
  password?: string | null;
}

// A French mobile or landline, or any international number: digits, spaces, dots, dashes, a leading +.
const PHONE = /^\+?[0-9][0-9 .-]{5,22}[0-9]$/;

export function validateCourierName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    throw fieldProblem('name', 'length.between', { min: 1, max: 100 });
  return trimmed;
}

export function validatePhone(phone: string | null | undefined): string | null {
  if (phone === null || phone === undefined || phone.trim() === '') return null;
  const trimmed = phone.trim();
  if (!PHONE.test(trimmed))
    throw invalidField('phone', 'must be a phone number (digits, spaces, dots, dashes, a leading +)');
  return trimmed;
}

export function validateLocale(locale: string | null | undefined): Locale {
  if (locale === null || locale === undefined || locale === '') return 'fr';
  if (locale !== 'fr' && locale !== 'en') throw invalidField('locale', 'must be fr or en');
  return locale;
}

export { validateEmail };

/** A courier as the operator's API and `dlv couriers --json` give it. */
export const courierJson = (c: Courier) => ({
  id: c.id,
  email: c.email,
  name: c.name,
  phone: c.phone,
  locale: c.locale,
  disabled_at: c.disabledAt ? c.disabledAt.toISOString() : null,
  created_at: c.createdAt.toISOString(),
});
