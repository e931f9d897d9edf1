import { readFileSync } from 'node:fs';
import { fieldProblem } from '../../errors.ts';

const PASSWORD_MIN = 12;
const PASSWORD_MAX = 128;

// Read by the first password checked (sign-up, reset, invitation), not by every process wiring the services.
let common: Set<string> | null = null;
const commonPasswords = (): Set<string> =>
  (common ??= new Set(
    readFileSync(new URL('../../../data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter(Boolean),
  ));

// The native argon2 binding is loaded by the first hash or verification, likewise.
const argon2 = () => import('@node-rs/argon2');

/**
 * OWASP's argon2id parameters (m = 19 MiB, t = 2, p = 1). `algorithm: 2` is Argon2id: the
 * package's `Algorithm` is a const enum, which isolated-module builds cannot import.
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The password rules (length, not a common password, not the e-mail's local part); throws a 400 on `password`. */
export function checkPassword(password: string, email: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw fieldProblem('password', 'length.between', { min: PASSWORD_MIN, max: PASSWORD_MAX });
  }
  if (commonPasswords().has(password.toLowerCase())) throw fieldProblem('password', 'password.common');
  const local = email.split('@')[0]!.toLowerCase();
  if (local.length >= 3 && password.toLowerCase().includes(local)) {
    throw fieldProblem('password', 'password.containsEmail');
  }
}

export const hashPassword = async (password: string): Promise<string> =>
  (await argon2()).hash(password, ARGON2ID);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail is unknown, so a wrong e-mail costs the same time as a wrong password.
let decoy: Promise<string> | null = null;
export async function verifyDecoy(password: string): Promise<void> {
  decoy ??= hashPassword('decoy password for unknown accounts');
  await verifyPassword(await decoy, password);
}
