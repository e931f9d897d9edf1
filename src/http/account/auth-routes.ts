import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { AccountService } from '../../domain/accounts/account-service.ts';
import { AppError, isAppError } from '../../errors.ts';
import type { PageContextOf } from './context.ts';
import { clientIp, query, text } from './form.ts';
import { ACCOUNT_PATH, type CookieSigner, SESSION_COOKIE, setSessionCookie } from './session-cookies.ts';
import { forgotPage, resetPage, signInPage, signUpPage, verifyPage } from './views/auth-pages.ts';
import { messagePage, type PageContext } from './views/layout.ts';
import { fieldError, type MessageKey } from './words.ts';

const PAGE = { config: { auth: 'none' as const }, schema: { hide: true } };
const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const SIGN_IN_LABELS: Record<string, MessageKey> = { email: 'field.email', password: 'field.password' };

const SIGN_UP_LABELS: Record<string, MessageKey> = {
  name: 'signUp.company',
  company: 'signUp.company',
  email: 'field.email',
  password: 'field.password',
};

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

/**
 * A form's own mistake (400) is shown on the form again, naming the field by its label; anything
 * else goes to the error page.
 */
export function formError(err: unknown, ctx: PageContext, labels: Record<string, MessageKey>): string {
  if (!isAppError(err) || err.code !== 'invalid_request') throw err;
  const detail = err.details?.[0];
  if (!detail) return err.message;
  const label = labels[detail.field];
  return label ? fieldError(ctx.locale, ctx.t(label), detail) : err.message;
}

/** What the sign-in, sign-up and reset pages use. */
interface AuthRoutesContext {
  accounts: AccountService;
  config: Pick<Config, 'publicBaseUrl'>;
}

/** Sign-up, e-mail verification, sign-in and out, password reset. */
export function authRoutes(
  app: FastifyInstance,
  deps: AuthRoutesContext,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  const { accounts } = deps;
  const baseUrl = deps.config.publicBaseUrl;

  app.get('/sign-in', PAGE, async (request, reply) => {
    if (request.principal?.kind === 'user') return reply.redirect(ACCOUNT_PATH, 303);
    return sendPage(reply, signInPage(await context(request, reply)));
  });

  app.post('/sign-in', PAGE, async (request, reply) => {
    try {
      const { token } = await accounts.signIn({
        email: text(request, 'email', 254),
        password: text(request, 'password'),
        ip: clientIp(request),
      });
      // A new session each time (never the one the browser arrived with): no fixation.
      if (request.principal?.kind === 'user') await accounts.signOut(request.principal.session);
      await setSessionCookie(reply, signer, token, baseUrl);
      return reply.redirect(ACCOUNT_PATH, 303);
    } catch (err) {
      const values = { email: text(request, 'email', 254) };
      if (isAppError(err) && err.code === 'invalid_request') {
        const ctx = await context(request, reply);
        return sendPage(reply, signInPage(ctx, { values, error: formError(err, ctx, SIGN_IN_LABELS) }), 400);
      }
      if (!isAppError(err) || err.code !== 'unauthorized') throw err;
      const ctx = await context(request, reply);
      const disabled = err.message.includes('disabled');
      const error = ctx.t(disabled ? 'signIn.disabled' : 'signIn.refused');
      return sendPage(reply, signInPage(ctx, { values, error }), 401);
    }
  });

  app.post('/sign-out', SIGNED_IN, async (request, reply) => {
    if (request.principal?.kind === 'user') await accounts.signOut(request.principal.session);
    reply.clearCookie(SESSION_COOKIE, { path: ACCOUNT_PATH });
    return reply.redirect(`${ACCOUNT_PATH}/sign-in`, 303);
  });

  app.get('/sign-up', PAGE, async (request, reply) => {
    const ctx = await context(request, reply);
    if (accounts.signupMode !== 'open')
      return sendPage(reply, messagePage(ctx, ctx.t('signUp.title'), ctx.t('signUp.closed')), 404);
    return sendPage(reply, signUpPage(ctx));
  });

  app.post('/sign-up', PAGE, async (request, reply) => {
    const ctx = await context(request, reply);
    if (accounts.signupMode !== 'open')
      return sendPage(reply, messagePage(ctx, ctx.t('signUp.title'), ctx.t('signUp.closed')), 404);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typed = () => ({ company: text(request, 'company', 200), email: text(request, 'email', 254) });
    let values: ReturnType<typeof typed>;
    try {
      values = typed();
      await accounts.signUp({ ...values, password: text(request, 'password'), locale: ctx.locale });
    } catch (err) {
      const error = formError(err, ctx, SIGN_UP_LABELS);
      return sendPage(reply, signUpPage(ctx, { values: typed(), error }), 400);
    }
    return sendPage(
      reply,
      messagePage(ctx, ctx.t('signUp.title'), ctx.t('signUp.sent', { email: values.email })),
    );
  });

  // GET only shows the confirmation form: mail scanners and link previews fetch links, and must not
  // use up (or perform) the verification. The POST does.
  app.get('/verify', PAGE, async (request, reply) => {
    const ctx = await context(request, reply);
    const token = query(request, 'token');
    if (!(await accounts.linkIsLive(token, 'verify_email'))) {
      return sendPage(reply, messagePage(ctx, ctx.t('verify.title'), ctx.t('verify.bad')), 404);
    }
    return sendPage(reply, verifyPage(ctx, token));
  });

  app.post('/verify', PAGE, async (request, reply) => {
    const ctx = await context(request, reply);
    const ok = await accounts.verifyEmail(text(request, 'token', 200));
    const link = {
      href: request.principal ? ACCOUNT_PATH : `${ACCOUNT_PATH}/sign-in`,
      label: ctx.t('signIn.title'),
    };
    return sendPage(
      reply,
      messagePage(ctx, ctx.t('verify.title'), ctx.t(ok ? 'verify.ok' : 'verify.bad'), link),
      ok ? 200 : 404,
    );
  });

  app.post('/verify/resend', SIGNED_IN, async (request, reply) => {
    const ctx = await context(request, reply);
    if (request.principal?.kind !== 'user') throw new AppError('unauthorized', 'Sign in first.');
    // The same answer whether a limit was reached (resendVerification).
    await accounts.resendVerification(request.principal.session.user, ctx.locale, clientIp(request));
    return sendPage(
      reply,
      messagePage(ctx, ctx.t('verify.title'), ctx.t('verify.resent'), {
        href: ACCOUNT_PATH,
        label: ctx.t('error.back'),
      }),
    );
  });

  app.get('/forgot', PAGE, async (request, reply) =>
    sendPage(reply, forgotPage(await context(request, reply))),
  );

  app.post('/forgot', PAGE, async (request, reply) => {
    const ctx = await context(request, reply);
    // The same answer whether the address has an account, and whether a limit was reached.
    try {
      await accounts.requestReset({
        email: text(request, 'email', 254),
        locale: ctx.locale,
        ip: clientIp(request),
      });
    } catch (err) {
      const error = formError(err, ctx, { email: 'field.email' });
      return sendPage(reply, forgotPage(ctx, { values: { email: text(request, 'email', 254) }, error }), 400);
    }
    return sendPage(reply, messagePage(ctx, ctx.t('forgot.title'), ctx.t('forgot.sent')));
  });

  /** A team invitation whose address has an account by now (another company's): it cannot join. */
  const cannotJoin = (reply: FastifyReply, ctx: PageContext, brandName: string) => {
    const link = { href: `${ACCOUNT_PATH}/sign-in`, label: ctx.t('signIn.title') };
    const title = ctx.t('invite.clashTitle', { brand: brandName });
    return sendPage(reply, messagePage(ctx, title, ctx.t('invite.clash', { brand: brandName }), link), 409);
  };

  // A reset link and an invitation link both lead to a "choose a password" form. An invitation is
  // a team page's (team_invitations: the account is made on acceptance) or `dlv users invite`'s (an
  // account already made, with a user_tokens link); accepted, it signs the person in.
  const passwordLinks = [
    { path: 'reset', purpose: 'reset_password', title: 'reset.title' },
    { path: 'invite', purpose: 'invite', title: 'invite.title' },
  ] as const;
  for (const { path, purpose, title } of passwordLinks) {
    const action = `${ACCOUNT_PATH}/${path}`;
    app.get(`/${path}`, PAGE, async (request, reply) => {
      const ctx = await context(request, reply);
      const token = query(request, 'token');
      const invitation = purpose === 'invite' ? await accounts.invitationLink(token) : null;
      if (invitation?.state === 'taken') return cannotJoin(reply, ctx, invitation.brandName);
      if (!invitation && !(await accounts.linkIsLive(token, purpose))) {
        return sendPage(reply, messagePage(ctx, ctx.t(title), ctx.t('verify.bad')), 404);
      }
      return sendPage(reply, resetPage(ctx, { action, title: ctx.t(title), token }));
    });

    app.post(`/${path}`, PAGE, async (request, reply) => {
      const ctx = await context(request, reply);
      const token = text(request, 'token', 200);
      try {
        const password = text(request, 'password');
        if (purpose === 'invite') {
          const invitation = await accounts.acceptInvitation(token, password);
          if (invitation.state === 'taken') return cannotJoin(reply, ctx, invitation.brandName);
          // Accepted: signed in at once (a new session, never one the browser brought), welcomed home.
          if (request.principal?.kind === 'user') await accounts.signOut(request.principal.session);
          await setSessionCookie(reply, signer, invitation.session.token, baseUrl);
          return reply.redirect(`${ACCOUNT_PATH}?welcome=1`, 303);
        }
        await accounts.resetPassword(token, password);
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found') {
          return sendPage(reply, messagePage(ctx, ctx.t(title), ctx.t('verify.bad')), 404);
        }
        const error = formError(err, ctx, { password: 'field.password' });
        return sendPage(reply, resetPage(ctx, { action, title: ctx.t(title), token }, { error }), 400);
      }
      // A reset: every session ended with the old password, this browser's too; sign in again.
      reply.clearCookie(SESSION_COOKIE, { path: ACCOUNT_PATH });
      const link = { href: `${ACCOUNT_PATH}/sign-in`, label: ctx.t('signIn.title') };
      return sendPage(reply, messagePage(ctx, ctx.t(title), ctx.t('reset.done'), link));
    });
  }
}
