import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { AccountService } from '../../domain/accounts/account-service.ts';
import type { KeyManagement } from '../../domain/accounts/key-management.ts';
import { isTestKey } from '../../domain/api-keys/keys.ts';
import { isAppError } from '../../errors.ts';
import { publicServerUrl } from '../public/server-url.ts';
import { originOf } from '../shared/author.ts';
import { userOf } from '../shared/principal.ts';
import { formError } from './auth-routes.ts';
import type { PageContextOf } from './context.ts';
import { clientIp, list, query, text } from './form.ts';
import { revealOnce } from './key-reveal.ts';
import { ACCOUNT_PATH, type CookieSigner, SESSION_COOKIE } from './session-cookies.ts';
import { isTestView } from './test-data-routes.ts';
import { homePage, keysPage, revokePage } from './views/account-pages.ts';
import { messagePage, type PageContext } from './views/layout.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

/** Too many step-up attempts ended the session (the domain deleted it): the browser forgets it too. */
export function stepUpLimited(reply: FastifyReply, ctx: PageContext) {
  reply.clearCookie(SESSION_COOKIE, { path: ACCOUNT_PATH });
  const signIn = { href: `${ACCOUNT_PATH}/sign-in`, label: ctx.t('signIn.title') };
  const page = messagePage({ ...ctx, user: null }, ctx.t('signIn.title'), ctx.t('stepUp.limited'), signIn);
  return sendPage(reply, page, 429);
}

/** What the keys pages use (the home page shows the API's address). */
interface KeyRoutesContext {
  accounts: AccountService;
  accountKeys: KeyManagement;
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>;
}

/** The home page and the brand's API keys: list, create (after re-entering the password), revoke. */
export function keyRoutes(
  app: FastifyInstance,
  deps: KeyRoutesContext,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  const { accounts, accountKeys } = deps;

  // `welcome`: the redirect after an accepted invitation says so.
  app.get('/', SIGNED_IN, async (request, reply) =>
    sendPage(
      reply,
      homePage(await context(request, reply), publicServerUrl(deps), {
        welcome: query(request, 'welcome', 1) === '1',
      }),
    ),
  );

  async function keysView(request: FastifyRequest, reply: FastifyReply, state = {}, status = 200) {
    const { session } = userOf(request);
    const data = await accountKeys.list(session.user);
    // The switch: live keys, or test keys (`dlv_test_…`), never both in one list.
    const testView = isTestView(request);
    const keys = data.keys.filter((key) => isTestKey(key.prefix) === testView);
    const page = keysPage(
      await context(request, reply),
      { ...data, keys, steppedUp: accounts.isSteppedUp(session) },
      state,
    );
    return sendPage(reply, page, status);
  }

  app.get('/keys', SIGNED_IN, (request, reply) => keysView(request, reply));

  app.post('/keys', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const ctx = await context(request, reply);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typed = () => ({
      name: text(request, 'name', 200),
      scopes: list(request, 'scopes'),
      test: text(request, 'test', 10) === '1',
    });
    try {
      const input = typed();
      if (!accounts.isSteppedUp(session))
        await accounts.stepUp(session, text(request, 'password'), clientIp(request));
      const created = await accountKeys.create(
        { user: session.user, ip: clientIp(request), origin: originOf(request) },
        input,
      );
      return revealOnce(request, reply, signer, deps.config.publicBaseUrl, created);
    } catch (err) {
      if (!isAppError(err)) throw err;
      const input = typed();
      const state = { values: { name: input.name }, scopes: input.scopes, test: input.test };
      if (err.code === 'rate_limited') return stepUpLimited(reply, ctx);
      if (err.code === 'unauthorized')
        return keysView(request, reply, { ...state, error: ctx.t('signIn.refused') }, 401);
      if (err.code !== 'invalid_request') throw err;
      const error = formError(err, ctx, {
        name: 'keys.name',
        scopes: 'keys.scopes',
        password: 'keys.stepUp',
      });
      return keysView(request, reply, { ...state, error }, 400);
    }
  });

  app.get('/keys/:keyId/revoke', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const key = await accountKeys.find(session.user, (request.params as { keyId: string }).keyId);
    return sendPage(reply, revokePage(await context(request, reply), key));
  });

  app.post('/keys/:keyId/revoke', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    await accountKeys.revoke(
      { user: session.user, ip: clientIp(request), origin: originOf(request) },
      (request.params as { keyId: string }).keyId,
    );
    return reply.redirect('/account/keys', 303);
  });
}
