import { fieldProblem, invalidField } from '../../errors.ts';
import { validateEmail } from '../accounts/user.ts';
import { isOperatorRole, OPERATOR_ROLES, type OperatorRole } from './scopes.ts';

/** A person of the delivery company with an account of their own (never with its secrets). */
export interface Operator {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
  /**
   * True while the password they hold was given by an admin (a one-time password): it opens one
   * sign-in, which must choose their own before anything else.
   */
  mustChoosePassword: boolean;
  /** When their second factor (TOTP) was enrolled; null until then, and after an admin's reset. */
  secondFactorEnrolledAt: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
}

/** An operator as the store keeps them: with the password's hash and the sealed TOTP secrets. */
export interface StoredOperator extends Operator {
  passwordHash: string;
  /** A one-time password's end (null: the password is their own). */
  oneTimePasswordUntil: Date | null;
  /** The enrolled TOTP secret, sealed (totp-sealer.ts). */
  totpSecret: Buffer | null;
  /** An enrolment begun and not yet confirmed with a code, sealed. */
  totpPendingSecret: Buffer | null;
  /** The last TOTP time step accepted: a code is taken once. */
  totpLastStep: number | null;
}

export function validateOperatorName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    throw fieldProblem('name', 'length.between', { min: 1, max: 100 });
  if (/\p{Cc}/u.test(trimmed)) throw invalidField('name', 'must not contain control characters');
  return trimmed;
}

export function validateOperatorRole(role: string): OperatorRole {
  if (!isOperatorRole(role)) throw invalidField('role', `must be one of ${OPERATOR_ROLES.join(', ')}`);
  return role;
}

export const validateOperatorEmail = (email: string): string => validateEmail(email).toLowerCase();

/** An operator as the CLI's `--json` and the operations API show them. */
export function operatorJson(o: Operator) {
  return {
    id: o.id,
    email: o.email,
    name: o.name,
    role: o.role,
    must_choose_password: o.mustChoosePassword,
    second_factor_enrolled_at: o.secondFactorEnrolledAt?.toISOString() ?? null,
    disabled_at: o.disabledAt?.toISOString() ?? null,
    created_at: o.createdAt.toISOString(),
  };
}
