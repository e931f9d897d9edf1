import type { Locale } from '../../i18n/locales.ts';
import type { Courier, CourierSessionRecord } from './courier.ts';

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
  }): Promise<Courier | null>;
  findById(id: string): Promise<(Courier & { passwordHash: string }) | null>;
  findByEmail(email: string): Promise<(Courier & { passwordHash: string }) | null>;
  /** Every courier, enabled first, then by name. */
  list(): Promise<Courier[]>;
  /** Marks the courier disabled (once: the first date stays) and ends its sessions, in one statement. */
  disable(id: string, at: Date): Promise<Courier | null>;

  /** Courier sessions, keyed by the SHA-256 of the cookie's secret, as the account area's. */
  insertSession(session: { id: Buffer; courierId: string; csrfToken: string; at: Date }): Promise<void>;
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
