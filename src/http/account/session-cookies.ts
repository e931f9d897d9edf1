import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'dlv_session';
export const CSRF_COOKIE = 'dlv_csrf';
export const LANG_COOKIE = 'dlv_lang';
/** A new API key on its way from the POST that made it to the one page that shows it (sealed). */
export const NEW_KEY_COOKIE = 'dlv_new_key';
/**
 * A shop's new secret (for a platform whose module signs with one) on its way from the POST that
 * made it to the page that shows it (sealed).
 */
export const NEW_SHOP_SECRET_COOKIE = 'dlv_new_shop_secret';
export const ACCOUNT_PATH = '/account';

/** The account area's cookies: signed (session, CSRF) or sealed (a secret shown once). */
export interface CookieSigner {
  sign(value: string): Promise<string>;
  unsign(cookie: string | undefined): Promise<string | null>;
  /**
   * Encrypts `value` (AES-256-GCM) for a cookie that must not be readable, bound to `context`:
   * opened with another context, it is treated as absent.
   */
  seal(value: string, context: string): Promise<string>;
  open(cookie: string | undefined, context: string): Promise<string | null>;
}

/**
 * Signs the account cookies with a key kept in the database (`server_secrets`), loaded on first
 * use so that building the app needs no database. A cookie whose signature does not match is
 * treated as absent.
 */
export function cookieSigner(loadKey: () => Promise<Buffer>): CookieSigner {
  let key: Promise<Buffer> | null = null;
  const keyNow = () => {
    key ??= loadKey().catch((err) => {
      key = null; // the database may be back on the next request
      throw err;
    });
    return key;
  };
  const mac = (k: Buffer, value: string) => createHmac('sha256', k).update(value).digest('base64url');
  // A key of its own for encryption, derived from the signing key: one secret to keep, two uses.
  const sealKey = async () => Buffer.from(hkdfSync('sha256', await keyNow(), '', 'dlv cookie seal', 32));
  return {
    async sign(value: string): Promise<string> {
      return `${value}.${mac(await keyNow(), value)}`;
    },
    async unsign(cookie: string | undefined): Promise<string | null> {
      if (!cookie || cookie.length > 200) return null;
      const dot = cookie.lastIndexOf('.');
      if (dot <= 0) return null;
      const value = cookie.slice(0, dot);
      return safeEqual(cookie.slice(dot + 1), mac(await keyNow(), value)) ? value : null;
    },
    async seal(value: string, context: string): Promise<string> {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await sealKey(), iv).setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    async open(cookie: string | undefined, context: string): Promise<string | null> {
      if (!cookie || cookie.length > 400) return null;
      const data = Buffer.from(cookie, 'base64url');
      if (data.length < 29) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', await sealKey(), data.subarray(0, 12))
          .setAAD(Buffer.from(context))
          .setAuthTag(data.subarray(12, 28));
        return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Secure` when the service is published over https or this request came over https. */
function isSecure(request: FastifyRequest, publicBaseUrl: string | null): boolean {
  return publicBaseUrl?.startsWith('https://') === true || request.protocol === 'https';
}

export function cookieOptions(request: FastifyRequest, publicBaseUrl: string | null) {
  return {
    path: ACCOUNT_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: isSecure(request, publicBaseUrl),
  };
}

export async function setSessionCookie(
  reply: FastifyReply,
  signer: CookieSigner,
  token: string,
  publicBaseUrl: string | null,
): Promise<void> {
  reply.setCookie(SESSION_COOKIE, await signer.sign(token), cookieOptions(reply.request, publicBaseUrl));
}

/**
 * The anonymous forms' CSRF token (double-submit): a signed cookie, and the same value in the
 * form's hidden field. Created on the first form shown.
 */
export async function anonymousCsrf(
  request: FastifyRequest,
  reply: FastifyReply,
  signer: CookieSigner,
  publicBaseUrl: string | null,
): Promise<string> {
  const existing = await signer.unsign(request.cookies[CSRF_COOKIE]);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(CSRF_COOKIE, await signer.sign(token), cookieOptions(request, publicBaseUrl));
  return token;
}
