import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../src/deps.ts';
import type { OperatorRole } from '../../src/domain/operators/scopes.ts';
import { Browser, csrfOf } from './account-browser.ts';
import { codeFor, OPERATOR_PASSWORD, operatorEmail, TEST_ACTOR } from './operators.ts';

/** The secret the console's enrolment page shows (base32). */
const secretOf = (body: string): string => {
  const match = body.match(/<code id="secret">([A-Z2-7]+)<\/code>/);
  if (!match) throw new Error(`no secret on the page:\n${body.slice(0, 800)}`);
  return match[1]!;
};

/** The one-time password a People page shows once. */
export const oneTimePasswordOf = (body: string): string => {
  const match = body.match(/<code id="one-time-password">([^<]+)<\/code>/);
  if (!match) throw new Error(`no one-time password on the page:\n${body.slice(0, 800)}`);
  return match[1]!;
};

export interface ConsoleOperator {
  id: string;
  email: string;
  secret: string;
  b: Browser;
}

/**
 * An operator taken through their first console sign-in as a person would: the one-time password,
 * their own password, the second factor enrolled with a code computed from the page's secret.
 */
export async function consoleOperator(
  app: FastifyInstance,
  deps: Deps,
  role: OperatorRole,
  now: () => Date,
  ip = '10.90.0.1',
): Promise<ConsoleOperator> {
  const email = operatorEmail(`console-${role}`);
  const { operator, oneTimePassword } = await deps.operators.add(
    { email, name: `Console ${role}`, role },
    TEST_ACTOR,
  );
  const b = new Browser(app, ip);
  const secret = await firstSignIn(b, email, oneTimePassword, now);
  return { id: operator.id, email, secret, b };
}

/** The first sign-in's three steps; the enrolled secret. */
export async function firstSignIn(b: Browser, email: string, oneTimePassword: string, now: () => Date) {
  const signedIn = await b.submit('/console/sign-in', '/console/sign-in', {
    email,
    password: oneTimePassword,
  });
  if (signedIn.location !== '/console/setup')
    throw new Error(`sign-in: ${signedIn.status} ${signedIn.body.slice(0, 300)}`);
  const setup = await b.get('/console/setup');
  const chosen = await b.post('/console/setup/password', {
    _csrf: csrfOf(setup.body),
    password: OPERATOR_PASSWORD,
  });
  if (chosen.status !== 303) throw new Error(`password: ${chosen.status} ${chosen.body.slice(0, 300)}`);
  const enrol = await b.get('/console/setup');
  const secret = secretOf(enrol.body);
  const confirmed = await b.post('/console/setup/second-factor', {
    _csrf: csrfOf(enrol.body),
    code: codeFor(secret, now()),
  });
  if (confirmed.status !== 200) throw new Error(`enrol: ${confirmed.status} ${confirmed.body.slice(0, 300)}`);
  return secret;
}
