import { randomBytes } from 'node:crypto';
import { AppError, fieldProblem, validateAll } from '../../errors.ts';
import { countSignInAttempt } from '../accounts/failed-sign-ins.ts';
import { checkPassword, hashPassword, verifyDecoy, verifyPassword } from '../accounts/password.ts';
import type { RateLimiter } from '../accounts/ports.ts';
import { hashSecret, newSecret, TOKEN_PATTERN } from '../accounts/secrets.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import {
  type Courier,
  type CourierSessionRecord,
  type NewCourierInput,
  type StoredCourier,
  validateCourierName,
  validateEmail,
  validateLocale,
  validatePhone,
} from './courier.ts';
import type { CourierStore } from './ports.ts';

// The account area's limits (contract 0006): a courier's phone is a browser like any other.
const SESSION_IDLE_MS = 12 * 3600_000;
const SESSION_ABSOLUTE_MS = 7 * 24 * 3600_000;

/**
 * A generated password is the operator's, not the courier's (ASVS 2.3.1): it opens one sign-in
 * within this time, and that sign-in can only choose the courier's own password.
 */
export const ONE_TIME_PASSWORD_HOURS = 72;

// One answer for an unknown e-mail, a wrong password, a one-time password used or expired, and a
// disabled courier: the refusal never confirms that a password was right.
const SIGN_IN_REFUSED =
  'Sign-in refused: the e-mail or the password is wrong, the one-time password was already used or has expired, or the account is disabled.';

export interface ActiveCourierSession {
  /** SHA-256 of the cookie's token: what the database knows the session by. */
  id: Buffer;
  courier: Courier;
  record: CourierSessionRecord;
}

export interface CourierServiceDeps {
  couriers: CourierStore;
  /** The operator's changes (add, disable, a new password) and their audit entries, in one transaction. */
  transact: UnitOfWork<{ couriers: CourierStore; audit: AuditStore }>;
  /** Sign-in attempts, counted per courier and per address (the account area's buckets, own keys). */
  signInLimiter: RateLimiter;
  clock: Clock;
}

/** The operator's changes (add, disable, reset) are recorded in the audit trail with `by`. */
export interface CourierService {
  /**
   * A new courier. Without a password, a one-time password is generated and given back (once:
   * only its hash is kept) for the operator to hand over.
   */
  add(input: NewCourierInput, by: Author): Promise<{ courier: Courier; oneTimePassword: string | null }>;
  list(): Promise<Courier[]>;
  /** By id (`cou_…`) or e-mail; a 404 when neither. */
  get(idOrEmail: string): Promise<Courier>;
  /** Disables the courier and ends its sessions at once; its rounds stay (reassignable). Idempotent. */
  disable(idOrEmail: string, by: Author): Promise<Courier>;
  /**
   * A new one-time password for a courier who lost theirs (or never used the first in time): its
   * sessions end, the old password stops working, and the next sign-in chooses their own. A
   * disabled courier is refused (422 `courier_disabled`).
   */
  resetPassword(idOrEmail: string, by: Author): Promise<{ courier: Courier; oneTimePassword: string }>;
  /**
   * A new session for the right e-mail and password of an enabled courier. With a one-time
   * password, the password is used up and the session can only choose the courier's own
   * (`passwordChangeOnly`). Only failed attempts count against the limits (per address and per
   * e-mail), so couriers signing in from one depot's address do not lock one another out.
   */
  signIn(input: {
    email: string;
    password: string;
    ip: string;
  }): Promise<{ token: string; passwordChangeOnly: boolean }>;
  /**
   * The courier's own password: the rules of the account area's, and not the one it replaces. A
   * session opened with a one-time password needs nothing more; another gives the current password
   * (a wrong one counts as a failed sign-in). Every session ends; the new one's token is returned.
   */
  choosePassword(
    session: ActiveCourierSession,
    input: { current: string | null; password: string; ip: string },
  ): Promise<{ token: string }>;
  /** The session of a cookie's token, or null (unknown, idle 12 h, 7 days old, courier disabled). */
  resume(token: string): Promise<ActiveCourierSession | null>;
  signOut(session: ActiveCourierSession): Promise<void>;
  deleteExpired(): Promise<number>;
}

/** 16 characters from an alphabet without look-alikes (0/O, 1/l/I): read aloud or typed on a phone. */
const OTP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function oneTimePassword(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const byte of bytes) out += OTP_ALPHABET[byte % OTP_ALPHABET.length];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}`;
}

const strip = ({ passwordHash: _, oneTimePasswordUntil: __, ...rest }: StoredCourier): Courier => rest;

export function courierService(deps: CourierServiceDeps): CourierService {
  const { couriers, clock } = deps;

  async function find(idOrEmail: string) {
    const key = idOrEmail.trim();
    const found = /^cou_[0-9a-f]{16}$/.test(key)
      ? await couriers.findById(key)
      : key.includes('@') && key.length <= 254
        ? await couriers.findByEmail(key)
        : null;
    if (!found) throw new AppError('not_found', `No courier ${key.slice(0, 100)}.`);
    return found;
  }

  const oneTimeUntil = () => new Date(clock().getTime() + ONE_TIME_PASSWORD_HOURS * 3600_000);

  const attempt = (email: string, ip: string) =>
    countSignInAttempt(deps.signInLimiter, 'courier:signin', email, ip);

  async function openSession(courierId: string, passwordChangeOnly: boolean): Promise<string> {
    const secret = newSecret();
    await couriers.insertSession({
      id: secret.hash,
      courierId,
      csrfToken: randomBytes(32).toString('base64url'),
      at: clock(),
      passwordChangeOnly,
    });
    return secret.token;
  }

  return {
    async add(input, by) {
      const fields = validateAll({
        email: () => validateEmail(input.email ?? ''),
        name: () => validateCourierName(input.name ?? ''),
        phone: () => validatePhone(input.phone),
        locale: () => validateLocale(input.locale),
      });
      const given = input.password ?? null;
      if (given !== null) checkPassword(given, fields.email);
      const password = given ?? oneTimePassword();
      const passwordHash = await hashPassword(password);
      const courier = await deps.transact(async (tx) => {
        const added = await tx.couriers.insert({
          id: prefixedId('cou'),
          ...fields,
          passwordHash,
          oneTimePasswordUntil: given === null ? oneTimeUntil() : null,
        });
        // The courier's name, e-mail and phone are theirs: the trail says they were set, not what.
        if (added)
          await tx.audit.record({
            action: 'courier.added',
            by,
            object: { type: 'courier', id: added.id },
            changes: {
              name: 'changed',
              email: 'changed',
              ...(added.phone ? { phone: 'changed' as const } : {}),
              locale: { before: null, after: added.locale },
            },
            details: { one_time_password: given === null },
          });
        return added;
      });
      if (!courier)
        throw new AppError('invalid_request', 'email: is already a courier’s', [
          { field: 'email', message: 'is already a courier’s' },
        ]);
      return { courier, oneTimePassword: given === null ? password : null };
    },

    list: () => couriers.list(),

    async get(idOrEmail) {
      return strip(await find(idOrEmail));
    },

    async disable(idOrEmail, by) {
      const found = await find(idOrEmail);
      const courier = await deps.transact(async (tx) => {
        const disabled = await tx.couriers.disable(found.id, clock());
        // Disabling twice changes nothing, and records nothing.
        if (disabled && !found.disabledAt)
          await tx.audit.record({
            action: 'courier.disabled',
            by,
            object: { type: 'courier', id: found.id },
            changes: { disabled_at: { before: null, after: disabled.disabledAt!.toISOString() } },
          });
        return disabled;
      });
      if (!courier) throw new AppError('not_found', `No courier ${found.id}.`);
      return courier;
    },

    async resetPassword(idOrEmail, by) {
      const found = await find(idOrEmail);
      if (found.disabledAt)
        throw new AppError(
          'courier_disabled',
          `Courier ${found.id} is disabled: it cannot sign in, so it gets no new password.`,
        );
      const password = oneTimePassword();
      const passwordHash = await hashPassword(password);
      const courier = await deps.transact(async (tx) => {
        const reset = await tx.couriers.setPassword(found.id, passwordHash, oneTimeUntil());
        if (reset)
          await tx.audit.record({
            action: 'courier.password_reset',
            by,
            object: { type: 'courier', id: found.id },
            changes: { password: 'changed' },
            details: { sessions_ended: true },
          });
        return reset;
      });
      if (!courier) throw new AppError('not_found', `No courier ${found.id}.`);
      return { courier, oneTimePassword: password };
    },

    async signIn(input) {
      const email = input.email.trim().toLowerCase();
      const counted = await attempt(email.slice(0, 254), input.ip);
      const found = email.length <= 254 ? await couriers.findByEmail(email) : null;
      const password = input.password.slice(0, 1024);
      // The password is checked whatever else is wrong: the refusal costs the same time either way.
      const right = found
        ? await verifyPassword(found.passwordHash, password)
        : await verifyDecoy(password).then(() => false);
      if (!found || !right || found.disabledAt || input.password.length > 1024)
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      const passwordChangeOnly = found.oneTimePasswordUntil !== null;
      if (passwordChangeOnly && !(await couriers.useOneTimePassword(found.id, found.passwordHash, clock())))
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      await counted.succeeded();
      return { token: await openSession(found.id, passwordChangeOnly), passwordChangeOnly };
    },

    async choosePassword(session, input) {
      const found = await couriers.findById(session.courier.id);
      if (!found || found.disabledAt) throw new AppError('unauthorized', 'Sign in as a courier first.');
      if (!session.record.passwordChangeOnly) {
        const counted = await attempt(found.email.toLowerCase(), input.ip);
        if (!(await verifyPassword(found.passwordHash, (input.current ?? '').slice(0, 1024))))
          throw fieldProblem('current_password', 'password.currentWrong');
        await counted.succeeded();
      }
      checkPassword(input.password, found.email);
      // The one-time password (or the current one) again would keep the operator's password.
      if (await verifyPassword(found.passwordHash, input.password))
        throw fieldProblem('password', 'password.unchanged');
      const changed = await couriers.setPassword(found.id, await hashPassword(input.password), null);
      if (!changed) throw new AppError('unauthorized', 'Sign in as a courier first.');
      return { token: await openSession(found.id, false) };
    },

    async resume(token) {
      if (!TOKEN_PATTERN.test(token)) return null;
      const id = hashSecret(token);
      const now = clock();
      const record = await couriers.touchSession(
        id,
        now,
        new Date(now.getTime() - SESSION_IDLE_MS),
        new Date(now.getTime() - SESSION_ABSOLUTE_MS),
      );
      if (!record) return null;
      const found = await couriers.findById(record.courierId);
      if (!found || found.disabledAt) {
        await couriers.deleteSession(id);
        return null;
      }
      return { id, courier: strip(found), record };
    },

    signOut: (session) => couriers.deleteSession(session.id),

    deleteExpired() {
      const now = clock().getTime();
      return couriers.deleteExpiredSessions(
        new Date(now - SESSION_IDLE_MS),
        new Date(now - SESSION_ABSOLUTE_MS),
      );
    },
  };
}
