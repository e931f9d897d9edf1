import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSigner } from '../account/session-cookies.ts';
import { CONSOLE_PATH } from './views/layout.ts';

/** The console's cookies: its own names and path, so no brand's or courier's session ever opens it. */
export const CONSOLE_SESSION_COOKIE = 'dlv_console';
export const CONSOLE_CSRF_COOKIE = 'dlv_console_csrf';
export const CONSOLE_LANG_COOKIE = 'dlv_console_lang';

/** `Secure` when the service is published over https or this request came over https. */
function consoleCookieOptions(request: FastifyRequest, publicBaseUrl: string | null) {
  return {
    path: CONSOLE_PATH,
    httpOnly: true,
    // Strict: a link from elsewhere never arrives signed in (the console has no inbound links).
    sameSite: 'strict' as const,
    secure: publicBaseUrl?.startsWith('https://') === true || request.protocol === 'https',
  };
}

export async function setConsoleSession(
  reply: FastifyReply,
  signer: CookieSigner,
  token: string,
  publicBaseUrl: string | null,
): Promise<void> {
  reply.setCookie(
    CONSOLE_SESSION_COOKIE,
    await signer.sign(token),
    consoleCookieOptions(reply.request, publicBaseUrl),
  );
}

/** The sign-in form's CSRF token (double-submit: a signed cookie and the same value in the form). */
export async function anonymousConsoleCsrf(
  request: FastifyRequest,
  reply: FastifyReply,
  signer: CookieSigner,
  publicBaseUrl: string | null,
): Promise<string> {
  const existing = await signer.unsign(request.cookies[CONSOLE_CSRF_COOKIE]);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(
    CONSOLE_CSRF_COOKIE,
    await signer.sign(token),
    consoleCookieOptions(request, publicBaseUrl),
  );
  return token;
}
