import type { FastifyRequest } from 'fastify';
import type { Actor, Author, RequestOrigin } from '../../domain/audit/actor.ts';
import type { OperatorIdentity } from './operator-access.ts';

/**
 * The audit trail's actor of an operations API credential: a signed-in person, a machine token, or
 * the shared OPS_TOKEN (a bootstrap credential that names nobody). A kind of credential added to
 * OperatorIdentity fails to compile here until it is mapped.
 */
function operatorActor(identity: OperatorIdentity): Actor {
  switch (identity.credential) {
    case 'ops_token':
      return { kind: 'bootstrap' };
    case 'session':
      return {
        kind: 'operator',
        operatorId: identity.operator.id,
        email: identity.operator.email,
        role: identity.operator.role,
      };
    case 'token':
      return { kind: 'token', tokenId: identity.token.id, name: identity.token.name };
  }
}

/** Where the request came from: the client's address (TRUST_PROXY applied), its browser, its id. */
export function originOf(request: FastifyRequest): RequestOrigin {
  const agent = request.headers['user-agent'];
  return {
    clientAddress: request.ip ?? null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, 512) : null,
    requestId: String(request.id),
  };
}

/** Who acts on an authenticated route, as the audit trail names them (domain/audit/actor.ts). */
export function authorOf(request: FastifyRequest): Author {
  const principal = request.principal;
  const origin = originOf(request);
  switch (principal?.kind) {
    case 'operator':
      return { actor: operatorActor(principal), origin };
    case 'courier':
      return { actor: { kind: 'courier', courierId: principal.courier.id }, origin };
    case 'user':
      return {
        actor: { kind: 'user', userId: principal.session.user.id, brandId: principal.session.user.brandId },
        origin,
      };
    case 'apiKey':
      return { actor: { kind: 'api_key', keyId: principal.key.id, brandId: principal.brand.id }, origin };
    default:
      // A shop's signed callback or an open route acts for nobody the trail could name.
      throw new Error(
        `authorOf() called on a route without an audited principal (${principal?.kind ?? 'none'})`,
      );
  }
}
