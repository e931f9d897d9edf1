import { randomBytes } from 'node:crypto';
import { queryHmac } from './signing.ts';
import type { ShopState } from './state.ts';

/**
 * Shopify's authorization-code grant (https://shopify.dev/docs/apps/build/authentication-authorization/
 * access-tokens/authorization-code-grant): the merchant approves on /admin/oauth/authorize and is
 * redirected to the app's redirect_uri with a signed query; the app exchanges the one-time code
 * (valid a short while) for an offline access token on /admin/oauth/access_token.
 */

interface Grant {
  shop: string;
  scope: string;
  expiresAt: number;
}

const CODE_LIFETIME_MS = 10 * 60_000;

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, string>,
  ) {
    super(body.error_description ?? body.error);
  }
}

export class OAuth {
  private readonly grants = new Map<string, Grant>();

  constructor(
    private readonly apiKey: string,
    private readonly apiSecret: string,
    private readonly shops: (domain: string) => ShopState | undefined,
    private readonly redirectUrls: string[] | undefined,
  ) {}

  /** The URL the merchant's approval of `authorizeUrl` redirects to (code, hmac, host, shop, state, timestamp). */
  approve(authorizeUrl: string): string {
    const url = new URL(authorizeUrl);
    const domain = /\/([^/]+\.myshopify\.com)\/admin\/oauth\/authorize$/.exec(url.pathname)?.[1];
    const shop = domain ? this.shops(domain) : undefined;
    if (!shop)
      throw new OAuthError(404, { error: 'shop_not_found', error_description: `no shop at ${url.pathname}` });
    const q = url.searchParams;
    shop.authorizeRequests.push({
      clientId: q.get('client_id'),
      scope: q.get('scope'),
      redirectUri: q.get('redirect_uri'),
      state: q.get('state'),
      grantOptions: q.getAll('grant_options[]'),
    });
    if (q.get('client_id') !== this.apiKey) {
      throw new OAuthError(400, { error: 'invalid_request', error_description: 'Invalid client_id' });
    }
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri || (this.redirectUrls && !this.redirectUrls.includes(redirectUri))) {
      throw new OAuthError(400, {
        error: 'invalid_request',
        error_description: 'The redirect_uri is missing or not whitelisted',
      });
    }
    const code = randomBytes(16).toString('hex');
    this.grants.set(code, {
      shop: shop.domain,
      scope: q.get('scope') ?? '',
      expiresAt: Date.now() + CODE_LIFETIME_MS,
    });
    const storeHandle = shop.domain.replace('.myshopify.com', '');
    const params: Record<string, string> = {
      code,
      // Base64 of the admin's host, without padding, as Shopify sends it.
      host: Buffer.from(`admin.shopify.com/store/${storeHandle}`).toString('base64').replace(/=+$/, ''),
      shop: shop.domain,
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    if (q.has('state')) params.state = q.get('state')!;
    const callback = new URL(redirectUri);
    const signed = { ...params, hmac: queryHmac(this.apiSecret, params) };
    for (const [key, value] of Object.entries(signed).sort(([a], [b]) => a.localeCompare(b))) {
      callback.searchParams.set(key, value);
    }
    return callback.toString();
  }

  /** POST /admin/oauth/access_token: the one-time code → an offline token for `shop`. */
  exchange(shop: ShopState, body: Record<string, unknown>): { access_token: string; scope: string } {
    if (body.client_id !== this.apiKey || body.client_secret !== this.apiSecret) {
      throw new OAuthError(400, {
        error: 'invalid_client',
        error_description:
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
      });
    }
    const code = typeof body.code === 'string' ? body.code : '';
    const grant = this.grants.get(code);
    this.grants.delete(code); // single use, even when the exchange fails below
    if (!grant || grant.shop !== shop.domain || grant.expiresAt < Date.now()) {
      throw new OAuthError(400, {
        error: 'invalid_request',
        error_description: 'The authorization code was not found or was already used',
      });
    }
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    shop.accessTokens.push(token);
    shop.scopes = grant.scope;
    return { access_token: token, scope: grant.scope };
  }
}
