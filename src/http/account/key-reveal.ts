import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { CreatedKey } from '../../domain/api-keys/api-key-service.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './index.ts';
import { type CookieSigner, cookieOptions, NEW_KEY_COOKIE } from './session-cookies.ts';
import { keyCreatedPage } from './views/account-pages.ts';
import { messagePage } from './views/layout.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };
const REVEAL_PATH = '/account/keys';
/** Long enough for the redirect to be followed; the page itself clears the cookie. */
const REVEAL_MAX_AGE_S = 600;

const keyIdOf = (request: FastifyRequest) => (request.params as { keyId: string }).keyId;

/** What binds a sealed key to one session and one key id: elsewhere it does not open. */
const sealContext = (request: FastifyRequest, keyId: string) =>
  `${userOf(request).session.id.toString('base64url')}:${keyId}`;

/**
 * Post/redirect/get for a new key: the POST that made it hands the full key over in a sealed
 * cookie and redirects to `/account/keys/{id}/new`, the only page that shows it. A reload of that
 * page (or of the POST's redirect) creates nothing and shows nothing: the cookie is gone. The key
 * is never stored server-side in clear (only its SHA-256 is), and the cookie is encrypted and tied
 * to the session, so it is useless to anyone else.
 */
export async function revealOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  signer: CookieSigner,
  publicBaseUrl: string | null,
  created: CreatedKey,
) {
  const sealed = await signer.seal(created.key, sealContext(request, created.id));
  reply.setCookie(NEW_KEY_COOKIE, sealed, {
    ...cookieOptions(request, publicBaseUrl),
    path: REVEAL_PATH,
    maxAge: REVEAL_MAX_AGE_S,
  });
  return reply.redirect(`${REVEAL_PATH}/${created.id}/new`, 303);
}

export function keyRevealRoutes(
  app: FastifyInstance,
  deps: Deps,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  app.get('/keys/:keyId/new', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    // Another brand's key (or a role that holds none) is refused before anything is opened.
    const record = await deps.accountKeys.find(session.user, keyIdOf(request));
    const key = await signer.open(request.cookies[NEW_KEY_COOKIE], sealContext(request, record.id));
    reply.clearCookie(NEW_KEY_COOKIE, { path: REVEAL_PATH });
    // Neither the browser's cache nor its history may keep the page with the key.
    reply.header('cache-control', 'no-store');
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
