import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActiveCourierSession } from '../../domain/couriers/courier-service.ts';
import type { CookieSigner } from '../account/session-cookies.ts';

// A leaf module: the courier surface's cookies and what its route files share.

export const COURIER_PATH = '/courier';
export const COURIER_SESSION_COOKIE = 'dlv_courier_session';
/** The sign-in form's double-submit token (before any session exists). */
export const COURIER_CSRF_COOKIE = 'dlv_courier_csrf';

/**
 * The courier pages: the sign-in form now, the app shell (ES modules, its manifest, its service
 * worker) later, all from this origin; no inline script, no third-party origin, no framing.
 */
export const COURIER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in courier's session on a `/courier` route (null when none). */
    courierSession: ActiveCourierSession | null;
  }
}

/** Routes of the signed-in courier: pages redirect to the sign-in, `/courier/api/` answers 401. */
export const COURIER_ONLY = { config: { auth: 'courier' as const }, schema: { hide: true } };
export const ANYONE = { config: { auth: 'none' as const }, schema: { hide: true } };

/** Whether the request is one of the app's JSON calls (the one error model) rather than a page. */
export const isApiCall = (request: FastifyRequest): boolean => request.url.startsWith(`${COURIER_PATH}/api/`);

export function courierCookieOptions(request: FastifyRequest, publicBaseUrl: string | null) {
  return {
    path: COURIER_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: publicBaseUrl?.startsWith('https://') === true || request.protocol === 'https',
  };
}

/** The sign-in form's CSRF token: the signed cookie's, made on the first form shown. */
export async function anonymousCourierCsrf(
  request: FastifyRequest,
  reply: FastifyReply,
  signer: CookieSigner,
  publicBaseUrl: string | null,
): Promise<string> {
  const existing = await signer.unsign(request.cookies[COURIER_CSRF_COOKIE]);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(
    COURIER_CSRF_COOKIE,
    await signer.sign(token),
    courierCookieOptions(request, publicBaseUrl),
  );
  return token;
}
