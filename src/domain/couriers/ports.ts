import type { Locale } from '../../i18n/locales.ts';
import type { Courier, CourierSessionRecord, StoredCourier } from './courier.ts';

/** The operator's couriers (`couriers`). E-mails are unique whatever their case (`couriers_email_idx`). */
export interface CourierStore {
  /** Null when the e-mail is already a courier's. */
  insert(courier: {
    id: string;
    email: string;
    name: string;
    phone: string | null;
    locale: Locale;
    passwordHash: string;
    /** A one-time password's end (null: the password is the courier's own). */
    oneTimePasswordUntil: Date | null;
  }): Promise<Courier | null>;
  findById(id: string): Promise<StoredCourier | null>;
  findByEmail(email: string): Promise<StoredCourier | null>;
  /** Every courier, enabled first, then by name. */
  list(): Promise<Courier[]>;
  /** Marks the courier disabled (once: the first date stays) and ends its sessions, in one statement. */
  disable(id: string, at: Date): Promise<Courier | null>;
  /**
   * Uses up the courier's one-time password: true when this call did (the hash is still the one
   * verified, it was live at `at`, the courier enabled), after which it is never accepted again;
   * false when another sign-in came first, it expired, or it was replaced.
   */
  useOneTimePassword(id: string, passwordHash: string, at: Date): Promise<boolean>;
  /**
   * A new password hash and every session ended, in one statement. `oneTimeUntil`: the hash is of
   * a one-time password given by the operator, accepted once before then; null: the courier's own.
   */
  setPassword(id: string, passwordHash: string, oneTimeUntil: Date | null): Promise<Courier | null>;

  /** Courier sessions, keyed by the SHA-256 of the cookie's secret, as the account area's. */
  insertSession(session: {
    id: Buffer;
    courierId: string;
    csrfToken: string;
    at: Date;
    passwordChangeOnly: boolean;
  }): Promise<void>;
  /**
   * The session if used since `idleSince` and opened after `openedSince`, its last use moved to
   * `at` in the same statement; an idle or too old one is deleted and null returned.
   */
  touchSession(
    id: Buffer,
    at: Date,
    idleSince: Date,
    openedSince: Date,
  ): Promise<CourierSessionRecord | null>;
  deleteSession(id: Buffer): Promise<void>;
  /** Idle or too old sessions: dead rows (the hourly cleanup). */
  deleteExpiredSessions(idleSince: Date, openedSince: Date): Promise<number>;
}
