import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { operatorJson } from '../../../domain/operators/operator.ts';
import {
  type ActiveOperatorSession,
  OPERATOR_SESSION_IDLE_MS,
  type OpenedSession,
  type OperatorSessions,
} from '../../../domain/operators/operator-sessions.ts';
import { opsTokenJson } from '../../../domain/operators/ops-token-json.ts';
import type { OpsTokenService } from '../../../domain/operators/ops-token-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { requireOperator, scopesOf } from '../../shared/operator-requirements.ts';
import { absentBodyIsEmpty } from '../../shared/optional-body.ts';
import {
  CodeBody,
  EnrolledResponse,
  EnrolmentResponse,
  MeResponse,
  PasswordBody,
  RecoveryCodesResponse,
  SessionResponse,
  SignInBody,
} from '../../shared/schemas/operators.ts';
import { errorResponses, NoBody } from '../../shared/schemas/shared.ts';

const TAGS = ['People and tokens'];
const IDLE_SECONDS = OPERATOR_SESSION_IDLE_MS / 1000;
const FAILED_ATTEMPTS =
  'Too many failed attempts (a wrong current password or code) for this person or from this address, or too many wrong credentials from this address (`rate_limited`).';

const setupJson = (session: ActiveOperatorSession) =>
  session.setup
    ? { choose_password: session.setup.choosePassword, enrol_second_factor: session.setup.enrolSecondFactor }
    : null;

const openedJson = ({ token, session }: OpenedSession) => ({
  token,
  expires_at: session.expiresAt.toISOString(),
  idle_timeout_seconds: IDLE_SECONDS,
  setup: setupJson(session),
});

/** The caller's own session (routes whose requirement is `own_session`). */
function ownSession(request: FastifyRequest): ActiveOperatorSession {
  const principal = requireOperator(request, 'own_session');
  if (principal.credential !== 'session') throw new Error('own_session let through no session');
  return principal.session;
}

/**
 * An operator's session of the operations API: sign in with e-mail, password and code (a bearer
 * session token back), who am I, sign out; and what a first sign-in must do before anything else,
 * choose a password and enrol the second factor (TOTP), with the recovery codes.
 */
export function opsSessionRoutes(
  app: TypedApp,
  deps: { operatorSessions: OperatorSessions; opsTokens: OpsTokenService },
): void {
  const sessions = deps.operatorSessions;

  app.post(
    '/sessions',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'opsSignIn',
        summary: 'Sign in: e-mail, password and second-factor code → a session token',
        description:
          'The answer is the same for an unknown e-mail, a wrong password or code, a used or expired one-time password and a disabled ' +
          'operator (401). A TOTP code is accepted once; a recovery code once. Failed attempts are limited to 10 per 15 minutes per ' +
          'e-mail and per address (429); successes are not counted. A first sign-in (a one-time password, or no second factor yet) ' +
          'opens a setup session (`setup`), which can only choose the password (`PUT /me/password`) and enrol the second factor ' +
          '(`POST /me/second-factor`, then `/confirm`), each answering the session that replaces it.',
        tags: TAGS,
        body: SignInBody,
        response: {
          201: SessionResponse,
          ...errorResponses([400, 401, 413, 415, 429], {
            401: 'Sign-in refused (`unauthorized`): one answer whatever was wrong.',
            429: 'Too many failed sign-ins for this e-mail or from this address (`rate_limited`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const opened = await sessions.signIn({
        email: request.body.email,
        password: request.body.password,
        code: request.body.code ?? null,
        ip: request.ip,
        channel: 'api',
      });
      return reply.code(201).send({
        ok: true as const,
        operator: operatorJson(opened.session.operator),
        session: openedJson(opened),
      });
    },
  );

  app.delete(
    '/sessions/current',
    {
      config: { auth: { ops: 'own_session' } },
      schema: {
        operationId: 'opsSignOut',
        summary: 'Sign out: the session token stops working at once',
        tags: TAGS,
        response: { 200: Type.Object({ ok: Type.Literal(true) }), ...errorResponses([401, 403]) },
      },
    },
    async (request) => {
      await sessions.signOut(ownSession(request));
      return { ok: true as const };
    },
  );

  app.get(
    '/me',
    {
      config: { auth: { ops: 'any' } },
      schema: {
        operationId: 'opsWhoAmI',
        summary: 'The credential of this request and what it may do',
        description:
          'A person’s session (their role’s scopes; a setup session none), a machine token (its scopes) or the bootstrap OPS_TOKEN (every scope).',
        tags: TAGS,
        response: { 200: MeResponse, ...errorResponses([401]) },
      },
    },
    async (request) => {
      const principal = requireOperator(request, 'any');
      const scopes = [...scopesOf(principal)];
      if (principal.credential === 'session') {
        const session = principal.session;
        return {
          ok: true as const,
          credential: 'session' as const,
          scopes,
          operator: operatorJson(session.operator),
          session: {
            expires_at: session.expiresAt.toISOString(),
            idle_timeout_seconds: IDLE_SECONDS,
            setup: setupJson(session),
            recovery_codes_left: await sessions.recoveryCodesLeft(session),
          },
          token: null,
        };
      }
      if (principal.credential === 'token') {
        const token = (await deps.opsTokens.list()).find((t) => t.id === principal.token.id);
        return {
          ok: true as const,
          credential: 'token' as const,
          scopes,
          operator: null,
          session: null,
          token: token ? opsTokenJson(token) : null,
        };
      }
      return {
        ok: true as const,
        credential: 'ops_token' as const,
        scopes,
        operator: null,
        session: null,
        token: null,
      };
    },
  );

  app.put(
    '/me/password',
    {
      config: { auth: { ops: 'own_session' } },
      schema: {
        operationId: 'opsChoosePassword',
        summary: 'Choose your own password',
        description:
          'After a one-time password, nothing more is asked; otherwise `current_password` (a wrong one counts as a failed sign-in). ' +
          'The account area’s rules (12 to 128 characters, not a common password, not the e-mail’s local part, not the password held). ' +
          'Every session of the operator ends; the answer is the session that replaces this one.',
        tags: TAGS,
        body: PasswordBody,
        response: {
          200: SessionResponse,
          ...errorResponses([400, 401, 403, 413, 415, 429], { 429: FAILED_ATTEMPTS }),
        },
      },
    },
    async (request) => {
      const opened = await sessions.choosePassword(ownSession(request), {
        current: request.body.current_password ?? null,
        password: request.body.password,
        ip: request.ip,
      });
      return {
        ok: true as const,
        operator: operatorJson(opened.session.operator),
        session: openedJson(opened),
      };
    },
  );

  app.post(
    '/me/second-factor',
    {
      config: { auth: { ops: 'own_session' } },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'opsBeginEnrolment',
        summary: 'Begin enrolling your second factor (TOTP): a secret and its QR code',
        description:
          'Scan `qr_svg` with an authenticator app (or type `secret`), then confirm with the code it shows. Asking again replaces the ' +
          'secret not yet confirmed. Once enrolled: 409 `second_factor_enrolled` (an admin resets a lost one).',
        tags: TAGS,
        body: NoBody,
        response: { 200: EnrolmentResponse, ...errorResponses([400, 401, 403, 409, 413, 415]) },
      },
    },
    async (request) => {
      const enrolment = await sessions.beginEnrolment(ownSession(request));
      return {
        ok: true as const,
        secret: enrolment.secret,
        otpauth_uri: enrolment.uri,
        qr_svg: enrolment.qrSvg,
      };
    },
  );

  app.post(
    '/me/second-factor/confirm',
    {
      config: { auth: { ops: 'own_session' } },
      schema: {
        operationId: 'opsConfirmEnrolment',
        summary: 'Confirm the enrolment with the code the app shows; get the recovery codes',
        description:
          'A wrong code is a 400 naming `code` (counted as a failed sign-in). The answer gives the 10 recovery codes, once, and the ' +
          'session that replaces this one: signed in, unless the password is still to choose.',
        tags: TAGS,
        body: CodeBody,
        response: {
          200: EnrolledResponse,
          ...errorResponses([400, 401, 403, 409, 413, 415, 429], { 429: FAILED_ATTEMPTS }),
        },
      },
    },
    async (request) => {
      const { recoveryCodes, ...opened } = await sessions.confirmEnrolment(ownSession(request), {
        code: request.body.code,
        ip: request.ip,
      });
      return {
        ok: true as const,
        operator: operatorJson(opened.session.operator),
        session: openedJson(opened),
        recovery_codes: recoveryCodes,
      };
    },
  );

  app.post(
    '/me/recovery-codes',
    {
      config: { auth: { ops: 'own_session' } },
      schema: {
        operationId: 'opsRenewRecoveryCodes',
        summary: 'Replace your recovery codes (with a current code)',
        description:
          'The 10 new codes are shown once; the old ones stop working. A setup session: 403 `setup_required`.',
        tags: TAGS,
        body: CodeBody,
        response: {
          200: RecoveryCodesResponse,
          ...errorResponses([400, 401, 403, 413, 415, 429], { 429: FAILED_ATTEMPTS }),
        },
      },
    },
    async (request) => ({
      ok: true as const,
      recovery_codes: await sessions.renewRecoveryCodes(ownSession(request), {
        code: request.body.code,
        ip: request.ip,
      }),
    }),
  );
}
