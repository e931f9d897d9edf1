import type { Operator, StoredOperator } from './operator.ts';
import type { OperatorRole, OpsScope } from './scopes.ts';

/** Where an operator session is used: the operations API (a bearer token) or the console (a cookie). */
export type SessionChannel = 'api' | 'console';

/**
 * `setup`: opened by a sign-in that still has to choose the operator's own password or enrol the
 * second factor, and good for nothing else; `full`: signed in with both factors.
 */
export type SessionStage = 'setup' | 'full';

export interface OperatorSessionRecord {
  operatorId: string;
  channel: SessionChannel;
  stage: SessionStage;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The operators (`operators`), their recovery codes and their sessions. E-mails unique whatever their case. */
export interface OperatorStore {
  /** Null when the e-mail is already an operator's. */
  insert(operator: {
    id: string;
    email: string;
    name: string;
    role: OperatorRole;
    passwordHash: string;
    oneTimePasswordUntil: Date | null;
  }): Promise<Operator | null>;
  findById(id: string): Promise<StoredOperator | null>;
  findByEmail(email: string): Promise<StoredOperator | null>;
  /** Every operator, enabled first, then by name. */
  list(): Promise<Operator[]>;
  /** The enabled admins, locked (in a transaction) so that the last one is never demoted or disabled twice at once. */
  lockEnabledAdmins(): Promise<string[]>;
  setRole(id: string, role: OperatorRole): Promise<Operator | null>;
  /** Marks the operator disabled (the first date stays) and ends its sessions, in one statement. */
  disable(id: string, at: Date): Promise<Operator | null>;
  /**
   * A new password hash and every session ended, in one statement. `oneTimeUntil`: the hash is of a
   * one-time password given by an admin, accepted once before then; null: the operator's own.
   */
  setPassword(id: string, passwordHash: string, oneTimeUntil: Date | null): Promise<Operator | null>;
  /**
   * The second factor removed (secret, pending enrolment, last step, recovery codes), a one-time
   * password set and every session ended, in one statement.
   */
  resetSecondFactor(id: string, passwordHash: string, oneTimeUntil: Date): Promise<Operator | null>;
  /** Uses up a one-time password: true when this call did (still that hash, live at `at`, enabled). */
  useOneTimePassword(id: string, passwordHash: string, at: Date): Promise<boolean>;
  /** Records `step` as the last TOTP step accepted: true when it is later than the last one (a code is taken once). */
  useTotpStep(id: string, step: number): Promise<boolean>;
  setPendingSecret(id: string, sealed: Buffer): Promise<void>;
  /**
   * Makes the pending secret (still `pending`, nothing enrolled meanwhile) the operator's second
   * factor, `step` its first accepted step, and `recoveryHashes` its recovery codes; false when the
   * pending secret changed or a factor is already enrolled.
   */
  enrol(id: string, pending: Buffer, step: number, at: Date, recoveryHashes: Buffer[]): Promise<boolean>;
  /** The operator's recovery codes replaced by these (the old ones stop working). */
  replaceRecoveryCodes(id: string, hashes: Buffer[]): Promise<void>;
  /** Uses up one recovery code: true when it was the operator's and unused. */
  useRecoveryCode(id: string, hash: Buffer, at: Date): Promise<boolean>;
  recoveryCodesLeft(id: string): Promise<number>;

  insertSession(session: {
    id: Buffer;
    operatorId: string;
    channel: SessionChannel;
    stage: SessionStage;
    csrfToken: string;
    at: Date;
  }): Promise<void>;
  /**
   * The session of `channel` if used since `idleSince` and opened after `openedSince` (after
   * `setupOpenedSince` for a setup session), its last use moved to `at` in the same statement; a
   * dead one is deleted and null returned.
   */
  touchSession(
    id: Buffer,
    channel: SessionChannel,
    at: Date,
    bounds: { idleSince: Date; openedSince: Date; setupOpenedSince: Date },
  ): Promise<OperatorSessionRecord | null>;
  deleteSession(id: Buffer): Promise<void>;
  /** Dead sessions (the hourly cleanup): how many were deleted. */
  deleteExpiredSessions(bounds: {
    idleSince: Date;
    openedSince: Date;
    setupOpenedSince: Date;
  }): Promise<number>;
}

/** A machine token as stored and listed: its digest's display prefix, never the token. */
export interface OpsToken {
  id: string;
  name: string;
  prefix: string;
  scopes: OpsScope[];
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface OpsTokenStore {
  /** Null when an unrevoked token already has that name. */
  insert(token: {
    id: string;
    name: string;
    hash: Buffer;
    prefix: string;
    scopes: OpsScope[];
    expiresAt: Date | null;
  }): Promise<OpsToken | null>;
  /** The token of `hash` if it works at `at`: not revoked, not past its expiry. */
  findActiveByHash(hash: Buffer, at: Date): Promise<OpsToken | null>;
  /** Every token, working ones first, newest first. */
  list(): Promise<OpsToken[]>;
  /** Revokes a token (again: unchanged); `justRevoked` says whether this call did; null when unknown. */
  revoke(id: string): Promise<(OpsToken & { justRevoked: boolean }) | null>;
  touch(id: string, at: Date): Promise<void>;
}
