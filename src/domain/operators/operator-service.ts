import { randomBytes } from 'node:crypto';
import { AppError, fieldProblem, validateAll } from '../../errors.ts';
import { hashPassword } from '../accounts/password.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import type { Transact } from '../shared/stores.ts';
import type { ActedBy, OperatorAudit } from './acting.ts';
import {
  type Operator,
  type StoredOperator,
  validateOperatorEmail,
  validateOperatorName,
  validateOperatorRole,
} from './operator.ts';
import type { OperatorStore } from './ports.ts';

/**
 * A password an admin hands over is not the operator's (ASVS 2.3.1): it opens one sign-in within
 * this time, and that sign-in must choose the operator's own before anything else.
 */
export const OPERATOR_ONE_TIME_PASSWORD_HOURS = 72;

/** 16 characters from an alphabet without look-alikes (0/O, 1/l/I): read aloud or typed from a note. */
const OTP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function oneTimePassword(): string {
  let out = '';
  for (const byte of randomBytes(16)) out += OTP_ALPHABET[byte % OTP_ALPHABET.length];
  return out.match(/.{4}/g)!.join('-');
}

export interface OperatorServiceDeps {
  operators: OperatorStore;
  transact: Transact;
  clock: Clock;
  /** The audit trail's hook, called inside each change's transaction. */
  audit: OperatorAudit;
}

/** An operator and the one-time password made for them, given once (only its hash is kept). */
interface OperatorWithPassword {
  operator: Operator;
  oneTimePassword: string;
}

/** The delivery company's people: `dlv operators …`, and an admin through the operations API. */
export interface OperatorService {
  /** A new operator with a one-time password: their first sign-in chooses their own, then enrols TOTP. */
  add(input: { email: string; name: string; role: string }, by: ActedBy): Promise<OperatorWithPassword>;
  list(): Promise<Operator[]>;
  /** By id (`opr_…`) or e-mail; a 404 when neither. */
  get(idOrEmail: string): Promise<Operator>;
  /** The enabled admins keep at least one of them: demoting the last is refused (422 `last_admin`). */
  setRole(idOrEmail: string, role: string, by: ActedBy): Promise<Operator>;
  /** Ends every session at once and refuses every sign-in; idempotent. Never the last enabled admin. */
  disable(idOrEmail: string, by: ActedBy): Promise<Operator>;
  /** A new one-time password (their sessions end; their second factor stays and is asked at sign-in). */
  resetPassword(idOrEmail: string, by: ActedBy): Promise<OperatorWithPassword>;
  /**
   * For an operator who lost their authenticator: the second factor and recovery codes are removed,
   * the sessions end, and a one-time password replaces theirs, so whoever knew the old password
   * cannot enrol a factor of their own. The next sign-in chooses a password and enrols again.
   */
  resetSecondFactor(idOrEmail: string, by: ActedBy): Promise<OperatorWithPassword>;
}

const strip = ({
  passwordHash: _,
  oneTimePasswordUntil: __,
  totpSecret: ___,
  totpPendingSecret: ____,
  totpLastStep: _____,
  ...operator
}: StoredOperator): Operator => operator;

export function operatorService(deps: OperatorServiceDeps): OperatorService {
  const { operators, transact, clock, audit } = deps;
  const oneTimeUntil = () => new Date(clock().getTime() + OPERATOR_ONE_TIME_PASSWORD_HOURS * 3600_000);

  async function find(store: OperatorStore, idOrEmail: string): Promise<StoredOperator> {
    const key = idOrEmail.trim();
    const found = /^opr_[0-9a-f]{16}$/.test(key)
      ? await store.findById(key)
      : key.includes('@') && key.length <= 254
        ? await store.findByEmail(key)
        : null;
    if (!found) throw new AppError('not_found', `No operator ${key.slice(0, 100)}.`);
    return found;
  }

  const refuseDisabled = (o: StoredOperator, what: string) => {
    if (o.disabledAt)
      throw new AppError(
        'operator_disabled',
        `Operator ${o.id} is disabled: it cannot sign in, so it gets no ${what}.`,
      );
  };

  /** Refused when `target` is the last enabled admin (locked first, so two admins cannot go at once). */
  async function keepAnAdmin(store: OperatorStore, target: StoredOperator, doing: string) {
    const admins = await store.lockEnabledAdmins();
    if (admins.length === 1 && admins[0] === target.id)
      throw new AppError(
        'last_admin',
        `${target.email} is the last enabled admin: make another operator admin before ${doing}.`,
      );
  }

  return {
    async add(input, by) {
      const fields = validateAll({
        email: () => validateOperatorEmail(input.email ?? ''),
        name: () => validateOperatorName(input.name ?? ''),
        role: () => validateOperatorRole(input.role ?? ''),
      });
      const password = oneTimePassword();
      const passwordHash = await hashPassword(password);
      const operator = await transact(async (tx) => {
        const inserted = await tx.operators.insert({
          id: prefixedId('opr'),
          ...fields,
          passwordHash,
          oneTimePasswordUntil: oneTimeUntil(),
        });
        if (!inserted) throw fieldProblem('email', 'email.taken');
        await audit.record(tx, {
          action: 'operator.created',
          by,
          subject: { type: 'operator', id: inserted.id },
          before: null,
          after: { email: inserted.email, name: inserted.name, role: inserted.role },
        });
        return inserted;
      });
      return { operator, oneTimePassword: password };
    },

    list: () => operators.list(),

    async get(idOrEmail) {
      return strip(await find(operators, idOrEmail));
    },

    async setRole(idOrEmail, role, by) {
      const wanted = validateOperatorRole(role);
      return transact(async (tx) => {
        const found = await find(tx.operators, idOrEmail);
        if (found.role === wanted) return strip(found);
        if (found.role === 'admin') await keepAnAdmin(tx.operators, found, 'changing their role');
        const changed = await tx.operators.setRole(found.id, wanted);
        if (!changed) throw new AppError('not_found', `No operator ${found.id}.`);
        await audit.record(tx, {
          action: 'operator.role_changed',
          by,
          subject: { type: 'operator', id: found.id },
          before: { role: found.role },
          after: { role: wanted },
        });
        return changed;
      });
    },

    async disable(idOrEmail, by) {
      return transact(async (tx) => {
        const found = await find(tx.operators, idOrEmail);
        if (found.disabledAt) return strip(found);
        if (found.role === 'admin') await keepAnAdmin(tx.operators, found, 'disabling them');
        const disabled = await tx.operators.disable(found.id, clock());
        if (!disabled) throw new AppError('not_found', `No operator ${found.id}.`);
        await audit.record(tx, {
          action: 'operator.disabled',
          by,
          subject: { type: 'operator', id: found.id },
          before: { disabled_at: null },
          after: { disabled_at: disabled.disabledAt?.toISOString() ?? null },
        });
        return disabled;
      });
    },

    async resetPassword(idOrEmail, by) {
      const password = oneTimePassword();
      const passwordHash = await hashPassword(password);
      const operator = await transact(async (tx) => {
        const found = await find(tx.operators, idOrEmail);
        refuseDisabled(found, 'new password');
        const changed = await tx.operators.setPassword(found.id, passwordHash, oneTimeUntil());
        if (!changed) throw new AppError('not_found', `No operator ${found.id}.`);
        await audit.record(tx, {
          action: 'operator.password_reset',
          by,
          subject: { type: 'operator', id: found.id },
          before: null,
          after: { must_choose_password: true },
        });
        return changed;
      });
      return { operator, oneTimePassword: password };
    },

    async resetSecondFactor(idOrEmail, by) {
      const password = oneTimePassword();
      const passwordHash = await hashPassword(password);
      const operator = await transact(async (tx) => {
        const found = await find(tx.operators, idOrEmail);
        refuseDisabled(found, 'new second factor');
        const changed = await tx.operators.resetSecondFactor(found.id, passwordHash, oneTimeUntil());
        if (!changed) throw new AppError('not_found', `No operator ${found.id}.`);
        // The audit trail's entry for an admin resetting another's second factor (issue 38).
        await audit.record(tx, {
          action: 'operator.second_factor_reset',
          by,
          subject: { type: 'operator', id: found.id },
          before: { second_factor_enrolled_at: found.secondFactorEnrolledAt?.toISOString() ?? null },
          after: { second_factor_enrolled_at: null, must_choose_password: true },
        });
        return changed;
      });
      return { operator, oneTimePassword: password };
    },
  };
}
