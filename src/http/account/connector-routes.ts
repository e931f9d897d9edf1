import type { FastifyInstance } from 'fastify';
import { parseShopDomain } from '../../connectors/shopify/shop-domain.ts';
import type { ShopifyConnector } from '../../connectors/shopify/shopify-connector.ts';
import type { WooCommerceConnector } from '../../connectors/woocommerce/woocommerce-connector.ts';
import { canLinkShops, canManageKeys, UNVERIFIED_LINK } from '../../domain/accounts/user.ts';
import { AppError } from '../../errors.ts';
import { userOf } from '../shared/principal.ts';
import { type PageContextOf, sendPage } from './context.ts';
import { query } from './form.ts';
import { confirmShopPage } from './views/shops-page.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

/** What the connectors' install links use (null when a platform is off). */
interface ConnectorRoutesContext {
  shopify: ShopifyConnector | null;
  woocommerce: WooCommerceConnector | null;
}

/**
 * Where a shop sends a merchant to link it (Shopify's app URL, the WooCommerce plugin's "Connect"
 * button), through the connector's public routes to the account area, where the session lives.
 * A link anyone can make, so it starts nothing: it shows which store would be linked to which
 * brand, with the Shops page's own form (a POST with the session's CSRF token) to go on.
 */
export function connectorRoutes(
  app: FastifyInstance,
  deps: ConnectorRoutesContext,
  { context }: { context: PageContextOf },
): void {
  function mayLink(request: Parameters<typeof userOf>[0]) {
    const { user } = userOf(request).session;
    if (!canManageKeys(user.role)) throw new AppError('insufficient_scope', 'Your role cannot link a shop.');
    if (!canLinkShops(user, user.brandId)) throw new AppError('insufficient_scope', UNVERIFIED_LINK);
  }

  app.get('/connectors/shopify/install', SIGNED_IN, async (request, reply) => {
    if (!deps.shopify)
      throw new AppError('not_found', 'The Shopify connector is not set up on this service.');
    mayLink(request);
    const shop = parseShopDomain(query(request, 'shop', 255));
    const page = confirmShopPage(await context(request, reply), {
      platform: 'shopify',
      shop,
      action: '/account/shops/connect',
      fields: { shop },
    });
    return sendPage(reply, page);
  });

  app.get('/connectors/woocommerce/connect', SIGNED_IN, async (request, reply) => {
    if (!deps.woocommerce)
      throw new AppError('not_found', 'The WooCommerce bridge is not set up on this service.');
    mayLink(request);
    const shopUrl = query(request, 'shop_url', 300).trim();
    if (shopUrl === '') throw new AppError('invalid_request', 'shop_url: is required');
    // The address as the plugin sent it: the form's POST checks it (and says what is wrong there).
    const page = confirmShopPage(await context(request, reply), {
      platform: 'woocommerce',
      shop: shopUrl,
      action: '/account/shops/woocommerce/connect',
      fields: { url: shopUrl },
    });
    return sendPage(reply, page);
  });
}
