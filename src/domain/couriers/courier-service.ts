import { randomBytes } from 'node:crypto';
import { AppError, validateAll } from '../../errors.ts';
import { checkPassword, hashPassword, verifyDecoy, verifyPassword } from '../accounts/password.ts';
import type { RateLimiter } from '../accounts/ports.ts';
import { hashSecret, newSecret, TOKEN_PATTERN } from '../accounts/secrets.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import {
  type Courier,
  type CourierSessionRecord,
  type NewCourierInput,
  validateCourierName,
  validateEmail,
  validateLocale,
  validatePhone,
} from './courier.ts';
import type { CourierStore } from './ports.ts';

// The account area's limits (contract 0006): a courier's phone is a browser like any other.
const SESSION_IDLE_MS = 12 * 3600_000;
const SESSION_ABSOLUTE_MS = 7 * 24 * 3600_000;

const SIGN_IN_REFUSED = 'The e-mail or the password is wrong.';

export interface ActiveCourierSession {
  /** SHA-256 of the cookie's token: what the database knows the session by. */
  id: Buffer;
  courier: Courier;
  record: CourierSessionRecord;
}

export interface CourierServiceDeps {
  couriers: CourierStore;
  /** Sign-in attempts, counted per courier and per address (the account area's buckets, own keys). */
  signInLimiter: RateLimiter;
  clock: Clock;
}

export interface CourierService {
  /**
   * A new courier. Without a password, a one-time password is generated and given back (once:
   * only its hash is kept) for the operator to hand over.
   */
  add(input: NewCourierInput): Promise<{ courier: Courier; oneTimePassword: string | null }>;
  list(): Promise<Courier[]>;
  /** By id (`cou_…`) or e-mail; a 404 when neither. */
  get(idOrEmail: string): Promise<Courier>;
  /** Disables the courier and ends its sessions at once; its rounds stay (reassignable). Idempotent. */
  disable(idOrEmail: string): Promise<Courier>;
  signIn(input: { email: string; password: string; ip: string }): Promise<{ token: string }>;
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

const strip = <T extends { passwordHash: string }>({ passwordHash: _, ...rest }: T) => rest;

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

  async function limit(key: string): Promise<void> {
    const decision = await deps.signInLimiter.take(key);
    if (!decision.allowed) {
      throw new AppError('rate_limited', 'Too many sign-in attempts: wait a few minutes and try again.');
    }
  }

  return {
    async add(input) {
      const fields = validateAll({
        email: () => validateEmail(input.email ?? ''),
        name: () => validateCourierName(input.name ?? ''),
        phone: () => validatePhone(input.phone),
        locale: () => validateLocale(input.locale),
      });
      const given = input.password ?? null;
      if (given !== null) checkPassword(given, fields.email);
      const password = given ?? oneTimePassword();
      const courier = await couriers.insert({
        id: prefixedId('cou'),
        ...fields,
        passwordHash: await hashPassword(password),
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

    async disable(idOrEmail) {
      const found = await find(idOrEmail);
      const courier = await couriers.disable(found.id, clock());
      if (!courier) throw new AppError('not_found', `No courier ${found.id}.`);
      return courier;
    },

    async signIn(input) {
      const email = input.email.trim().toLowerCase();
      await limit(`courier:signin:ip:${input.ip}`);
      await limit(`courier:signin:acct:${email}`);
      const found = email.length <= 254 ? await couriers.findByEmail(email) : null;
      if (!found || input.password.length > 1024) {
        await verifyDecoy(input.password.slice(0, 1024));
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      }
      if (!(await verifyPassword(found.passwordHash, input.password))) {
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      }
      if (found.disabledAt) throw new AppError('unauthorized', 'This courier account has been disabled.');
      const secret = newSecret();
      await couriers.insertSession({
        id: secret.hash,
        courierId: found.id,
        csrfToken: randomBytes(32).toString('base64url'),
        at: clock(),
      });
      return { token: secret.token };
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
