import { randomBytes } from 'node:crypto';
import type { Stores } from '../../db/stores.ts';
import { canLinkShops } from '../../domain/accounts/user.ts';
import { prefixedId } from '../../domain/ids.ts';
import { AppError, invalidField } from '../../errors.ts';
import type { DestinationGuard } from '../../infra/http/url-guard.ts';
import type { Connection } from '../connection.ts';
import type { CredentialCipher } from '../credentials.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import type { WooOperations } from './operations.ts';
import { checkedStoreUrl } from './store-url.ts';
import { encodeWooCredentials } from './woo-credentials.ts';
import { gmt } from './woo-dates.ts';
import { wooUrls } from './woo-urls.ts';

/** A key provisioning left unfinished this long must start again. */
const CONNECT_TTL_MS = 15 * 60 * 1000;

/** WooCommerce's keys: `ck_`/`cs_` and 40 hexadecimal characters (wc_rand_hash()). */
const CONSUMER_KEY = /^ck_[0-9a-f]{40}$/;
const CONSUMER_SECRET = /^cs_[0-9a-f]{40}$/;

function describeWooFailure(err: unknown): never {
  if (isShopApiFailure(err, 'unauthorized'))
    throw new AppError(
      'invalid_request',
      `WooCommerce refused the key: ${err.message}. It needs Read/Write permissions.`,
    );
  if (isShopApiFailure(err, 'retry_later'))
    throw new AppError('unavailable', `The shop could not be reached; try again later (${err.message}).`);
  if (isShopApiFailure(err, 'request_failed'))
    throw new AppError('invalid_request', `WooCommerce refused: ${err.message}`);
  throw err;
}

/**
 * Linking a WooCommerce store to a brand, with a key pair the store gave us: by its one-click key
 * provisioning (/wc-auth/v1/authorize, started by a signed-in person of the brand), or pasted by
 * the brand or the operator. Either way the keys are checked by creating our webhooks (which needs
 * read/write) before the link is stored with everything secret encrypted; a failure stores nothing
 * and leaves nothing on the shop.
 */
export function wooLinking(deps: {
  stores: Pick<Stores, 'connections' | 'brands' | 'users'>;
  operations: WooOperations;
  cipher: CredentialCipher;
  guard: DestinationGuard;
  clock: () => Date;
  baseUrl: string;
  appName: string;
  onChanged: () => void;
}) {
  const { stores, clock } = deps;
  const urls = wooUrls(deps.baseUrl);

  async function refuseLinked(store: string): Promise<void> {
    const existing = await stores.connections.findByShop('woocommerce', store);
    // Said without naming the link: the shop may be another brand's.
    if (existing && existing.status !== 'disconnected')
      throw new AppError('invalid_request', `The shop ${store} is already linked; disconnect it first.`);
  }

  /** The brand, and the store's address checked (https, public, not linked already). */
  async function checkStore(brandId: string, url: unknown, field = 'url') {
    const brand = await stores.brands.findById(brandId);
    if (!brand) throw new AppError('not_found', `No brand with id "${brandId}".`);
    const store = await checkedStoreUrl(url, deps.guard, field);
    await refuseLinked(store);
    return { brand, store };
  }

  async function link(input: {
    brandId: string;
    url: unknown;
    consumerKey: unknown;
    consumerSecret: unknown;
    connectionId?: string;
  }): Promise<Connection> {
    const key = typeof input.consumerKey === 'string' ? input.consumerKey.trim() : '';
    const secret = typeof input.consumerSecret === 'string' ? input.consumerSecret.trim() : '';
    if (!CONSUMER_KEY.test(key))
      throw invalidField('consumer_key', 'must be a WooCommerce consumer key (ck_…)');
    if (!CONSUMER_SECRET.test(secret))
      throw invalidField('consumer_secret', 'must be a WooCommerce consumer secret (cs_…)');
    const { brand, store } = await checkStore(input.brandId, input.url);
    const id = input.connectionId ?? prefixedId('con');
    const shop = { store, keys: { consumerKey: key, consumerSecret: secret } };
    const webhookSecret = randomBytes(32).toString('base64url');
    const webhooks = await deps.operations
      .createWebhooks(shop, urls.webhooks(id), webhookSecret, deps.appName)
      .catch(describeWooFailure);
    try {
      const created = await stores.connections.insert({
        id,
        brandId: brand.id,
        platform: 'woocommerce',
        shop: store,
        credentials: await deps.cipher.encrypt(
          encodeWooCredentials({ consumerKey: key, consumerSecret: secret, webhookSecret }),
          id,
        ),
        scopes: 'read_write',
        remoteIds: { webhookSubscriptions: webhooks },
        at: clock(),
        // Orders from now on; older ones with `dlv connectors resync ID --since …`.
        syncCursor: gmt(clock()),
      });
      deps.onChanged();
      return created;
    } catch (err) {
      await deps.operations.deleteWebhooks(shop, webhooks);
      throw err;
    }
  }

  return {
    urls,

    /** Pasted keys (the account area's form, `dlv connectors woocommerce link`). */
    link: (input: { brandId: string; url: unknown; consumerKey: unknown; consumerSecret: unknown }) =>
      link(input),

    checkStore,

    /**
     * The first step of a one-click connection by a signed-in person (a POST of the Shops page's
     * form, never a link another site could make them follow): the link's id is chosen now (it is
     * the `user_id` WooCommerce sends back with the keys) and a single-use state, bound to that
     * person and brand, goes in the callback's path. The app name shown on the shop's approval page
     * names the brand, so a merchant is never asked to approve an unnamed link.
     */
    async beginConnect(input: { brandId: string; userId: string; shopUrl: unknown }) {
      const { brand, store } = await checkStore(input.brandId, input.shopUrl);
      const state = randomBytes(32).toString('base64url');
      const connectionId = prefixedId('con');
      await stores.connections.insertInstall({
        state,
        platform: 'woocommerce',
        shop: store,
        brandId: brand.id,
        userId: input.userId,
        expiresAt: new Date(clock().getTime() + CONNECT_TTL_MS),
        connectionId,
      });
      const query = new URLSearchParams({
        app_name: `${deps.appName} — ${brand.name}`.slice(0, 100),
        scope: 'read_write',
        user_id: connectionId,
        return_url: urls.return,
        callback_url: urls.callback(state),
      });
      return { connectionId, store, authorizeUrl: `${store}/wc-auth/v1/authorize?${query}` };
    },

    /**
     * The shop POSTs the keys it made (JSON: key_id, user_id, consumer_key, consumer_secret,
     * key_permissions). Anything but a 200 makes WooCommerce delete the key, so every refusal here
     * leaves nothing on either side.
     */
    async completeConnect(state: string, body: unknown): Promise<Connection> {
      const install = /^[A-Za-z0-9_-]{43}$/.test(state)
        ? await stores.connections.takeInstall(state, clock())
        : null;
      if (install?.platform !== 'woocommerce' || !install.connectionId)
        throw new AppError('unauthorized', 'This connection has expired or was already used; connect again.');
      // The state is the person's who started it: removed or demoted since, nothing is linked.
      const starter = install.userId ? await stores.users.findById(install.userId) : null;
      if (!canLinkShops(starter, install.brandId))
        throw new AppError(
          'unauthorized',
          'The person who started this connection may no longer link shops for this brand.',
        );
      const b = (body ?? {}) as Record<string, unknown>;
      // WooCommerce sends user_id back as a string.
      if (String(b.user_id ?? '') !== install.connectionId)
        throw new AppError('unauthorized', 'user_id: does not match this connection.');
      if (b.key_permissions !== 'read_write') throw invalidField('key_permissions', 'must be read_write');
      return link({
        brandId: install.brandId,
        url: install.shop,
        consumerKey: b.consumer_key,
        consumerSecret: b.consumer_secret,
        connectionId: install.connectionId,
      });
    },
  };
}
