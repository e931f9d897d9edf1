import type { FastifyInstance } from 'fastify';
import { AppError, isAppError } from '../../../errors.ts';
import { SIGNED_IN, sendPage } from '../../../http/account/context.ts';
import { fieldErrors } from '../../../http/account/field-errors.ts';
import { query, text } from '../../../http/account/form.ts';
import type { ShopsKit } from '../../../http/account/shop-part.ts';
import { confirmShopPage } from '../../../http/account/views/shops-page.ts';
import { userOf } from '../../../http/shared/principal.ts';
import type { WooCommerceConnector } from '../woocommerce-connector.ts';
import { continueToWooPage, type WooFormState } from './views.ts';

const WOO_FIELDS = {
  url: { name: 'url', label: 'shops.wooUrl' },
  consumer_key: { name: 'consumer_key', label: 'shops.wooKey' },
  consumer_secret: { name: 'consumer_secret', label: 'shops.wooSecret' },
} as const;

/**
 * The Shops page's WooCommerce part: linking a store, and the plugin's "Connect" button, which only
 * shows what would be linked (a link anyone can make starts nothing: the Shops page's own form, a
 * POST with the session's CSRF token, goes on).
 */
export function wooCommerceAccountRoutes(
  app: FastifyInstance,
  woocommerce: WooCommerceConnector | null,
  kit: ShopsKit,
): void {
  const { context, view } = kit;
  const redraw = (state: WooFormState) => ({ form: { platform: 'woocommerce' as const, state } });

  // Pasted keys link at once (checked by creating our webhooks); without keys, the store's address
  // is checked and the one-click key provisioning started (bound to this person and brand:
  // WooCommerce then calls our callback server to server, with the single-use state in its URL),
  // and the person continues, by a link, to the store's approval page.
  app.post('/shops/woocommerce/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    kit.mayLink(user);
    if (!woocommerce)
      throw new AppError('not_found', 'The WooCommerce bridge is not set up on this service.');
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typedUrl = () => text(request, 'url', 300);
    try {
      const typed = typedUrl();
      const key = text(request, 'consumer_key', 100);
      const secret = text(request, 'consumer_secret', 100);
      if (key || secret) {
        const connection = await woocommerce.linking.link({
          brandId: user.brandId,
          url: typed,
          consumerKey: key,
          consumerSecret: secret,
        });
        return reply.redirect(`/account/shops?${new URLSearchParams({ connected: connection.shop })}`, 303);
      }
      const { store, authorizeUrl } = await woocommerce.linking.beginConnect({
        brandId: user.brandId,
        userId: user.id,
        shopUrl: typed,
      });
      return sendPage(reply, continueToWooPage(await context(request, reply), store, authorizeUrl));
    } catch (err) {
      if (!isAppError(err) || err.code !== 'invalid_request') throw err;
      const ctx = await context(request, reply);
      const errors = fieldErrors(err, ctx, WOO_FIELDS);
      if (Object.keys(errors).length === 0) errors.url = err.message;
      return view(request, reply, redraw({ storeUrl: typedUrl(), errors }), 400);
    }
  });

  // The plugin's button (through the connector's public routes to the account area, where the session lives).
  app.get('/connectors/woocommerce/connect', SIGNED_IN, async (request, reply) => {
    if (!woocommerce)
      throw new AppError('not_found', 'The WooCommerce bridge is not set up on this service.');
    kit.mayFollowLink(userOf(request).session.user);
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
