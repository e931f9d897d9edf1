import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { ConnectionsService } from '../../connectors/connections-service.ts';
import { DEFAULT_PROBLEM_LIMIT } from '../../connectors/connections-service.ts';
import type { PrestaShopConnector } from '../../connectors/prestashop/prestashop-connector.ts';
import { SHOPIFY_PREFIX, SHOPIFY_STATE_COOKIE } from '../../connectors/shopify/receivers.ts';
import { isShopDomain } from '../../connectors/shopify/shop-domain.ts';
import type { ShopifyConnector } from '../../connectors/shopify/shopify-connector.ts';
import { INSTALL_TTL_MS } from '../../connectors/shopify/shopify-link.ts';
import type { WooCommerceConnector } from '../../connectors/woocommerce/woocommerce-connector.ts';
import { canLinkShops, canManageKeys, UNVERIFIED_LINK, type User } from '../../domain/accounts/user.ts';
import { AppError, invalidField, isAppError } from '../../errors.ts';
import { userOf } from '../shared/principal.ts';
import { idOf, type PageContextOf, SIGNED_IN, sendPage } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { query, text } from './form.ts';
import type { CookieSigner } from './session-cookies.ts';
import { prestashopShopRoutes } from './shop-routes-prestashop.ts';
import {
  continueToShopifyPage,
  continueToWooPage,
  disconnectedPage,
  disconnectPage,
  type ShopsPageState,
  shopsPage,
} from './views/shops-page.ts';

const SHOP_FIELDS = { shop: { name: 'shop', label: 'shops.shopField' } } as const;
const WOO_FIELDS = {
  url: { name: 'url', label: 'shops.wooUrl' },
  consumer_key: { name: 'consumer_key', label: 'shops.wooKey' },
  consumer_secret: { name: 'consumer_secret', label: 'shops.wooSecret' },
} as const;
const SETTINGS_FIELDS = {
  order_filter: { name: 'order_filter', label: 'shops.orderFilter' },
  notify_customer: { name: 'notify_customer', label: 'shops.notify' },
} as const;

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

/** What the Shops page uses: the links, each platform's connector (null when off) and the service's address. */
interface ShopRoutesContext {
  connections: ConnectionsService;
  shopify: ShopifyConnector | null;
  woocommerce: WooCommerceConnector | null;
  prestashop: PrestaShopConnector;
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>;
}

/**
 * `/account/shops` («Boutiques»): connecting a Shopify store (through the signed-in install route),
 * the brand's links with their health, settings and disconnect, and the sync problems. Everyone of
 * the brand reads it; owners and developers (who hold the API keys) change it.
 */
export function shopRoutes(
  app: FastifyInstance,
  deps: ShopRoutesContext,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  const { connections } = deps;

  function mayManage(user: User): void {
    if (!canManageKeys(user.role)) throw new AppError('insufficient_scope', 'Your role cannot change shops.');
  }

  /** Starting a link (its shop then creates billable orders): a confirmed address too. */
  function mayLink(user: User): void {
    mayManage(user);
    if (!canLinkShops(user, user.brandId)) throw new AppError('insufficient_scope', UNVERIFIED_LINK);
  }

  async function pageData(user: User) {
    const [list, problems] = await Promise.all([
      connections.list(user.brandId),
      connections.problems({ brandId: user.brandId, limit: DEFAULT_PROBLEM_LIMIT }),
    ]);
    const shops = await Promise.all(
      list.map(async (entry) => ({
        ...entry,
        // Few links per brand: the newest problem of each, however old, for its health line.
        lastProblem:
          entry.problems === 0 || entry.connection.status === 'disconnected'
            ? null
            : ((
                await connections.problems({
                  brandId: user.brandId,
                  connectionId: entry.connection.id,
                  limit: 1,
                })
              )[0] ?? null),
      })),
    );
    const prestashop = shops.some((s) => s.connection.platform === 'prestashop')
      ? new Map((await deps.prestashop.overview(user.brandId)).map((p) => [p.connectionId, p]))
      : new Map();
    return {
      shops: shops.map((s) => ({ ...s, prestashop: prestashop.get(s.connection.id) })),
      problems,
      problemLimit: DEFAULT_PROBLEM_LIMIT,
      shopifyEnabled: deps.shopify !== null,
      wooEnabled: deps.woocommerce !== null,
      mayManage: canManageKeys(user.role),
      mayLink: canLinkShops(user, user.brandId),
    };
  }

  /** The Shops page again, with what a form needs to show (what was typed, what was wrong). */
  async function view(
    request: FastifyRequest,
    reply: FastifyReply,
    state: ShopsPageState = {},
    status = 200,
  ) {
    const { user } = userOf(request).session;
    const data = await pageData(user);
    return sendPage(reply, shopsPage(await context(request, reply), data, state), status);
  }

  /** A link of the brand that is not disconnected, by shop (the notices name only the brand's own). */
  const liveShop = async (user: User, shop: string) =>
    (await connections.list(user.brandId)).find(
      (l) => l.connection.shop === shop && l.connection.status !== 'disconnected',
    )?.connection ?? null;

  prestashopShopRoutes(app, deps, { signer, context, view, mayManage, mayLink });

  app.get('/shops', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    const ctx = await context(request, reply);
    const data = await pageData(user);
    // The OAuth callback lands here with `connected`; a settings change with `saved`. Only the
    // brand's own live links are named, whatever the address says.
    const connected = query(request, 'connected', 255);
    const saved = query(request, 'saved', 40);
    const live = data.shops.map((s) => s.connection).filter((c) => c.status !== 'disconnected');
    const justConnected = connected ? live.find((c) => c.shop === connected) : undefined;
    const justSaved = saved ? live.find((c) => c.id === saved) : undefined;
    const notice = justConnected
      ? ctx.t('shops.connected', { shop: justConnected.shop })
      : justSaved
        ? ctx.t('shops.saved', { shop: justSaved.shop })
        : undefined;
    return sendPage(reply, shopsPage(ctx, data, { notice }));
  });

  // Starting a link is a POST of this page's form (its CSRF token is the session's): a link another
  // site makes a signed-in person follow only shows a confirmation (connector-routes.ts).
  // The store's name is checked here, where a mistake can be shown on the form; the install is
  // then bound to this person and brand in the database, and to this browser by a cookie the
  // callback must present. A link to Shopify follows, not a redirect: the area's CSP
  // (form-action 'self') makes browsers stop a form submission redirected to another origin.
  app.post('/shops/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayLink(user);
    const shopify = deps.shopify;
    if (!shopify) throw new AppError('not_found', 'The Shopify connector is not set up on this service.');
    let shop: string;
    try {
      shop = shopDomainFromForm(text(request, 'shop', 300));
    } catch (err) {
      const errors = fieldErrors(err, await context(request, reply), SHOP_FIELDS);
      return view(request, reply, { shop: text(request, 'shop', 300), errors }, 400);
    }
    const typed = text(request, 'shop', 300);
    // Going through Shopify only to be told at the end that it is linked already would waste a trip.
    if (await liveShop(user, shop)) {
      const { t } = await context(request, reply);
      return view(request, reply, { shop: typed, errors: { shop: t('shops.alreadyLinked') } }, 409);
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
      secure: deps.config.publicBaseUrl?.startsWith('https://') === true,
      maxAge: INSTALL_TTL_MS / 1000,
    });
    return sendPage(reply, continueToShopifyPage(await context(request, reply), shop, authorizeUrl));
  });

  // WooCommerce: pasted keys link at once (checked by creating our webhooks); without keys, the
  // store's address is checked and the one-click key provisioning started (bound to this person
  // and brand: WooCommerce then calls our callback server to server, with the single-use state in
  // its URL), and the person continues, by a link, to the store's approval page.
  app.post('/shops/woocommerce/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayLink(user);
    const woocommerce = deps.woocommerce;
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
      return view(request, reply, { storeUrl: typedUrl(), errors }, 400);
    }
  });

  app.post('/shops/:connectionId/settings', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await connections.get(user.brandId, idOf(request));
    if (connection.status === 'disconnected')
      throw new AppError(
        'invalid_request',
        'This shop is disconnected: connect it again to change its settings.',
      );
    const notify = text(request, 'notify_customer', 10);
    try {
      if (notify !== 'yes' && notify !== 'no') throw invalidField('notify_customer', 'must be yes or no');
      await connections.updateSettings(user.brandId, connection.id, {
        orderFilter: text(request, 'order_filter', 10),
        notifyCustomer: notify === 'yes',
      });
    } catch (err) {
      const ctx = await context(request, reply);
      const errors = fieldErrors(err, ctx, SETTINGS_FIELDS);
      // A tampered form only: the page shows why above the shops.
      return view(request, reply, { notice: Object.values(errors).join(' ') }, 400);
    }
    return reply.redirect(`/account/shops?saved=${connection.id}`, 303);
  });

  app.get('/shops/:connectionId/disconnect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await connections.get(user.brandId, idOf(request));
    if (connection.status === 'disconnected') return reply.redirect('/account/shops', 303);
    return sendPage(reply, disconnectPage(await context(request, reply), connection));
  });

  app.post('/shops/:connectionId/disconnect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const done = await connections.disconnect(user.brandId, idOf(request), `disconnected by ${user.email}`);
    return sendPage(reply, disconnectedPage(await context(request, reply), done, done.remote));
  });
}
