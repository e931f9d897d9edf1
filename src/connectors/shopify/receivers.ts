import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../errors.ts';
import { sendAccountMessage } from '../../http/account/message-page.ts';
import { ACCOUNT_PATH } from '../../http/account/session-cookies.ts';
import { shopOf } from '../../http/shared/principal.ts';
import { isValidBodyHmac } from '../signatures.ts';
import type { ShopifyRateRequest } from './carrier-rates.ts';
import { isShopDomain, parseShopDomain } from './shop-domain.ts';
import type { ShopifyConnector } from './shopify-connector.ts';
import { InstallRefused } from './shopify-link.ts';

export const SHOPIFY_PREFIX = '/connectors/shopify';
/** The cookie binding an OAuth install to the browser that started it (set by the account area). */
export const SHOPIFY_STATE_COOKIE = 'dlv_shopify_state';
/** Where the account area asks the signed-in person to confirm an install (it owns the session cookie; a GET starts nothing). */
const ACCOUNT_INSTALL_PATH = `${ACCOUNT_PATH}/connectors/shopify/install`;
/** The account area's Shops page, where a completed install lands (with a notice). */
const ACCOUNT_SHOPS_PATH = `${ACCOUNT_PATH}/shops`;

/** Shopify's order payloads can be large (hundreds of line items); rate requests carry the cart. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const RATES_BODY_LIMIT = 256 * 1024;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * `/connectors/shopify`: the Shopify app's public routes. Install and callback are browser
 * redirects; webhooks and carrier-service rate requests are signed by Shopify (base64 HMAC-SHA256 of
 * the raw body with the app secret), checked before anything else is read.
 */
export function shopifyRoutes(shopify: ShopifyConnector) {
  return async (app: FastifyInstance) => {
    await app.register(fastifyCookie);

    /** Sets the `shop` principal, or answers 401 and goes no further. */
    async function verifySignature(request: FastifyRequest) {
      const hmac = request.headers['x-shopify-hmac-sha256'];
      if (!isValidBodyHmac(request.rawBody, first(hmac), shopify.app.apiSecret))
        throw new AppError('unauthorized', 'The request is not signed by Shopify (X-Shopify-Hmac-Sha256).');
      const shop = first(request.headers['x-shopify-shop-domain'])?.trim().toLowerCase();
      if (!isShopDomain(shop))
        throw new AppError(
          'invalid_request',
          'X-Shopify-Shop-Domain: must be a shop domain such as acme.myshopify.com',
        );
      request.principal = { kind: 'shop', platform: 'shopify', shop };
    }

    // The app's URL in Shopify: a merchant arriving from Shopify is sent to sign in to the account
    // area, which asks them to confirm the install for their brand.
    app.get('/install', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const shop = parseShopDomain((request.query as Record<string, unknown>).shop);
      return reply.redirect(`${ACCOUNT_INSTALL_PATH}?${new URLSearchParams({ shop })}`, 303);
    });

    app.get('/callback', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const browserState = request.cookies[SHOPIFY_STATE_COOKIE] ?? null;
      reply.clearCookie(SHOPIFY_STATE_COOKIE, { path: SHOPIFY_PREFIX });
      let connection: Awaited<ReturnType<typeof shopify.linking.completeInstall>>;
      try {
        connection = await shopify.linking.completeInstall(query, browserState);
      } catch (err) {
        return sendInstallFailure(request, reply, err);
      }
      return reply.redirect(
        `${ACCOUNT_SHOPS_PATH}?${new URLSearchParams({ connected: connection.shop })}`,
        303,
      );
    });

    // Every topic, the privacy ones (configured in the app's settings) included, arrives here.
    app.post(
      '/webhooks',
      {
        config: { auth: 'none', rawBody: true },
        schema: { hide: true },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        preHandler: verifySignature,
      },
      async (request, reply) => {
        const stored = await shopify.inbox.receive({
          shop: shopOf(request).shop,
          topic: first(request.headers['x-shopify-topic']),
          webhookId: first(request.headers['x-shopify-webhook-id']),
          rawBody: request.rawBody!,
        });
        return reply.code(200).send({ ok: true, duplicate: !stored });
      },
    );

    app.post(
      '/rates',
      {
        config: { auth: 'none', rawBody: true },
        schema: { hide: true },
        bodyLimit: RATES_BODY_LIMIT,
        preHandler: verifySignature,
      },
      async (request) =>
        shopify.rates.quote(shopOf(request).shop, (request.body ?? {}) as ShopifyRateRequest),
    );
  };
}

/**
 * A failed callback, said to the merchant whose browser Shopify sent here: a page in the account
 * area's style and their language, with the same status the API would give and a way back to the
 * Shops page (the English message stays in the log).
 */
function sendInstallFailure(request: FastifyRequest, reply: FastifyReply, err: unknown) {
  const status = isAppError(err) ? err.status : 500;
  if (status >= 500) request.log.error({ err }, 'shopify install callback failed');
  else request.log.info({ reason: (err as Error).message }, 'shopify install callback refused');
  const refusal =
    err instanceof InstallRefused ? err.refusal : isAppError(err) && status < 500 ? 'incomplete' : 'failed';
  return sendAccountMessage(request, reply, status, (t) => ({
    title: t('shops.callback.title'),
    message: t(`shops.callback.${refusal}`),
    link: { href: ACCOUNT_SHOPS_PATH, label: t('shops.back') },
  }));
}
