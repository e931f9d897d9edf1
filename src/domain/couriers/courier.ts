import { fieldProblem, invalidField } from '../../errors.ts';
import type { Locale } from '../../i18n/locales.ts';
import { validateEmail } from '../accounts/user.ts';
import { parsePhone } from '../orders/order-input.ts';

/** One of the operator's couriers, as the operator and the courier app see them (never the hash). */
export interface Courier {
  id: string;
  email: string;
  name: string;
  phone: string | null;
  locale: Locale;
  /**
   * True until the courier has chosen their own password: the one they hold was given by the
   * operator (generated), works for one sign-in, and that sign-in leads to choosing theirs.
   */
  mustChoosePassword: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

/** A courier as the store keeps it: with its password's hash and, for a one-time password, its end. */
export interface StoredCourier extends Courier {
  passwordHash: string;
  /**
   * Set while the password is a one-time one (`mustChoosePassword`): it is accepted by one sign-in
   * before this time; the sign-in moves it to its own time, so it is never accepted again.
   */
  oneTimePasswordUntil: Date | null;
}

export interface CourierSessionRecord {
  courierId: string;
  createdAt: Date;
  lastSeenAt: Date;
  csrfToken: string;
  /** Opened with a one-time password: it can only choose the courier's own password (or sign out). */
  passwordChangeOnly: boolean;
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

export function validateCourierName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    throw fieldProblem('name', 'length.between', { min: 1, max: 100 });
  return trimmed;
}

/** Stored in E.164 (`+33612345678`), as the orders' phones: typed `06 12 34 56 78` or `+33 6…`. */
export function validatePhone(phone: string | null | undefined): string | null {
  return parsePhone(phone, 'phone');
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
  must_choose_password: c.mustChoosePassword,
  disabled_at: c.disabledAt ? c.disabledAt.toISOString() : null,
  created_at: c.createdAt.toISOString(),
});
