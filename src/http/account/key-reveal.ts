import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyManagement } from '../../domain/accounts/key-management.ts';
import type { CreatedKey } from '../../domain/api-keys/api-key-service.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { type CookieSigner, cookieOptions, NEW_KEY_COOKIE } from './session-cookies.ts';
import { keyCreatedPage } from './views/account-pages.ts';
import { messagePage } from './views/layout.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };
const REVEAL_PATH = '/account/keys';
/** Long enough for the redirect to be followed; the page itself clears the cookie. */
const REVEAL_MAX_AGE_S = 600;

const keyIdOf = (request: FastifyRequest) => (request.params as { keyId: string }).keyId;

/** Where a secret waits between the POST that made it and its page: a cookie of its own, for one path. */
export interface RevealCookie {
  name: string;
  /** The cookie's path: the pages that show it live under it, and no other page receives it. */
  path: string;
}

const KEY_REVEAL: RevealCookie = { name: NEW_KEY_COOKIE, path: REVEAL_PATH };

/** What binds a sealed secret to one session and one object: elsewhere it does not open. */
const sealContext = (request: FastifyRequest, bound: string) =>
  `${userOf(request).session.id.toString('base64url')}:${bound}`;

/**
 * Post/redirect/get for a secret shown once (a new API key, a shop's secret): the POST that made
 * it hands it over in a sealed cookie and redirects to `location`, the only page that shows it. A
 * reload of that page (or of the POST's redirect) creates nothing and shows nothing: the cookie is
 * gone. The cookie is encrypted and tied to the session and to `bound` (what the page is about),
 * so it is useless to anyone else and on any other page.
 */
export async function sealForReveal(
  request: FastifyRequest,
  reply: FastifyReply,
  reveal: { signer: CookieSigner; publicBaseUrl: string | null; cookie: RevealCookie },
  bound: string,
  secret: string,
  location: string,
) {
  const sealed = await reveal.signer.seal(secret, sealContext(request, bound));
  reply.setCookie(reveal.cookie.name, sealed, {
    ...cookieOptions(request, reveal.publicBaseUrl),
    path: reveal.cookie.path,
    maxAge: REVEAL_MAX_AGE_S,
  });
  return reply.redirect(location, 303);
}

/**
 * The reveal page's side: the secret sealed for `bound` in this session, or null (already shown,
 * another session's, another page's). The cookie is cleared either way, and the page is not to be
 * kept by the browser's cache or history.
 */
export async function openRevealed(
  request: FastifyRequest,
  reply: FastifyReply,
  signer: CookieSigner,
  cookie: RevealCookie,
  bound: string,
): Promise<string | null> {
  const secret = await signer.open(request.cookies[cookie.name], sealContext(request, bound));
  reply.clearCookie(cookie.name, { path: cookie.path });
  reply.header('cache-control', 'no-store');
  return secret;
}

/** A new API key's way to `/account/keys/{id}/new`; the key is stored server-side only as its SHA-256. */
export function revealOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  signer: CookieSigner,
  publicBaseUrl: string | null,
  created: CreatedKey,
) {
  return sealForReveal(
    request,
    reply,
    { signer, publicBaseUrl, cookie: KEY_REVEAL },
    created.id,
    created.key,
    `${REVEAL_PATH}/${created.id}/new`,
  );
}

/** What the key reveal page uses. */
interface KeyRevealContext {
  accountKeys: KeyManagement;
}

export function keyRevealRoutes(
  app: FastifyInstance,
  deps: KeyRevealContext,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  app.get('/keys/:keyId/new', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    // Another brand's key (or a role that holds none) is refused before anything is opened.
    const record = await deps.accountKeys.find(session.user, keyIdOf(request));
    const key = await openRevealed(request, reply, signer, KEY_REVEAL, record.id);
    const ctx = await context(request, reply);
    const page = key
      ? keyCreatedPage(ctx, { ...record, key })
      : messagePage(ctx, ctx.t('keys.created'), ctx.t('keys.alreadyShown'), {
          href: REVEAL_PATH,
          label: ctx.t('keys.back'),
        });
    return reply
      .code(key ? 200 : 410)
      .type('text/html; charset=utf-8')
      .send(page);
  });
}
