import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../connectors/connection.ts';
import type { ActiveSession } from '../../domain/accounts/account-service.ts';
import type { KeyIdentity } from '../../domain/api-keys/authenticator.ts';
import type { OperatorIdentity } from './operator-access.ts';

/**
 * Who is calling, by surface: a brand's API key (public API) or an operator (operations API: a person's
 * session, a machine token or the bootstrap OPS_TOKEN).
 * The account area adds `user` (a signed-in person of a brand), the connectors `shop` (a linked
 * shop's signed callback); routes narrow to the kind their surface admits.
 */
type Principal =
  | ({ kind: 'apiKey' } & KeyIdentity)
  /** The operations API's caller, with the client address the audit trail records. */
  | ({ kind: 'operator'; address: string } & OperatorIdentity)
  | { kind: 'user'; session: ActiveSession }
  /** A signed-in courier (`/courier`, its own sessions: never a brand's). */
  | { kind: 'courier'; courier: { id: string; name: string; locale: 'fr' | 'en' } }
  /** A shop whose request carries the platform's signature (webhooks, rate requests). */
  | { kind: 'shop'; platform: Platform; shop: string };

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

export type ApiKeyPrincipal = Extract<Principal, { kind: 'apiKey' }>;

export type ShopPrincipal = Extract<Principal, { kind: 'shop' }>;

export type CourierPrincipal = Extract<Principal, { kind: 'courier' }>;

export type OperatorPrincipal = Extract<Principal, { kind: 'operator' }>;

/** The signed-in courier on a courier route (whose `auth` is `'courier'`). */
export function courierOf(request: FastifyRequest): CourierPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'courier')
    throw new Error('courierOf() called on a route without a courier session');
  return principal;
}

/** The signed-in shop on a connector route (whose signature hook has run). */
export function shopOf(request: FastifyRequest): ShopPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'shop') throw new Error('shopOf() called on a route without a shop signature');
  return principal;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The signed-in person on an account route (whose `auth` is `'session'`). */
export function userOf(request: FastifyRequest): UserPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'user') throw new Error('userOf() called on a route without a session');
  return principal;
}

/** The API key calling a public route (whose `auth` is a key requirement). */
export function principalOf(request: FastifyRequest): ApiKeyPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'apiKey')
    throw new Error('principalOf() called on a route not authenticated by API key');
  return principal;
}
