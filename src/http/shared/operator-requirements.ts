import type { FastifyRequest } from 'fastify';
import type { ActedBy } from '../../domain/operators/acting.ts';
import { OPS_SCOPES, type OpsScope, ROLE_SCOPES, rolesGranting } from '../../domain/operators/scopes.ts';
import { AppError } from '../../errors.ts';
import type { OperatorIdentity } from './operator-access.ts';
import type { OperatorPrincipal } from './principal.ts';

/**
 * What an operations route (or, next, a console page) requires of its operator: one scope, which a
 * machine token holds if created with it, a person if their role grants it (ROLE_SCOPES), and the
 * bootstrap OPS_TOKEN always; or `any` (any valid operator credential, a setup session included:
 * who am I, sign out); or `own_session` (a person's own session, setup included: their password,
 * their second factor).
 */
export type OperatorRequirement = OpsScope | 'any' | 'own_session';

/** The scopes a credential holds. */
export function scopesOf(identity: OperatorIdentity): readonly OpsScope[] {
  switch (identity.credential) {
    case 'ops_token':
      return OPS_SCOPES;
    case 'token':
      return identity.token.scopes;
    case 'session':
      return identity.session.setup !== null ? [] : ROLE_SCOPES[identity.operator.role];
  }
}

/** The 403 of a token or OPS_TOKEN on a route of a person's own session. */
export const OWN_SESSION_ONLY =
  "This is an operator's own session's route: sign in with POST /ops/v1/sessions (a token or OPS_TOKEN has no session).";

const SETUP_FIRST =
  'Finish setting up your account first: choose your own password (PUT /ops/v1/me/password) and enrol your second factor (POST /ops/v1/me/second-factor).';

/** Null when `identity` meets `requirement`; else the 403 saying what is missing and who has it. */
export function operatorRefusal(
  identity: OperatorIdentity,
  requirement: OperatorRequirement,
): AppError | null {
  if (requirement === 'any') return null;
  if (requirement === 'own_session')
    return identity.credential === 'session' ? null : new AppError('insufficient_scope', OWN_SESSION_ONLY);
  if (identity.credential === 'session' && identity.session.setup !== null)
    return new AppError('setup_required', SETUP_FIRST);
  if (scopesOf(identity).includes(requirement)) return null;
  if (identity.credential === 'session')
    return new AppError(
      'insufficient_scope',
      `Your role (${identity.operator.role}) does not allow "${requirement}", which this route needs; the roles that do: ${rolesGranting(requirement).join(', ')}.`,
    );
  return new AppError(
    'insufficient_scope',
    `This machine token lacks the "${requirement}" scope needed here; create a token with it (dlv ops-tokens create).`,
  );
}

/**
 * The request's operator when they meet `requirement`; else throws its 401 or 403. Routes under
 * `config.auth: { ops: … }` are checked before their handler already; a surface that resolves its own
 * operator (the console's cookie) calls this in its hook or handler.
 */
export function requireOperator(
  request: FastifyRequest,
  requirement: OperatorRequirement,
): OperatorPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'operator') throw new AppError('unauthorized', 'Sign in as an operator first.');
  const refusal = operatorRefusal(principal, requirement);
  if (refusal) throw refusal;
  return principal;
}

/** Who acts, in the audit trail's terms, for a request of an operator. */
export function actedBy(principal: OperatorPrincipal): ActedBy {
  const address = principal.address;
  switch (principal.credential) {
    case 'ops_token':
      return { party: { kind: 'bootstrap' }, address };
    case 'token':
      return { party: { kind: 'token', tokenId: principal.token.id, name: principal.token.name }, address };
    case 'session': {
      const { id, email, role } = principal.operator;
      return { party: { kind: 'operator', operatorId: id, email, role }, address };
    }
  }
}
