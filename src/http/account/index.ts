import { readFileSync } from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { ConnectionsService } from '../../connectors/connections-service.ts';
import type { WiredConnectors } from '../../connectors/registry.ts';
import type { Pool } from '../../db/pool.ts';
import { serverSecretsRepository } from '../../db/repositories/server-secrets-repository.ts';
import type { AccountService } from '../../domain/accounts/account-service.ts';
import type { KeyManagement } from '../../domain/accounts/key-management.ts';
import type { Mailer, RateLimiter } from '../../domain/accounts/ports.ts';
import type { TeamManagement } from '../../domain/accounts/team.ts';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import type { EmissionService } from '../../domain/emissions/emission-service.ts';
import type { InvoiceService } from '../../domain/invoices/invoice-service.ts';
import type { LabelService } from '../../domain/labels/label-service.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { PickupService } from '../../domain/pickups/pickup-service.ts';
import type { ProofService } from '../../domain/proofs/proof-service.ts';
import type { RateService } from '../../domain/rates/rate-service.ts';
import type { RecipientNotifications } from '../../domain/recipients/notification-service.ts';
import type { RecipientSettingsService } from '../../domain/recipients/settings-service.ts';
import type { Clock } from '../../domain/shared/clock.ts';
import type { TestData } from '../../domain/test-mode/test-data.ts';
import type { WebhookRequests } from '../../domain/webhooks/webhook-requests.ts';
import type { WebhookService } from '../../domain/webhooks/webhook-service.ts';
import type { WebhookSubscriptions } from '../../domain/webhooks/webhook-subscriptions.ts';
import { isAppError } from '../../errors.ts';
import { isLocale, type Locale, negotiateLocale } from '../../i18n/locales.ts';
import { UNUSABLE_TEXT_MESSAGE } from '../shared/plugins/text-inputs.ts';
import { routeConfig } from '../shared/route-config.ts';
import { authRoutes } from './auth-routes.ts';
import { companyRoutes } from './company-routes.ts';
import { emissionRoutes } from './emission-routes.ts';
import { text } from './form.ts';
import { invoiceRoutes } from './invoice-routes.ts';
import { keyRevealRoutes } from './key-reveal.ts';
import { keyRollRoutes } from './key-roll-routes.ts';
import { keyRoutes } from './key-routes.ts';
import { labelRoutes } from './label-routes.ts';
import { ACCOUNT_CSP, sendAccountMessage } from './message-page.ts';
import { notificationRoutes } from './notification-routes.ts';
import { orderRoutes } from './order-routes.ts';
import { pickupRoutes } from './pickup-routes.ts';
import { ratesRoutes } from './rates-routes.ts';
import {
  ACCOUNT_PATH,
  anonymousCsrf,
  CSRF_COOKIE,
  cookieSigner,
  LANG_COOKIE,
  SESSION_COOKIE,
  safeEqual,
} from './session-cookies.ts';
import { shopRoutes } from './shop-routes.ts';
import { teamRoutes } from './team-routes.ts';
import { isTestView, testDataRoutes } from './test-data-routes.ts';
import { messagePage, type PageContext } from './views/layout.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { translate } from './words.ts';

export const ACCOUNT_PREFIX = ACCOUNT_PATH;

const CSS = readFileSync(new URL('./static/account.css', import.meta.url));

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

export class CsrfError extends Error {}

/** What the account area and its route modules use; the area closes the mailer and limiters with it. */
interface AccountAreaContext extends WiredConnectors {
  config: Config;
  pool: Pool;
  accounts: AccountService;
  mailer: Mailer;
  signInLimiter: RateLimiter;
  resetLimiter: RateLimiter;
  invitationLimits: { invitations: RateLimiter; perAddress: RateLimiter };
  brands: BrandService;
  invoices: InvoiceService;
  emissions: EmissionService;
  labels: LabelService;
  accountKeys: KeyManagement;
  orders: OrderService;
  proofs: ProofService;
  recipientNotifications: Pick<RecipientNotifications, 'ofOrder'>;
  pickups: PickupService;
  rates: RateService;
  team: TeamManagement;
  clock: Clock;
  webhooks: WebhookService;
  webhookRequests: WebhookRequests;
  subscriptions: WebhookSubscriptions;
  connections: ConnectionsService;
  recipientSettings: RecipientSettingsService;
  testData: TestData;
}

/**
 * The account area (`/account`): server-rendered pages for a brand's people, working without
 * JavaScript. Its routes declare `auth: 'session'` (a signed-in person) or `'none'` (the sign-in
 * forms); this plugin resolves the session cookie, checks the CSRF token of every POST, and
 * answers errors with pages rather than the API's JSON envelope.
 */
export function accountArea(deps: AccountAreaContext) {
  return async (account: FastifyInstance) => {
    const signer = cookieSigner(() => serverSecretsRepository(deps.pool).getOrCreate('account_cookie_key'));
    const baseUrl = deps.config.publicBaseUrl;
    // Forms only: the JSON parser inherited from the API is dropped, so a JSON body gets a 415.
    account.removeAllContentTypeParsers();
    await account.register(fastifyCookie);
    await account.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
    account.decorateRequest('locale', 'en');
    // A control character in a query parameter or a form field is the form's own error, said on
    // the form by the route that reads it (form.ts), rather than a 400 before any handler.
    account.addHook('onRoute', (route) => {
      route.config = { ...route.config, unusableText: 'mark' };
    });

    account.addHook('onRequest', async (request, reply) => {
      reply.header('content-security-policy', ACCOUNT_CSP);
      const asked = (request.query as Record<string, unknown> | undefined)?.lang;
      const remembered = request.cookies[LANG_COOKIE];
      if (isLocale(asked)) {
        reply.setCookie(LANG_COOKIE, asked, { path: ACCOUNT_PATH, sameSite: 'lax', maxAge: 365 * 86400 });
      }
      request.locale = negotiateLocale(request.headers['accept-language'], {
        asked: isLocale(asked) ? asked : remembered,
        fallback: 'en',
      });
      const token = await signer.unsign(request.cookies[SESSION_COOKIE]);
      const session = token ? await deps.accounts.resume(token) : null;
      if (session) request.principal = { kind: 'user', session };
      else if (routeConfig(request).auth === 'session') {
        if (token || request.cookies[SESSION_COOKIE])
          reply.clearCookie(SESSION_COOKIE, { path: ACCOUNT_PATH });
        return reply.redirect(`${ACCOUNT_PATH}/sign-in`, 303);
      }
    });

    // Every POST carries the form's token: the session's own once signed in, else the double-submit cookie's.
    account.addHook('preHandler', async (request) => {
      if (request.method !== 'POST') return;
      const sent = text(request, '_csrf');
      const expected =
        request.principal?.kind === 'user'
          ? request.principal.session.record.csrfToken
          : await signer.unsign(request.cookies[CSRF_COOKIE]);
      if (!sent || !expected || !safeEqual(sent, expected)) throw new CsrfError('csrf');
    });

    const context = async (request: FastifyRequest, reply: FastifyReply): Promise<PageContext> => {
      const user = request.principal?.kind === 'user' ? request.principal.session.user : null;
      const url = new URL(request.url, 'http://x');
      url.searchParams.set('lang', request.locale === 'fr' ? 'en' : 'fr');
      return {
        locale: request.locale,
        t: translate(request.locale),
        switchHref: `${url.pathname}${url.search}`,
        user,
        // Test mode's data on the orders, keys and webhooks pages (test-data.ts reads the same flag).
        testMode: user !== null && isTestView(request),
        csrf:
          request.principal?.kind === 'user'
            ? request.principal.session.record.csrfToken
            : await anonymousCsrf(request, reply, signer, baseUrl),
      };
    };

    account.setNotFoundHandler(async (request, reply) => {
      const ctx = await context(request, reply);
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(messagePage(ctx, ctx.t('error.title'), ctx.t('error.404'), home(ctx)));
    });

    account.setErrorHandler(async (error: FastifyError, request, reply) => {
      const { status, message } = describe(error);
      if (status >= 500) request.log.error({ err: error }, 'account page failed');
      const ctx = await context(request, reply).catch(() => null);
      if (!ctx) return reply.code(503).type('text/plain; charset=utf-8').send('Service unavailable');
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(messagePage(ctx, ctx.t('error.title'), ctx.t(message), home(ctx)));
    });

    account.get(
      '/static/account.css',
      { config: { auth: 'none' }, schema: { hide: true } },
      async (_request, reply) =>
        reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CSS),
    );

    authRoutes(account, deps, { signer, context });
    keyRoutes(account, deps, { signer, context });
    keyRevealRoutes(account, deps, { signer, context });
    orderRoutes(account, deps, { context });
    labelRoutes(account, deps, { context });
    pickupRoutes(account, deps, { context });
    invoiceRoutes(account, deps, { context });
    emissionRoutes(account, deps, { context });
    ratesRoutes(account, deps, { context });
    webhookRoutes(account, deps, { context });
    companyRoutes(account, deps, { context });
    testDataRoutes(account, deps, { context });
    keyRollRoutes(account, deps, { signer, context });
    teamRoutes(account, deps, { context });
    shopRoutes(account, deps, { signer, context });
    await notificationRoutes(account, deps, { context });

    account.addHook('onClose', async () => {
      deps.mailer.close();
      await deps.signInLimiter.close();
      await deps.resetLimiter.close();
      await deps.invitationLimits.invitations.close();
      await deps.invitationLimits.perAddress.close();
    });
  };
}

/**
 * The 404 page for an account address the router refused before reaching the area (a path
 * parameter too long to be any object's id): an object that does not exist, said as a page.
 */
export function sendAccountNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendAccountMessage(request, reply, 404, (t) => ({
    title: t('error.title'),
    message: t('error.404'),
    link: { href: ACCOUNT_PATH, label: t('error.back') },
  }));
}

const home = (ctx: PageContext) => ({ href: ACCOUNT_PATH, label: ctx.t('error.back') });

function describe(error: FastifyError): { status: number; message: string } {
  if (error instanceof CsrfError) return { status: 403, message: 'error.csrf' };
  if (isAppError(error)) {
    if (error.code === 'not_found') return { status: 404, message: 'error.404' };
    if (error.code === 'insufficient_scope') return { status: 403, message: 'error.403' };
    if (error.code === 'rate_limited') return { status: 429, message: 'error.429' };
    // A path parameter refused before any handler saw it (refuseUnusableText), or a field or query
    // parameter no form shows (form.ts): said in the reader's language.
    const detail = error.details?.[0];
    if (detail?.message === UNUSABLE_TEXT_MESSAGE || detail?.problem?.code === 'text.controlCharacters')
      return { status: 400, message: 'error.controlCharacters' };
    if (error.status < 500) return { status: error.status, message: error.message };
    return { status: error.status, message: 'error.500' };
  }
  const status = error.statusCode ?? 500;
  // Fastify's own 4xx (unsupported media type, body too large, bad form): its message is safe to show.
  return status < 500 ? { status, message: error.message } : { status: 500, message: 'error.500' };
}
