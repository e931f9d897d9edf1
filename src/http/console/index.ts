import { readFileSync } from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consoleBoardRepository } from '../../db/repositories/console-board-repository.ts';
import { serverSecretsRepository } from '../../db/repositories/server-secrets-repository.ts';
import { ROLE_SCOPES } from '../../domain/operators/scopes.ts';
import { AppError, isAppError } from '../../errors.ts';
import { consoleTranslate } from '../../i18n/console.ts';
import { isLocale, negotiateLocale } from '../../i18n/locales.ts';
import { text } from '../account/form.ts';
import { cookieSigner, safeEqual } from '../account/session-cookies.ts';
import type { ConsoleRequirement } from '../shared/plugins/auth.ts';
import { UNUSABLE_TEXT_MESSAGE } from '../shared/plugins/text-inputs.ts';
import { routeConfig } from '../shared/route-config.ts';
import { auditRoutes } from './audit-routes.ts';
import { authRoutes } from './auth-routes.ts';
import { boardWatcher } from './board-watcher.ts';
import { brandGridRoutes, GRID_FORM_LIMIT } from './brand-grid-routes.ts';
import { brandRoutes } from './brand-routes.ts';
import { brandWebhookRoutes } from './brand-webhook-routes.ts';
import { OPEN } from './context.ts';
import {
  anonymousConsoleCsrf,
  CONSOLE_CSRF_COOKIE,
  CONSOLE_LANG_COOKIE,
  CONSOLE_SESSION_COOKIE,
} from './cookies.ts';
import { exceptionRoutes } from './exception-routes.ts';
import { financeRoutes } from './finance-routes.ts';
import { mapRoutes } from './map-routes.ts';
import { peopleRoutes } from './people-routes.ts';
import { planningRoutes } from './planning-routes.ts';
import type { ConsoleDeps } from './route-deps.ts';
import { searchRoutes } from './search-routes.ts';
import { todayRoutes } from './today-routes.ts';
import { CONSOLE_PATH, type ConsoleContext, homeOf, messagePage } from './views/layout.ts';

export const CONSOLE_PREFIX = CONSOLE_PATH;

/**
 * Pages and forms from this origin only; the board's script from this origin too (no inline script,
 * no inline style, no third-party origin, no framing). `connect-src 'self'` is the live board's stream.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const STATIC: Record<string, { type: string; body: Buffer }> = {
  'console.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('./static/console.css', import.meta.url)),
  },
  'console.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('./static/console.js', import.meta.url)),
  },
};

class ConsoleCsrfError extends Error {}

const requirementOf = (request: FastifyRequest): ConsoleRequirement | null => {
  const auth = routeConfig(request).auth;
  return typeof auth === 'object' && 'console' in auth ? auth.console : null;
};

/**
 * The operator's console (`/console`): server-rendered pages for the delivery company's people,
 * signed in as "Named operators" defines (password, then TOTP), on a cookie of the console's own
 * channel. Every page names what it requires (`auth: { console: <scope> }`); this plugin resolves
 * the cookie, refuses a role without the scope with a 403 page, checks every POST's CSRF token, and
 * acts through the operations API's services with the operator as the author.
 */
export function consoleArea(deps: ConsoleDeps) {
  return async (app: FastifyInstance) => {
    const signer = cookieSigner(() => serverSecretsRepository(deps.pool).getOrCreate('console_cookie_key'));
    const baseUrl = deps.config.publicBaseUrl;
    const watcher = boardWatcher(consoleBoardRepository(deps.pool));
    app.removeAllContentTypeParsers();
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
    app.decorateRequest('locale', 'en');
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, unusableText: 'mark' };
    });

    app.addHook('onRequest', async (request, reply) => {
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('cache-control', 'no-store');
      const asked = (request.query as Record<string, unknown> | undefined)?.lang;
      if (isLocale(asked))
        reply.setCookie(CONSOLE_LANG_COOKIE, asked, {
          path: CONSOLE_PATH,
          sameSite: 'lax',
          maxAge: 365 * 86400,
        });
      request.locale = negotiateLocale(request.headers['accept-language'], {
        asked: isLocale(asked) ? asked : request.cookies[CONSOLE_LANG_COOKIE],
        fallback: 'en',
      });
      const token = await signer.unsign(request.cookies[CONSOLE_SESSION_COOKIE]);
      const session = token ? await deps.operatorSessions.resume(token, 'console') : null;
      if (session) {
        const { id, email, name, role } = session.operator;
        request.principal = {
          kind: 'operator',
          address: request.ip,
          credential: 'session',
          operator: { id, email, name, role },
          session,
        };
      }
      const requirement = requirementOf(request);
      if (requirement === null) return;
      if (!session) {
        if (request.cookies[CONSOLE_SESSION_COOKIE])
          reply.clearCookie(CONSOLE_SESSION_COOKIE, { path: CONSOLE_PATH });
        if (request.method === 'GET') return reply.redirect(`${CONSOLE_PATH}/sign-in`, 303);
        throw new AppError('unauthorized', 'Sign in first.');
      }
      if (session.setup !== null && requirement !== 'setup') {
        if (request.method === 'GET') return reply.redirect(`${CONSOLE_PATH}/setup`, 303);
        throw new AppError('setup_required', 'Finish setting up your account first.');
      }
      if (
        requirement !== 'any' &&
        requirement !== 'setup' &&
        !ROLE_SCOPES[session.operator.role].includes(requirement)
      )
        throw new AppError('insufficient_scope', `Your role does not allow "${requirement}".`);
    });

    // Every POST carries the form's token: the session's own once signed in, else the double-submit cookie's.
    app.addHook('preHandler', async (request) => {
      if (request.method !== 'POST') return;
      const sent = text(request, '_csrf');
      const principal = request.principal;
      const expected =
        principal?.kind === 'operator' && principal.credential === 'session'
          ? principal.session.record.csrfToken
          : await signer.unsign(request.cookies[CONSOLE_CSRF_COOKIE]);
      if (!sent || !expected || !safeEqual(sent, expected)) throw new ConsoleCsrfError('csrf');
    });

    const context = async (request: FastifyRequest, reply: FastifyReply): Promise<ConsoleContext> => {
      const principal = request.principal;
      const session =
        principal?.kind === 'operator' && principal.credential === 'session' ? principal.session : null;
      const url = new URL(request.url, 'http://x');
      url.searchParams.set('lang', request.locale === 'fr' ? 'en' : 'fr');
      return {
        locale: request.locale,
        t: consoleTranslate(request.locale),
        switchHref: `${url.pathname}${url.search}`,
        operator: session && session.setup === null ? session.operator : null,
        csrf: session
          ? session.record.csrfToken
          : await anonymousConsoleCsrf(request, reply, signer, baseUrl),
        path: url.pathname,
      };
    };

    // The first page the operator's role opens (Today would be a 403 again for a finance user).
    const home = (ctx: ConsoleContext) => ({
      href: ctx.operator ? homeOf(ctx.operator) : CONSOLE_PATH,
      label: ctx.t('error.back'),
    });

    app.setNotFoundHandler(async (request, reply) => {
      const ctx = await context(request, reply);
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(messagePage(ctx, ctx.t('error.title'), ctx.t('error.404'), home(ctx)));
    });

    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      const { status, message, title } = describe(error);
      if (status >= 500) request.log.error({ err: error }, 'console page failed');
      const ctx = await context(request, reply).catch(() => null);
      if (!ctx) return reply.code(503).type('text/plain; charset=utf-8').send('Service unavailable');
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(messagePage(ctx, ctx.t(title), ctx.t(message), home(ctx)));
    });

    app.get('/static/:file', OPEN, async (request, reply) => {
      const file = STATIC[(request.params as { file: string }).file];
      if (!file) throw new AppError('not_found', 'No such file.');
      return reply.type(file.type).header('cache-control', 'public, max-age=300').send(file.body);
    });

    const routeDeps = { ...deps, signer, context, watcher };
    authRoutes(app, routeDeps);
    todayRoutes(app, routeDeps);
    mapRoutes(app, routeDeps);
    exceptionRoutes(app, routeDeps);
    peopleRoutes(app, routeDeps);
    auditRoutes(app, routeDeps);
    brandRoutes(app, routeDeps);
    financeRoutes(app, routeDeps);
    searchRoutes(app, routeDeps);
    // Brands: webhooks on request; the price grid, whose file is a larger form than any other page's.
    brandWebhookRoutes(app, routeDeps);
    await app.register(async (grids) => {
      grids.removeContentTypeParser('application/x-www-form-urlencoded');
      await grids.register(fastifyFormbody, { bodyLimit: GRID_FORM_LIMIT });
      brandGridRoutes(grids, routeDeps);
    });
    planningRoutes(app, routeDeps);

    app.addHook('onClose', async () => watcher.close());
  };
}

function describe(error: FastifyError): { status: number; message: string; title: string } {
  if (error instanceof ConsoleCsrfError) return { status: 403, message: 'error.csrf', title: 'error.title' };
  if (isAppError(error)) {
    if (error.code === 'not_found') return { status: 404, message: 'error.404', title: 'error.title' };
    if (error.code === 'insufficient_scope')
      return { status: 403, message: 'error.403', title: 'error.403title' };
    if (error.code === 'rate_limited') return { status: 429, message: 'error.429', title: 'error.title' };
    const detail = error.details?.[0];
    if (detail?.message === UNUSABLE_TEXT_MESSAGE || detail?.problem?.code === 'text.controlCharacters')
      return { status: 400, message: error.message, title: 'error.title' };
    if (error.status < 500) return { status: error.status, message: error.message, title: 'error.title' };
    return { status: error.status, message: 'error.500', title: 'error.title' };
  }
  const status = error.statusCode ?? 500;
  return status < 500
    ? { status, message: error.message, title: 'error.title' }
    : { status: 500, message: 'error.500', title: 'error.title' };
}

/**
 * The 404 page for a console address the router refused before reaching the console (a path
 * parameter too long to be any object's id): nothing there, said as a console page.
 */
export function sendConsoleNotFound(request: FastifyRequest, reply: FastifyReply) {
  const asked = new URL(request.url, 'http://x').searchParams.get('lang');
  const locale = negotiateLocale(request.headers['accept-language'], { asked, fallback: 'en' });
  const t = consoleTranslate(locale);
  const ctx: ConsoleContext = { locale, t, switchHref: CONSOLE_PATH, operator: null, csrf: '', path: '' };
  return reply
    .code(404)
    .header('content-security-policy', CONSOLE_CSP)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(messagePage(ctx, t('error.title'), t('error.404'), { href: CONSOLE_PATH, label: t('error.back') }));
}
