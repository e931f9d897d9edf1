import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateLocale } from '../../i18n/locales.ts';
import { ACCOUNT_PATH } from './session-cookies.ts';
import { messagePage, type PageContext } from './views/layout.ts';
import { translate } from './words.ts';

// Pages and forms only from here; no script, no inline style, no framing.
export const ACCOUNT_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'";

/**
 * A page in the account area's style for a browser outside the area (the session is not read:
 * the page has no navigation), in the language it asks for (`?lang=` or Accept-Language).
 */
export function sendAccountMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  words: (t: PageContext['t']) => { title: string; message: string; link: { href: string; label: string } },
) {
  const asked = new URL(request.url, 'http://x').searchParams.get('lang');
  const locale = negotiateLocale(request.headers['accept-language'], { asked, fallback: 'en' });
  const t = translate(locale);
  const ctx: PageContext = { locale, t, switchHref: ACCOUNT_PATH, user: null, csrf: '' };
  const { title, message, link } = words(t);
  return reply
    .code(status)
    .header('content-security-policy', ACCOUNT_CSP)
    .type('text/html; charset=utf-8')
    .send(messagePage(ctx, title, message, link));
}
