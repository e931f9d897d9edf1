import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../errors.ts';
import { clientIp, text } from '../account/form.ts';
import { html } from '../shared/html.ts';
import { type ConsoleContextOf, needs, OPEN, sendPage } from './context.ts';
import { CONSOLE_SESSION_COOKIE, setConsoleSession } from './cookies.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { CONSOLE_PATH, type ConsoleContext, csrfField, errorNote, homeOf, layout } from './views/layout.ts';

function signInPage(ctx: ConsoleContext, options: { email?: string; error?: string; note?: string } = {}) {
  const { t } = ctx;
  return layout(
    ctx,
    t('signIn.title'),
    html`${options.error ? errorNote(options.error) : ''}${options.note ? html`<p class="notice" role="status">${options.note}</p>` : ''}
<form method="post" action="${CONSOLE_PATH}/sign-in" class="card">
  ${csrfField(ctx)}
  <label for="email">${t('signIn.email')}</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
  <label for="password">${t('signIn.password')}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <label for="code">${t('signIn.code')}</label>
  <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" aria-describedby="code-hint">
  <p id="code-hint" class="hint">${t('signIn.codeHint')}</p>
  <button type="submit">${t('signIn.submit')}</button>
</form>`,
  );
}

/** Sign-in (password, then the TOTP or a recovery code), the first sign-in's setup, sign-out. */
export function authRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const { operatorSessions: sessions, signer, context } = deps;
  const baseUrl = deps.config.publicBaseUrl;
  const ctxOf: ConsoleContextOf = context;

  const refused = async (request: Parameters<ConsoleContextOf>[0], reply: FastifyReply, err: unknown) => {
    const ctx = await ctxOf(request, reply);
    if (isAppError(err) && err.code === 'rate_limited')
      return sendPage(
        reply,
        signInPage(ctx, { email: text(request, 'email', 254), error: ctx.t('error.429') }),
        429,
      );
    if (isAppError(err) && (err.code === 'unauthorized' || err.code === 'invalid_request'))
      return sendPage(
        reply,
        signInPage(ctx, { email: text(request, 'email', 254), error: ctx.t('signIn.refused') }),
        401,
      );
    throw err;
  };

  app.get('/sign-in', OPEN, async (request, reply) => {
    const principal = request.principal;
    if (principal?.kind === 'operator' && principal.credential === 'session')
      return reply.redirect(
        principal.session.setup ? `${CONSOLE_PATH}/setup` : homeOf(principal.session.operator),
        303,
      );
    const ctx = await ctxOf(request, reply);
    const out = (request.query as Record<string, unknown>).out === '1';
    return sendPage(reply, signInPage(ctx, out ? { note: ctx.t('signIn.signedOut') } : {}));
  });

  app.post('/sign-in', OPEN, async (request, reply) => {
    try {
      const code = text(request, 'code', 40).replace(/\s+/g, '');
      const opened = await sessions.signIn({
        email: text(request, 'email', 254),
        password: text(request, 'password'),
        code: code === '' ? null : code,
        ip: clientIp(request),
        channel: 'console',
      });
      // A new session each time, never the one the browser arrived with: no fixation.
      const principal = request.principal;
      if (principal?.kind === 'operator' && principal.credential === 'session')
        await sessions.signOut(principal.session);
      await setConsoleSession(reply, signer, opened.token, baseUrl);
      const to = opened.session.setup ? `${CONSOLE_PATH}/setup` : homeOf(opened.session.operator);
      return reply.redirect(to, 303);
    } catch (err) {
      return refused(request, reply, err);
    }
  });

  app.post('/sign-out', needs('setup'), async (request, reply) => {
    const principal = request.principal;
    if (principal?.kind === 'operator' && principal.credential === 'session')
      await sessions.signOut(principal.session);
    reply.clearCookie(CONSOLE_SESSION_COOKIE, { path: CONSOLE_PATH });
    return reply.redirect(`${CONSOLE_PATH}/sign-in?out=1`, 303);
  });

  const sessionOf = (request: Parameters<ConsoleContextOf>[0]) => {
    const principal = request.principal;
    if (principal?.kind !== 'operator' || principal.credential !== 'session') throw new Error('no session');
    return principal.session;
  };

  // The first sign-in's steps, one page: choose the password, then enrol the second factor.
  app.get('/setup', needs('setup'), async (request, reply) => {
    const session = sessionOf(request);
    if (!session.setup) return reply.redirect(homeOf(session.operator), 303);
    const ctx = await ctxOf(request, reply);
    return sendPage(
      reply,
      await setupPage(ctx, session.setup.choosePassword ? null : await sessions.beginEnrolment(session)),
    );
  });

  app.post('/setup/password', needs('setup'), async (request, reply) => {
    const session = sessionOf(request);
    try {
      const opened = await sessions.choosePassword(session, {
        current: null,
        password: text(request, 'password'),
        ip: clientIp(request),
      });
      await setConsoleSession(reply, signer, opened.token, baseUrl);
      return reply.redirect(`${CONSOLE_PATH}/setup`, 303);
    } catch (err) {
      if (!isAppError(err) || (err.code !== 'invalid_request' && err.code !== 'unauthorized')) throw err;
      const ctx = await ctxOf(request, reply);
      return sendPage(reply, await setupPage(ctx, null, err.message), 400);
    }
  });

  app.post('/setup/second-factor', needs('setup'), async (request, reply) => {
    const session = sessionOf(request);
    try {
      const opened = await sessions.confirmEnrolment(session, {
        code: text(request, 'code', 20).replace(/\s+/g, ''),
        ip: clientIp(request),
      });
      await setConsoleSession(reply, signer, opened.token, baseUrl);
      // The new session's token for this page's link and forms.
      const ctx = { ...(await ctxOf(request, reply)), csrf: opened.session.record.csrfToken, operator: null };
      const { t } = ctx;
      return sendPage(
        reply,
        layout(
          ctx,
          t('setup.codes'),
          html`<section class="card"><p>${t('setup.codesHint')}</p>
<ol class="codes">${opened.recoveryCodes.map((c) => html`<li><code>${c}</code></li>`)}</ol>
<p><a class="button" href="${homeOf(opened.session.operator)}">${t('setup.continue')}</a></p></section>`,
        ),
      );
    } catch (err) {
      if (!isAppError(err) || (err.code !== 'invalid_request' && err.code !== 'rate_limited')) throw err;
      const ctx = await ctxOf(request, reply);
      return sendPage(reply, await setupPage(ctx, await sessions.beginEnrolment(session), err.message), 400);
    }
  });
}

async function setupPage(
  ctx: ConsoleContext,
  enrolment: { secret: string; qrSvg: string } | null,
  error?: string,
): Promise<string> {
  const { t } = ctx;
  const body = enrolment
    ? html`<section class="card">
<h2>${t('setup.enrol')}</h2>
<p>${t('setup.enrolHint')}</p>
<img class="qr" alt="${t('setup.qrAlt')}" src="data:image/svg+xml;base64,${Buffer.from(enrolment.qrSvg).toString('base64')}">
<p>${t('setup.secret')}: <code id="secret">${enrolment.secret}</code></p>
<form method="post" action="${CONSOLE_PATH}/setup/second-factor">
  ${csrfField(ctx)}
  <label for="code">${t('setup.code')}</label>
  <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required pattern="[0-9 ]{6,7}">
  <button type="submit">${t('setup.confirm')}</button>
</form></section>`
    : html`<section class="card">
<h2>${t('setup.password')}</h2>
<p id="password-hint">${t('setup.passwordHint')}</p>
<form method="post" action="${CONSOLE_PATH}/setup/password">
  ${csrfField(ctx)}
  <label for="password">${t('setup.newPassword')}</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-hint">
  <button type="submit">${t('setup.savePassword')}</button>
</form></section>`;
  return layout(ctx, t('setup.title'), html`${error ? errorNote(error) : ''}${body}`);
}
