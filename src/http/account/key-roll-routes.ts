import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { AccountService } from '../../domain/accounts/account-service.ts';
import type { KeyManagement } from '../../domain/accounts/key-management.ts';
import { isAppError } from '../../errors.ts';
import { originOf } from '../shared/author.ts';
import { userOf } from '../shared/principal.ts';
import { formError } from './auth-routes.ts';
import type { PageContextOf } from './context.ts';
import { clientIp, text } from './form.ts';
import { revealOnce } from './key-reveal.ts';
import { stepUpLimited } from './key-routes.ts';
import type { CookieSigner } from './session-cookies.ts';
import { rollPage } from './views/key-roll-pages.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const keyIdOf = (request: FastifyRequest) => (request.params as { keyId: string }).keyId;

/** What the key roll pages use. */
interface KeyRollRoutesContext {
  accounts: AccountService;
  accountKeys: KeyManagement;
  config: Pick<Config, 'publicBaseUrl'>;
}

/**
 * Rolling a key: a new key with the same scopes, shown once (after a redirect, so a reload rolls
 * nothing); the old one stops after a grace period.
 */
export function keyRollRoutes(
  app: FastifyInstance,
  deps: KeyRollRoutesContext,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  const { accounts, accountKeys } = deps;

  async function form(request: FastifyRequest, reply: FastifyReply, state = {}, status = 200) {
    const { session } = userOf(request);
    const key = await accountKeys.find(session.user, keyIdOf(request));
    const page = rollPage(await context(request, reply), key, {
      steppedUp: accounts.isSteppedUp(session),
      ...state,
    });
    return sendPage(reply, page, status);
  }

  app.get('/keys/:keyId/roll', SIGNED_IN, (request, reply) => form(request, reply));

  app.post('/keys/:keyId/roll', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const ctx = await context(request, reply);
    const grace = text(request, 'grace', 10);
    // The key is looked up (404 for another brand's) before the password is even checked.
    await accountKeys.find(session.user, keyIdOf(request));
    try {
      if (!accounts.isSteppedUp(session))
        await accounts.stepUp(session, text(request, 'password'), clientIp(request));
      const rolled = await accountKeys.roll(
        { user: session.user, ip: clientIp(request), origin: originOf(request) },
        keyIdOf(request),
        grace,
      );
      return revealOnce(request, reply, signer, deps.config.publicBaseUrl, rolled);
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (err.code === 'rate_limited') return stepUpLimited(reply, ctx);
      if (err.code === 'unauthorized')
        return form(request, reply, { grace, error: ctx.t('signIn.refused') }, 401);
      if (err.code !== 'invalid_request') throw err;
      const error = formError(err, ctx, { password: 'keys.stepUp' });
      return form(request, reply, { grace, error }, 400);
    }
  });
}
