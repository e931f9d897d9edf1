import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../src/deps.ts';
import type { OperatorRole } from '../../src/domain/operators/scopes.ts';
import { base32Decode, totpAt } from '../../src/domain/operators/totp.ts';
import { call } from './app.ts';

/** Who made a change in the tests' own set-up (the audit trail's `cli@host`). */
export const TEST_ACTOR = { party: { kind: 'cli' as const, label: 'cli@test' }, address: null };

export const OPERATOR_PASSWORD = 'correct horse battery staple 42';

let counter = 0;
export const operatorEmail = (label: string) => `${label}-${Date.now()}-${++counter}@ops.example`;

/** The code an authenticator app shows for a base32 secret at `at`. */
export const codeFor = (secret: string, at: Date): string => totpAt(base32Decode(secret), at);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface SignedInOperator {
  id: string;
  email: string;
  password: string;
  /** The TOTP secret (base32) as the enrolment gave it. */
  secret: string;
  recoveryCodes: string[];
  /** A signed-in session's token. */
  token: string;
}

/**
 * An operator taken through their first sign-in as a person would: the one-time password, their own
 * password, the second factor enrolled with a code computed from the secret. `now` is the clock the
 * app reads (moved by the caller between codes).
 */
export async function enrolledOperator(
  app: FastifyInstance,
  deps: Deps,
  role: OperatorRole,
  now: () => Date,
  options: { ip?: string } = {},
): Promise<SignedInOperator> {
  const email = operatorEmail(role);
  const { operator, oneTimePassword } = await deps.operators.add(
    { email, name: `Test ${role}`, role },
    TEST_ACTOR,
  );
  const remoteAddress = options.ip ?? '10.60.0.1';
  const first = await call(app, {
    method: 'POST',
    url: '/ops/v1/sessions',
    remoteAddress,
    payload: { email, password: oneTimePassword },
  });
  if (first.statusCode !== 201) throw new Error(`first sign-in: ${first.statusCode} ${first.body}`);
  const chosen = await call(app, {
    method: 'PUT',
    url: '/ops/v1/me/password',
    remoteAddress,
    headers: bearer(first.data.session.token),
    payload: { password: OPERATOR_PASSWORD },
  });
  if (chosen.statusCode !== 200) throw new Error(`password: ${chosen.statusCode} ${chosen.body}`);
  const begun = await call(app, {
    method: 'POST',
    url: '/ops/v1/me/second-factor',
    remoteAddress,
    headers: bearer(chosen.data.session.token),
  });
  if (begun.statusCode !== 200) throw new Error(`enrolment: ${begun.statusCode} ${begun.body}`);
  const confirmed = await call(app, {
    method: 'POST',
    url: '/ops/v1/me/second-factor/confirm',
    remoteAddress,
    headers: bearer(chosen.data.session.token),
    payload: { code: codeFor(begun.data.secret, now()) },
  });
  if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`);
  return {
    id: operator.id,
    email,
    password: OPERATOR_PASSWORD,
    secret: begun.data.secret,
    recoveryCodes: confirmed.data.recovery_codes,
    token: confirmed.data.session.token,
  };
}
