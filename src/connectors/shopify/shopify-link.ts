import { randomBytes } from 'node:crypto';
import type { ShopifyAppConfig } from '../../config.ts';
import type { Stores } from '../../db/stores.ts';
import { canLinkShops } from '../../domain/accounts/user.ts';
import { prefixedId } from '../../domain/ids.ts';
import { AppError, type ErrorCode } from '../../errors.ts';
import type { Connection } from '../connection.ts';
import type { CredentialCipher } from '../credentials.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import type { ShopifyAdminClient } from './admin-client.ts';
import { SHOPIFY_SCOPES } from './api-version.ts';
import type { ShopifyOperations } from './operations.ts';
import { adminOrigin, isValidQueryHmac, parseShopDomain } from './shop-domain.ts';

/** An install left unfinished this long must start again. */
export const INSTALL_TTL_MS = 10 * 60 * 1000;
/** Shopify's callback `timestamp` older than this is refused (a replayed redirect). */
const CALLBACK_MAX_AGE_S = 24 * 3600;

/**
 * Why an install or a link was refused, for the page a merchant's browser lands on (the message
 * is English, for the CLI and the logs; the page speaks the person's language from this).
 */
export type InstallRefusal =
  | 'unsigned'
  | 'expired'
  | 'other_browser'
  | 'not_allowed'
  | 'incomplete'
  | 'already_linked'
  | 'token_refused'
  | 'shopify_unreachable'
  | 'shopify_refused';

/** An AppError (status and message as ever) that says which refusal it is. */
export class InstallRefused extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly refusal: InstallRefusal,
  ) {
    super(code, message);
  }
}

/** Where the connector's routes live, from the service's public address. */
function shopifyUrls(baseUrl: string) {
  const base = `${baseUrl.replace(/\/+$/, '')}/connectors/shopify`;
  return {
    install: `${base}/install`,
    callback: `${base}/callback`,
    webhooks: `${base}/webhooks`,
    rates: `${base}/rates`,
  };
}

/**
 * Linking a shop to a brand: the OAuth authorization-code flow (non-embedded app, offline token)
 * started by a signed-in person of the brand, or the operator's link with a token they were given.
 * Either way the same registrations are made on the shop (webhooks, carrier service) before the
 * link is stored with its token encrypted; a failure stores nothing.
 */
export function shopifyLinking(deps: {
  app: ShopifyAppConfig;
  stores: Pick<Stores, 'connections' | 'brands' | 'connectorSync' | 'users'>;
  client: ShopifyAdminClient;
  operations: ShopifyOperations;
  cipher: CredentialCipher;
  clock: () => Date;
  baseUrl: string;
  onChanged: () => void;
}) {
  const { app, stores, clock } = deps;
  const urls = shopifyUrls(deps.baseUrl);

  function describeShopifyFailure(err: unknown): never {
    if (isShopApiFailure(err, 'unauthorized'))
      throw new InstallRefused(
        'unauthorized',
        'Shopify refused the access token for this shop.',
        'token_refused',
      );
    if (isShopApiFailure(err, 'retry_later'))
      throw new InstallRefused(
        'unavailable',
        `Shopify could not be reached; try again later (${err.message}).`,
        'shopify_unreachable',
      );
    if (isShopApiFailure(err, 'request_failed'))
      throw new InstallRefused('invalid_request', `Shopify refused: ${err.message}`, 'shopify_refused');
    throw err;
  }

  async function link(input: {
    brandId: string;
    shop: string;
    token: string;
    scopes: string;
  }): Promise<Connection> {
    const brand = await stores.brands.findById(input.brandId);
    if (!brand) throw new AppError('not_found', `No brand with id "${input.brandId}".`);
    const existing = await stores.connections.findByShop('shopify', input.shop);
    // Said without naming the link: the shop may be another brand's.
    if (existing && existing.status !== 'disconnected')
      throw new InstallRefused(
        'invalid_request',
        `The shop ${input.shop} is already linked; disconnect it first.`,
        'already_linked',
      );
    const { remoteIds, warnings } = await deps.operations
      .register(input.shop, input.token, {
        webhooks: urls.webhooks,
        rates: urls.rates,
        carrierName: app.carrierName,
      })
      .catch(describeShopifyFailure);
    const id = prefixedId('con');
    const created = await stores.connections.insert({
      id,
      brandId: brand.id,
      platform: 'shopify',
      shop: input.shop,
      credentials: await deps.cipher.encrypt(input.token, id),
      scopes: input.scopes,
      remoteIds,
      at: clock(),
    });
    for (const message of warnings) {
      await stores.connectorSync.recordProblem({
        connectionId: created.id,
        brandId: created.brandId,
        kind: 'sync_failed',
        externalId: '',
        externalName: null,
        message,
        details: { code: 'no_carrier_service' },
        at: clock(),
      });
    }
    deps.onChanged();
    return created;
  }

  return {
    urls,

    /** The operator's link (`dlv connectors shopify link`): a token from the shop's custom app. */
    link: (input: { brandId: string; shop: string; token: string }) =>
      link({
        brandId: input.brandId,
        shop: parseShopDomain(input.shop),
        token: input.token.trim(),
        scopes: SHOPIFY_SCOPES,
      }),

    /**
     * The first step of an install by a signed-in person: a single-use `state` bound to them (and,
     * by the caller, to their browser with a cookie), and Shopify's authorization URL.
     */
    async beginInstall(input: { brandId: string; userId: string; shop: unknown }) {
      const shop = parseShopDomain(input.shop);
      const state = randomBytes(32).toString('base64url');
      await stores.connections.insertInstall({
        state,
        platform: 'shopify',
        shop,
        brandId: input.brandId,
        userId: input.userId,
        expiresAt: new Date(clock().getTime() + INSTALL_TTL_MS),
      });
      const query = new URLSearchParams({
        client_id: app.apiKey,
        scope: SHOPIFY_SCOPES,
        redirect_uri: urls.callback,
        state,
      });
      return {
        state,
        authorizeUrl: `${adminOrigin(app.adminOriginTemplate, shop)}/admin/oauth/authorize?${query}`,
      };
    },

    /**
     * Shopify's redirect back: the `hmac` of the query, the shop's domain, the `state` (the one this
     * browser's cookie holds, single use, not expired, for this shop), then the code exchange and
     * the link. Every refusal is `unauthorized` or `invalid_request`, and stores nothing.
     */
    async completeInstall(query: Record<string, unknown>, browserState: string | null): Promise<Connection> {
      if (!isValidQueryHmac(query, app.apiSecret))
        throw new InstallRefused(
          'unauthorized',
          'The Shopify callback is not signed by Shopify (hmac).',
          'unsigned',
        );
      const shop = parseShopDomain(query.shop);
      const timestamp = Number(query.timestamp);
      if (!Number.isFinite(timestamp) || Math.abs(clock().getTime() / 1000 - timestamp) > CALLBACK_MAX_AGE_S)
        throw new InstallRefused(
          'unauthorized',
          'The Shopify callback is too old; install again.',
          'expired',
        );
      const state = typeof query.state === 'string' ? query.state : '';
      if (browserState === null || state !== browserState)
        throw new InstallRefused(
          'unauthorized',
          'This install was not started from this browser; install again from the account area.',
          'other_browser',
        );
      const install = await stores.connections.takeInstall(state, clock());
      if (!install || install.shop !== shop || install.platform !== 'shopify')
        throw new InstallRefused(
          'unauthorized',
          'This install has expired or was already used; install again.',
          'expired',
        );
      // The state is the person's who started it: removed or demoted since, the install links nothing.
      const starter = install.userId ? await stores.users.findById(install.userId) : null;
      if (!canLinkShops(starter, install.brandId))
        throw new InstallRefused(
          'unauthorized',
          'The person who started this install may no longer link shops for this brand.',
          'not_allowed',
        );
      if (typeof query.code !== 'string' || query.code === '')
        throw new InstallRefused('invalid_request', 'code: is required', 'incomplete');
      const { accessToken, scope } = await deps.client
        .exchangeCode(shop, query.code)
        .catch(describeShopifyFailure);
      return link({ brandId: install.brandId, shop, token: accessToken, scopes: scope });
    },
  };
}
