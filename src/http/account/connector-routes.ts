import type { FastifyInstance } from 'fastify';
import { INSTALL_TTL_MS } from '../../connectors/shopify/shopify-link.ts';
import type { Deps } from '../../deps.ts';
import { canManageKeys } from '../../domain/accounts/user.ts';
import { AppError } from '../../errors.ts';
import { SHOPIFY_PREFIX, SHOPIFY_STATE_COOKIE } from '../connectors/shopify/index.ts';
import { userOf } from '../shared/principal.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

/**
 * Starting a shop install from the account area, where the session lives (its cookie is scoped to
 * /account, so the connector's own routes never see it): the install is bound to the signed-in
 * person's brand in the database, and to this browser by a cookie the callback must present.
 * Without a session the area sends the person to sign in first.
 */
export function connectorRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/connectors/shopify/install', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    const shopify = deps.shopify;
    if (!shopify) throw new AppError('not_found', 'The Shopify connector is not set up on this service.');
    // Linking a shop lets it create orders and see rates: the people who manage API keys may.
    if (!canManageKeys(user.role)) throw new AppError('insufficient_scope', 'Your role cannot link a shop.');
    const { state, authorizeUrl } = await shopify.linking.beginInstall({
      brandId: user.brandId,
      userId: user.id,
      shop: (request.query as Record<string, unknown>).shop,
    });
    reply.setCookie(SHOPIFY_STATE_COOKIE, state, {
      path: SHOPIFY_PREFIX,
      httpOnly: true,
      // Lax: sent on the top-level redirect back from Shopify, never on a cross-site subrequest.
      sameSite: 'lax',
      secure: deps.config.publicBaseUrl?.startsWith('https://') === true,
      maxAge: INSTALL_TTL_MS / 1000,
    });
    return reply.redirect(authorizeUrl, 302);
  });

  // The WooCommerce plugin's "Connect" button, through /connectors/woocommerce/connect: the key
  // provisioning is started for the signed-in person's brand (WooCommerce then calls our callback
  // server to server, so no browser cookie binds it: the single-use state in its URL does).
  app.get('/connectors/woocommerce/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    const woocommerce = deps.woocommerce;
    if (!woocommerce)
      throw new AppError('not_found', 'The WooCommerce bridge is not set up on this service.');
    if (!canManageKeys(user.role)) throw new AppError('insufficient_scope', 'Your role cannot link a shop.');
    const { authorizeUrl } = await woocommerce.linking.beginConnect({
      brandId: user.brandId,
      userId: user.id,
      shopUrl: (request.query as Record<string, unknown>).shop_url,
    });
    return reply.redirect(authorizeUrl, 302);
  });
}
