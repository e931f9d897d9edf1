import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Pool } from '../../db/pool.ts';
import { serverSecretsRepository } from '../../db/repositories/server-secrets-repository.ts';
import type { ArrivalTimes } from '../../domain/arrivals/arrival-service.ts';
import type { CourierService } from '../../domain/couriers/courier-service.ts';
import type { ProofDeliveries } from '../../domain/proofs/proof-deliveries.ts';
import type { RoundService } from '../../domain/rounds/round-service.ts';
import type { ScanService } from '../../domain/scans/scan-service.ts';
import { AppError, type ErrorDetail, isAppError, problemDetail } from '../../errors.ts';
import { type CourierKey, courierWording } from '../../i18n/courier.ts';
import { formErrorWords } from '../../i18n/form-errors.ts';
import { isLocale, negotiateLocale } from '../../i18n/locales.ts';
import { clientIp, text } from '../account/form.ts';
import { cookieSigner, safeEqual } from '../account/session-cookies.ts';
import { errorHandler, sendError } from '../shared/errors.ts';
import { courierOf } from '../shared/principal.ts';
import { routeConfig } from '../shared/route-config.ts';
import { courierStylesheet } from './app-shell.ts';
import { courierDeliveryRoutes } from './deliveries.ts';
import { type CourierPage, messagePage, passwordPage, signInPage } from './pages.ts';
import { courierPositionRoutes } from './position-routes.ts';
import { courierScanRoutes } from './scan-routes.ts';
import {
  ANYONE,
  anonymousCourierCsrf,
  COURIER_CSP,
  COURIER_CSRF_COOKIE,
  COURIER_ONLY,
  COURIER_PATH,
  COURIER_SESSION_COOKIE,
  courierCookieOptions,
  isApiCall,
} from './session.ts';

// The courier's forms name no shop platform's fields: the generic words are enough.
const { fieldError } = formErrorWords([]);

export const COURIER_PREFIX = COURIER_PATH;

/** What the courier surface uses. */
interface CourierAreaContext {
  config: Pick<Config, 'publicBaseUrl'>;
  pool: Pool;
  couriers: CourierService;
  rounds: RoundService;
  scans: ScanService;
  deliveries: ProofDeliveries;
  arrivals: ArrivalTimes;
}

/** A form posted without its token (or with another): a page's 403. */
class CsrfError extends Error {}

/**
 * The couriers' surface (`/courier`): the sign-in pages (server-rendered, FR/EN, CSRF-protected)
 * and the app's JSON calls under `/courier/api/v1`. Its own sessions (`courier_sessions`, cookie
 * `dlv_courier_session` on path `/courier`): a brand's session never opens it, and a courier's
 * never opens `/account`. Routes say `auth: 'courier'` (signed in) or `'none'` (the sign-in).
 */
export function courierArea(deps: CourierAreaContext) {
  return async (area: FastifyInstance) => {
    const signer = cookieSigner(() => serverSecretsRepository(deps.pool).getOrCreate('courier_cookie_key'));
    const baseUrl = deps.config.publicBaseUrl;
    await area.register(fastifyCookie);
    await area.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
    area.decorateRequest('locale', 'fr');
    area.decorateRequest('courierSession', null);

    area.addHook('onRequest', async (request, reply) => {
      reply.header('content-security-policy', COURIER_CSP);
      const token = await signer.unsign(request.cookies[COURIER_SESSION_COOKIE]);
      const session = token ? await deps.couriers.resume(token) : null;
      const asked = (request.query as Record<string, unknown> | undefined)?.lang;
      request.locale = negotiateLocale(request.headers['accept-language'], {
        asked: isLocale(asked) ? asked : session?.courier.locale,
        fallback: 'fr',
      });
      if (session) {
        request.courierSession = session;
        const { id, name, locale } = session.courier;
        request.principal = { kind: 'courier', courier: { id, name, locale } };
        // A session opened with a one-time password chooses the courier's own, and does nothing else.
        if (!session.record.passwordChangeOnly || routeConfig(request).auth !== 'courier') return;
        if (PASSWORD_CHANGE_ROUTES.has(request.routeOptions.url ?? '')) return;
        if (isApiCall(request))
          throw new AppError('unauthorized', `Choose your own password first (${COURIER_PATH}/password).`);
        return reply.redirect(`${COURIER_PATH}/password`, 303);
      }
      if (routeConfig(request).auth !== 'courier') return;
      if (request.cookies[COURIER_SESSION_COOKIE])
        reply.clearCookie(COURIER_SESSION_COOKIE, { path: COURIER_PATH });
      if (isApiCall(request)) throw new AppError('unauthorized', 'Sign in as a courier first.');
      return reply.redirect(`${COURIER_PATH}/login`, 303);
    });

    // Every call that changes something carries the token: the session's (`x-csrf-token`, or the
    // form's `_csrf`), else, on the sign-in form, the double-submit cookie's.
    area.addHook('preHandler', async (request) => {
      if (request.method === 'GET' || request.method === 'HEAD') return;
      const header = request.headers['x-csrf-token'];
      const sent = typeof header === 'string' ? header : isForm(request) ? text(request, '_csrf', 200) : '';
      const expected = request.courierSession
        ? request.courierSession.record.csrfToken
        : await signer.unsign(request.cookies[COURIER_CSRF_COOKIE]);
      if (sent && expected && safeEqual(sent, expected)) return;
      if (isApiCall(request))
        throw new AppError(
          'csrf_failed',
          'Send the session’s CSRF token (GET /courier/api/v1/me) in x-csrf-token.',
        );
      throw new CsrfError('csrf');
    });

    const pageOf = async (request: FastifyRequest, reply: FastifyReply): Promise<CourierPage> => {
      const url = new URL(request.url, 'http://x');
      url.searchParams.set('lang', request.locale === 'fr' ? 'en' : 'fr');
      const session = request.courierSession;
      return {
        locale: request.locale,
        t: courierWording(request.locale),
        switchHref: `${url.pathname}${url.search}`,
        courier: session ? { name: session.courier.name } : null,
        stylesheet: courierStylesheet(),
        csrf: session
          ? session.record.csrfToken
          : await anonymousCourierCsrf(request, reply, signer, baseUrl),
      };
    };
    const sendPage = (reply: FastifyReply, body: string, status = 200) =>
      reply.code(status).type('text/html; charset=utf-8').send(body);

    area.setNotFoundHandler(async (request, reply) => {
      if (isApiCall(request))
        return sendError(
          reply,
          new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
        );
      const page = await pageOf(request, reply);
      return sendPage(reply, messagePage(page, page.t('error.title'), page.t('error.404')), 404);
    });

    area.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (isApiCall(request)) return errorHandler(error, request, reply);
      const { status, message } = describe(error);
      if (status >= 500) request.log.error({ err: error }, 'courier page failed');
      const page = await pageOf(request, reply).catch(() => null);
      if (!page) return reply.code(503).type('text/plain; charset=utf-8').send('Service unavailable');
      return sendPage(reply, messagePage(page, page.t('error.title'), page.t(message)), status);
    });

    area.get('/login', ANYONE, async (request, reply) => {
      if (request.courierSession) return reply.redirect(landing(request.courierSession), 303);
      return sendPage(reply, signInPage(await pageOf(request, reply)));
    });

    area.post('/login', ANYONE, async (request, reply) => {
      const email = text(request, 'email', 254);
      try {
        const { token, passwordChangeOnly } = await deps.couriers.signIn({
          email,
          password: text(request, 'password'),
          ip: clientIp(request),
        });
        // A new session each time (never the one the phone arrived with): no fixation.
        if (request.courierSession) await deps.couriers.signOut(request.courierSession);
        reply.setCookie(
          COURIER_SESSION_COOKIE,
          await signer.sign(token),
          courierCookieOptions(request, baseUrl),
        );
        return reply.redirect(passwordChangeOnly ? `${COURIER_PATH}/password` : `${COURIER_PATH}/`, 303);
      } catch (err) {
        if (!isAppError(err) || err.code !== 'unauthorized') throw err;
        // The signed-out page: a session the phone arrived with is not shown as signed in.
        request.courierSession = null;
        const page = await pageOf(request, reply);
        return sendPage(reply, signInPage(page, { email, error: page.t('signIn.refused') }), 401);
      }
    });

    area.get('/password', COURIER_ONLY, async (request, reply) => {
      const session = request.courierSession!;
      const page = await pageOf(request, reply);
      const first = session.record.passwordChangeOnly;
      return sendPage(reply, passwordPage(page, { first, email: session.courier.email }));
    });

    area.post('/password', COURIER_ONLY, async (request, reply) => {
      const session = request.courierSession!;
      const first = session.record.passwordChangeOnly;
      try {
        const password = text(request, 'password', 1024);
        if (password !== text(request, 'password_confirm', 1024))
          throw new AppError('invalid_request', 'password_confirm: does not match the new password', [
            problemDetail('password_confirm', { code: 'password.mismatch' }),
          ]);
        const { token } = await deps.couriers.choosePassword(session, {
          current: first ? null : text(request, 'current_password', 1024),
          password,
          ip: clientIp(request),
        });
        reply.setCookie(
          COURIER_SESSION_COOKIE,
          await signer.sign(token),
          courierCookieOptions(request, baseUrl),
        );
        return reply.redirect(`${COURIER_PATH}/`, 303);
      } catch (err) {
        if (!isAppError(err) || err.code !== 'invalid_request') throw err;
        const page = await pageOf(request, reply);
        const errors = (err.details ?? [{ field: 'password', message: err.message }]).map((d) =>
          fieldError(page.locale, page.t(PASSWORD_LABELS[d.field] ?? 'password.new'), d as ErrorDetail),
        );
        return sendPage(reply, passwordPage(page, { first, email: session.courier.email, errors }), 400);
      }
    });

    area.post('/logout', COURIER_ONLY, async (request, reply) => {
      if (request.courierSession) await deps.couriers.signOut(request.courierSession);
      reply.clearCookie(COURIER_SESSION_COOKIE, { path: COURIER_PATH });
      return reply.redirect(`${COURIER_PATH}/login`, 303);
    });

    area.get('/api/v1/me', COURIER_ONLY, async (request) => ({
      courier: courierOf(request).courier,
      csrf_token: request.courierSession!.record.csrfToken,
    }));

    // The courier's day as decision 0006 gives it: their rounds only, never another courier's.
    area.get('/api/v1/day', COURIER_ONLY, async (request) => {
      const date = (request.query as Record<string, unknown> | undefined)?.date;
      if (date !== undefined && typeof date !== 'string')
        throw new AppError('invalid_request', 'date: must be a date (YYYY-MM-DD)', [
          { field: 'date', message: 'must be a date (YYYY-MM-DD)' },
        ]);
      return deps.rounds.courierDay(courierOf(request).courier.id, date);
    });

    courierScanRoutes(area, deps);
    courierPositionRoutes(area, deps);

    // Multipart in its own scope: the deliveries' files (domain/proofs).
    await area.register(courierDeliveryRoutes(deps));

    // `/courier/` itself, the app's shell, is src/http/courier/app-shell.ts: public and cached by the
    // service worker; its scripts call /api/v1/me and /api/v1/day, and come to /login without a session.
  };
}

/** The routes a session opened with a one-time password may use: choosing the password, signing out. */
const PASSWORD_CHANGE_ROUTES = new Set([`${COURIER_PATH}/password`, `${COURIER_PATH}/logout`]);

const PASSWORD_LABELS: Record<string, CourierKey> = {
  current_password: 'password.current',
  password: 'password.new',
  password_confirm: 'password.confirm',
};

/** Where a signed-in courier is sent: its own password first, when it has none yet. */
const landing = (session: { record: { passwordChangeOnly: boolean } }) =>
  session.record.passwordChangeOnly ? `${COURIER_PATH}/password` : `${COURIER_PATH}/`;

const isForm = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

function describe(error: FastifyError): { status: number; message: CourierKey } {
  if (error instanceof CsrfError) return { status: 403, message: 'error.csrf' };
  const status = isAppError(error) ? error.status : (error.statusCode ?? 500);
  if (status === 404) return { status, message: 'error.404' };
  if (status === 429) return { status, message: 'error.429' };
  if (status === 403) return { status, message: 'error.csrf' };
  if (status < 500) return { status, message: 'error.400' };
  return { status, message: 'error.500' };
}
