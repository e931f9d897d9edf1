import type { FastifyInstance } from 'fastify';
import { AppError, invalidField } from '../../../errors.ts';
import { SIGNED_IN, sendPage } from '../../../http/account/context.ts';
import { fieldErrors } from '../../../http/account/field-errors.ts';
import { query, text } from '../../../http/account/form.ts';
import type { ShopsKit } from '../../../http/account/shop-part.ts';
import { confirmShopPage } from '../../../http/account/views/shops-page.ts';
import { userOf } from '../../../http/shared/principal.ts';
import { SHOPIFY_PREFIX, SHOPIFY_STATE_COOKIE } from '../receivers.ts';
import { isShopDomain, parseShopDomain } from '../shop-domain.ts';
import type { ShopifyConnector } from '../shopify-connector.ts';
import { INSTALL_TTL_MS } from '../shopify-link.ts';
import { continueToShopifyPage, type ShopifyFormState } from './views.ts';

const SHOP_FIELDS = { shop: { name: 'shop', label: 'shops.shopField' } } as const;

/**
 * What a merchant types for their store, as its permanent domain: `acme`, `acme.myshopify.com`,
 * the address bar's `https://acme.myshopify.com/admin` or `admin.shopify.com/store/acme` (the admin's
 * own address, whose handle is the myshopify name). A custom domain (`acme.com`) names no store
 * Shopify's OAuth knows: it is refused with how to find the right one.
 */
export function shopDomainFromForm(input: string): string {
  let value = input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '');
  const admin = /^admin\.shopify\.com\/store\/([^/?#]+)/.exec(value);
  value = admin ? admin[1]! : value.replace(/[/?#].*$/, '');
  if (!value.includes('.')) value = `${value}.myshopify.com`;
  if (!isShopDomain(value))
    throw invalidField(
      'shop',
      'must be your store’s name (acme) or its myshopify.com address (acme.myshopify.com)',
    );
  return value;
}

/**
 * The Shops page's Shopify part: connecting a store (through the signed-in install route), and the
 * app URL Shopify sends a merchant to, which only shows what would be linked (a link anyone can
 * make starts nothing: the Shops page's own form, a POST with the session's CSRF token, goes on).
 */
export function shopifyAccountRoutes(
  app: FastifyInstance,
  shopify: ShopifyConnector | null,
  kit: ShopsKit,
): void {
  const { context, view } = kit;
  const redraw = (state: ShopifyFormState) => ({ form: { platform: 'shopify' as const, state } });

  // Starting a link is a POST of this page's form (its CSRF token is the session's): a link another
  // site makes a signed-in person follow only shows a confirmation (the install link below).
  // The store's name is checked here, where a mistake can be shown on the form; the install is
  // then bound to this person and brand in the database, and to this browser by a cookie the
  // callback must present. A link to Shopify follows, not a redirect: the area's CSP
  // (form-action 'self') makes browsers stop a form submission redirected to another origin.
  app.post('/shops/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    kit.mayLink(user);
    if (!shopify) throw new AppError('not_found', 'The Shopify connector is not set up on this service.');
    let shop: string;
    try {
      shop = shopDomainFromForm(text(request, 'shop', 300));
    } catch (err) {
      const errors = fieldErrors(err, await context(request, reply), SHOP_FIELDS);
      return view(request, reply, redraw({ shop: text(request, 'shop', 300), errors }), 400);
    }
    const typed = text(request, 'shop', 300);
    // Going through Shopify only to be told at the end that it is linked already would waste a trip.
    if (await kit.liveShop(user, shop)) {
      const { t } = await context(request, reply);
      return view(request, reply, redraw({ shop: typed, errors: { shop: t('shops.alreadyLinked') } }), 409);
    }
    const { state, authorizeUrl } = await shopify.linking.beginInstall({
      brandId: user.brandId,
      userId: user.id,
      shop,
    });
    reply.setCookie(SHOPIFY_STATE_COOKIE, state, {
      path: SHOPIFY_PREFIX,
      httpOnly: true,
      // Lax: sent on the top-level redirect back from Shopify, never on a cross-site subrequest.
      sameSite: 'lax',
      secure: kit.config.publicBaseUrl?.startsWith('https://') === true,
      maxAge: INSTALL_TTL_MS / 1000,
    });
    return sendPage(reply, continueToShopifyPage(await context(request, reply), shop, authorizeUrl));
  });

  // The app URL (through the connector's public routes to the account area, where the session lives).
  app.get('/connectors/shopify/install', SIGNED_IN, async (request, reply) => {
    if (!shopify) throw new AppError('not_found', 'The Shopify connector is not set up on this service.');
    kit.mayFollowLink(userOf(request).session.user);
    const shop = parseShopDomain(query(request, 'shop', 255));
    const page = confirmShopPage(await context(request, reply), {
      platform: 'shopify',
      shop,
      action: '/account/shops/connect',
      fields: { shop },
    });
    return sendPage(reply, page);
  });
}
