import { createHash, randomBytes } from 'node:crypto';
import { AppError, fieldProblem, invalidField } from '../../errors.ts';
import { countSignInAttempt } from '../accounts/failed-sign-ins.ts';
import { checkPassword, hashPassword, verifyDecoy, verifyPassword } from '../accounts/password.ts';
import type { RateLimiter } from '../accounts/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import type { ActedBy, OperatorAudit } from './acting.ts';
import { qrCodeSvg } from './enrolment-qr.ts';
import type { Operator, StoredOperator } from './operator.ts';
import type { OperatorSessionRecord, OperatorStore, SessionChannel, SessionStage } from './ports.ts';
import {
  hashRecoveryCode,
  looksLikeRecoveryCode,
  newRecoveryCode,
  RECOVERY_CODE_COUNT,
} from './recovery-codes.ts';
import { base32Encode, matchingStep, newTotpSecret, otpauthUri } from './totp.ts';
import type { TotpSealer } from './totp-sealer.ts';

/**
 * ASVS 4 §3.3.2 at level 2: a session ends after 30 minutes unused and 12 hours after sign-in,
 * however active (stricter than a brand's account: an operator's session opens every brand).
 */
export const OPERATOR_SESSION_IDLE_MS = 30 * 60_000;
const SESSION_ABSOLUTE_MS = 12 * 3600_000;
/** A setup session (choose a password, enrol the second factor) is for doing that now. */
const SETUP_SESSION_MS = 15 * 60_000;

/** `dlv_sess_` + 32 random bytes in base64url: recognisable wherever it leaks (logs, a paste). */
const SESSION_TOKEN_PATTERN = /^dlv_sess_[A-Za-z0-9_-]{43}$/;
/** The session's id: SHA-256 of its token (256 random bits: nothing to brute-force). */
const sessionId = (token: string): Buffer => createHash('sha256').update(token).digest();

// One answer whatever was wrong, so a refusal never confirms that a password was right.
const SIGN_IN_REFUSED =
  'Sign-in refused: the e-mail, the password or the second-factor code is wrong, the one-time password was used or has expired, or the account is disabled.';

/** What a setup session still has to do before the operator is signed in. */
interface SetupSteps {
  choosePassword: boolean;
  enrolSecondFactor: boolean;
}

export interface ActiveOperatorSession {
  /** SHA-256 of the token: what the database knows the session by. */
  id: Buffer;
  operator: Operator;
  record: OperatorSessionRecord;
  /** When it ends however active (it also ends after OPERATOR_SESSION_IDLE_MS unused). */
  expiresAt: Date;
  /** Null for a signed-in session; a setup session's steps left. */
  setup: SetupSteps | null;
}

/** A session just opened: its token (given once) and what it is. */
export interface OpenedSession {
  token: string;
  session: ActiveOperatorSession;
}

/** A second factor being enrolled: the secret as the authenticator app takes it. */
interface Enrolment {
  /** Base32, for typing into the app by hand. */
  secret: string;
  /** `otpauth://totp/…`, what the QR code carries. */
  uri: string;
  /** The QR code of `uri`, an SVG document drawn here. */
  qrSvg: string;
}

export interface OperatorSessionsDeps {
  operators: OperatorStore;
  transact: Transact;
  /** Failed sign-ins and codes, per account and per client address (successes are given back). */
  signInLimiter: RateLimiter;
  sealer: TotpSealer;
  clock: Clock;
  /** The issuer authenticator apps show beside the code (the carrier's name). */
  issuer: string;
  audit: OperatorAudit;
}

/**
 * Operators' sign-in (password, then a TOTP or recovery code), their sessions (the operations API's
 * bearer sessions now, the console's cookies next: one store, a channel each) and the set-up a first
 * sign-in goes through: choosing their own password, enrolling the second factor.
 */
export interface OperatorSessions {
  /**
   * A new session for the right e-mail and password and, once enrolled, a right code (a TOTP code
   * not used before, or an unused recovery code). Without a factor enrolled, or with a one-time
   * password, the session is a setup session. Only failures count against the limits (10 per
   * 15 minutes per e-mail and per address).
   */
  signIn(input: {
    email: string;
    password: string;
    code: string | null;
    ip: string;
    channel: SessionChannel;
  }): Promise<OpenedSession>;
  /** The session of a token, or null (unknown, idle, too old, another channel's, operator disabled). */
  resume(token: string, channel: SessionChannel): Promise<ActiveOperatorSession | null>;
  signOut(session: ActiveOperatorSession): Promise<void>;
  /**
   * The operator's own password (the account area's rules; not the one it replaces). After a
   * one-time password nothing more is asked; otherwise the current password (a wrong one counts as
   * a failed sign-in). Every session ends; the one returned replaces the caller's.
   */
  choosePassword(
    session: ActiveOperatorSession,
    input: { current: string | null; password: string; ip: string },
  ): Promise<OpenedSession>;
  /** A new secret to enrol (replacing one begun before); refused once a factor is enrolled. */
  beginEnrolment(session: ActiveOperatorSession): Promise<Enrolment>;
  /**
   * Enrols the secret begun with the code the app shows for it, and gives the 10 recovery codes
   * (once: only their digests are kept). The session is replaced by one that is signed in, unless
   * the password is still to choose.
   */
  confirmEnrolment(
    session: ActiveOperatorSession,
    input: { code: string; ip: string },
  ): Promise<OpenedSession & { recoveryCodes: string[] }>;
  /** 10 new recovery codes for a current TOTP code; the old ones stop working. */
  renewRecoveryCodes(session: ActiveOperatorSession, input: { code: string; ip: string }): Promise<string[]>;
  recoveryCodesLeft(session: ActiveOperatorSession): Promise<number>;
  /** Dead sessions (the hourly cleanup). */
  deleteExpired(): Promise<number>;
}

const stripSecrets = ({
  passwordHash: _,
  oneTimePasswordUntil: __,
  totpSecret: ___,
  totpPendingSecret: ____,
  totpLastStep: _____,
  ...operator
}: StoredOperator): Operator => operator;

const stepsOf = (o: Operator): SetupSteps => ({
  choosePassword: o.mustChoosePassword,
  enrolSecondFactor: o.secondFactorEnrolledAt === null,
});
const stageOf = (steps: SetupSteps): SessionStage =>
  steps.choosePassword || steps.enrolSecondFactor ? 'setup' : 'full';

const selfActed = (o: Operator, ip: string | null): ActedBy => ({
  party: { kind: 'operator', operatorId: o.id, email: o.email, role: o.role },
  address: ip,
});

export function operatorSessions(deps: OperatorSessionsDeps): OperatorSessions {
  const { operators, transact, clock, sealer } = deps;

  const bounds = () => {
    const now = clock().getTime();
    return {
      idleSince: new Date(now - OPERATOR_SESSION_IDLE_MS),
      openedSince: new Date(now - SESSION_ABSOLUTE_MS),
      setupOpenedSince: new Date(now - SETUP_SESSION_MS),
    };
  };

  const attempt = (email: string, ip: string) =>
    countSignInAttempt(deps.signInLimiter, 'operator:signin', email, ip);

  function viewOf(id: Buffer, operator: Operator, record: OperatorSessionRecord): ActiveOperatorSession {
    const setup = record.stage === 'setup' ? stepsOf(operator) : null;
    const life = record.stage === 'setup' ? SETUP_SESSION_MS : SESSION_ABSOLUTE_MS;
    return { id, operator, record, expiresAt: new Date(record.createdAt.getTime() + life), setup };
  }

  async function open(
    store: OperatorStore,
    operator: Operator,
    stage: SessionStage,
    channel: SessionChannel,
  ): Promise<OpenedSession> {
    const token = `dlv_sess_${randomBytes(32).toString('base64url')}`;
    const id = sessionId(token);
    const at = clock();
    const record: OperatorSessionRecord = {
      operatorId: operator.id,
      channel,
      stage,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: at,
      lastSeenAt: at,
    };
    await store.insertSession({
      id,
      operatorId: operator.id,
      channel,
      stage,
      csrfToken: record.csrfToken,
      at,
    });
    return { token, session: viewOf(id, operator, record) };
  }

  /** A TOTP code (once) or an unused recovery code of an enrolled operator. */
  async function secondFactorHolds(found: StoredOperator, code: string | null): Promise<boolean> {
    if (!code || !found.totpSecret) return false;
    if (looksLikeRecoveryCode(code))
      return operators.useRecoveryCode(found.id, hashRecoveryCode(code), clock());
    const secret = await sealer.open(found.totpSecret, found.id);
    const step = matchingStep(secret, code.slice(0, 20), clock(), found.totpLastStep);
    return step !== null && operators.useTotpStep(found.id, step);
  }

  async function current(session: ActiveOperatorSession): Promise<StoredOperator> {
    const found = await operators.findById(session.operator.id);
    if (!found || found.disabledAt) throw new AppError('unauthorized', 'Sign in as an operator first.');
    return found;
  }

  const setupFirst = () =>
    new AppError(
      'setup_required',
      'Finish setting up your account first: choose your password and enrol your second factor.',
    );

  return {
    async signIn(input) {
      const email = input.email.trim().toLowerCase();
      const counted = await attempt(email.slice(0, 254), input.ip);
      const found = email.length <= 254 ? await operators.findByEmail(email) : null;
      const password = input.password.slice(0, 1024);
      // The password is checked whatever else is wrong: the refusal costs the same time either way.
      const right = found
        ? await verifyPassword(found.passwordHash, password)
        : await verifyDecoy(password).then(() => false);
      if (!found || !right || found.disabledAt || input.password.length > 1024)
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      const oneTime = found.oneTimePasswordUntil;
      if (oneTime !== null && oneTime <= clock()) throw new AppError('unauthorized', SIGN_IN_REFUSED);
      // Enrolled: the code too, before a one-time password is used up (a wrong code leaves it usable).
      if (found.totpSecret && !(await secondFactorHolds(found, input.code)))
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      if (oneTime !== null && !(await operators.useOneTimePassword(found.id, found.passwordHash, clock())))
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      await counted.succeeded();
      const operator = stripSecrets(found);
      return open(operators, operator, stageOf(stepsOf(operator)), input.channel);
    },

    async resume(token, channel) {
      if (!SESSION_TOKEN_PATTERN.test(token)) return null;
      const id = sessionId(token);
      const record = await operators.touchSession(id, channel, clock(), bounds());
      if (!record) return null;
      const found = await operators.findById(record.operatorId);
      if (!found || found.disabledAt) {
        await operators.deleteSession(id);
        return null;
      }
      return viewOf(id, stripSecrets(found), record);
    },

    signOut: (session) => operators.deleteSession(session.id),

    async choosePassword(session, input) {
      const found = await current(session);
      if (!found.mustChoosePassword) {
        const counted = await attempt(found.email.toLowerCase(), input.ip);
        if (!(await verifyPassword(found.passwordHash, (input.current ?? '').slice(0, 1024))))
          throw fieldProblem('current_password', 'password.currentWrong');
        await counted.succeeded();
      }
      checkPassword(input.password, found.email);
      // The one-time password again would keep the admin's password.
      if (await verifyPassword(found.passwordHash, input.password.slice(0, 1024)))
        throw fieldProblem('password', 'password.unchanged');
      const passwordHash = await hashPassword(input.password);
      return transact(async (tx) => {
        const changed = await tx.operators.setPassword(found.id, passwordHash, null);
        if (!changed) throw new AppError('unauthorized', 'Sign in as an operator first.');
        await deps.audit.record(tx, {
          action: 'operator.password_changed',
          by: selfActed(changed, input.ip),
          subject: { type: 'operator', id: changed.id },
          before: found.mustChoosePassword ? { must_choose_password: true } : null,
          after: { must_choose_password: false },
        });
        // Every session ended with the old password; a signed-in one stays signed in.
        const stage = session.record.stage === 'full' ? 'full' : stageOf(stepsOf(changed));
        return open(tx.operators, changed, stage, session.record.channel);
      });
    },

    async beginEnrolment(session) {
      const found = await current(session);
      if (found.totpSecret)
        throw new AppError(
          'second_factor_enrolled',
          'Your second factor is enrolled already; an admin can reset it if you lost your authenticator.',
        );
      const secret = newTotpSecret();
      await operators.setPendingSecret(found.id, await sealer.seal(secret, found.id));
      const uri = otpauthUri({ issuer: deps.issuer, account: found.email, secret });
      return { secret: base32Encode(secret), uri, qrSvg: await qrCodeSvg(uri) };
    },

    async confirmEnrolment(session, input) {
      const found = await current(session);
      if (found.totpSecret)
        throw new AppError('second_factor_enrolled', 'Your second factor is enrolled already.');
      const pending = found.totpPendingSecret;
      if (!pending)
        throw new AppError('invalid_request', 'No enrolment is under way: ask for a new secret first.');
      const counted = await attempt(found.email.toLowerCase(), input.ip);
      const secret = await sealer.open(pending, found.id);
      const step = matchingStep(secret, input.code.slice(0, 20), clock(), null);
      if (step === null) throw invalidField('code', 'is not the code your authenticator app shows now');
      await counted.succeeded();
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const opened = await transact(async (tx: Stores) => {
        const at = clock();
        const enrolled = await tx.operators.enrol(
          found.id,
          pending,
          step,
          at,
          codes.map((c) => c.hash),
        );
        if (!enrolled)
          throw new AppError(
            'second_factor_enrolled',
            'The enrolment changed meanwhile: ask for a new secret.',
          );
        const operator = { ...stripSecrets(found), secondFactorEnrolledAt: at };
        await deps.audit.record(tx, {
          action: 'operator.second_factor_enrolled',
          by: selfActed(operator, input.ip),
          subject: { type: 'operator', id: operator.id },
          before: { second_factor_enrolled_at: null },
          after: { second_factor_enrolled_at: at.toISOString() },
        });
        // A new token now that the second factor is proven (no session survives a change of privilege).
        await tx.operators.deleteSession(session.id);
        return open(tx.operators, operator, stageOf(stepsOf(operator)), session.record.channel);
      });
      return { ...opened, recoveryCodes: codes.map((c) => c.code) };
    },

    async renewRecoveryCodes(session, input) {
      if (session.setup) throw setupFirst();
      const found = await current(session);
      const counted = await attempt(found.email.toLowerCase(), input.ip);
      const secret = found.totpSecret ? await sealer.open(found.totpSecret, found.id) : null;
      const step = secret ? matchingStep(secret, input.code.slice(0, 20), clock(), found.totpLastStep) : null;
      if (step === null || !(await operators.useTotpStep(found.id, step)))
        throw invalidField('code', 'is not a code your authenticator app shows now (or it was used already)');
      await counted.succeeded();
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await transact(async (tx) => {
        await tx.operators.replaceRecoveryCodes(
          found.id,
          codes.map((c) => c.hash),
        );
        await deps.audit.record(tx, {
          action: 'operator.recovery_codes_renewed',
          by: selfActed(stripSecrets(found), input.ip),
          subject: { type: 'operator', id: found.id },
          before: null,
          after: null,
        });
      });
      return codes.map((c) => c.code);
    },

    recoveryCodesLeft: (session) => operators.recoveryCodesLeft(session.operator.id),

    deleteExpired: () => operators.deleteExpiredSessions(bounds()),
  };
}
