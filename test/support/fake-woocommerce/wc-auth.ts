import { randomBytes } from 'node:crypto';
import { postJson } from '../fake-shopify/delivery.ts';
import type { Answer } from '../shop-http.ts';
import type { ApiKey, KeyPermissions, WooShop } from './state.ts';

/**
 * WooCommerce's application authentication endpoint (class-wc-auth.php), the merchant being logged in
 * as a shop manager: GET /wc-auth/v1/authorize?app_name&scope&user_id&return_url&callback_url shows the
 * grant page; its "Approve" link (/wc-auth/v1/access_granted, with a nonce) creates a key pair, POSTs
 * {key_id, user_id, consumer_key, consumer_secret, key_permissions} as JSON to callback_url — which
 * must answer exactly 200, or the key is deleted and the merchant sees an error — then redirects to
 * return_url with success=1&user_id=…; "Deny" goes to return_url with success=0&user_id=….
 * The callback_url must be https ("The callback_url needs to be over SSL"); `insecureCallbacks` lifts
 * that for loopback tests only.
 */

const PARAMS = ['app_name', 'user_id', 'return_url', 'callback_url', 'scope'] as const;

export class WcAuthError extends Error {}

/** get_formatted_url(): decoded, and https:// prepended when there is no scheme. */
const formatted = (url: string) => {
  const decoded = decodeURIComponent(url);
  return decoded.includes('://') ? decoded : `https://${decoded}`;
};

export function validateAuthRequest(q: URLSearchParams, insecureCallbacks: boolean): Record<string, string> {
  const data: Record<string, string> = {};
  for (const name of PARAMS) {
    const value = q.get(name);
    if (!value) throw new WcAuthError(`Missing parameter ${name}`);
    data[name] = value;
  }
  if (!['read', 'write', 'read_write'].includes(data.scope!))
    throw new WcAuthError(`Invalid scope ${data.scope}`);
  for (const name of ['return_url', 'callback_url']) {
    const url = formatted(data[name]!);
    if (!URL.canParse(url)) throw new WcAuthError(`The ${url} is not a valid URL`);
  }
  if (!insecureCallbacks && !formatted(data.callback_url!).toLowerCase().startsWith('https://'))
    throw new WcAuthError('The callback_url needs to be over SSL');
  return data;
}

export function withResult(returnUrl: string, success: 0 | 1, userId: string): string {
  const url = new URL(formatted(returnUrl));
  url.searchParams.set('success', String(success));
  url.searchParams.set('user_id', userId);
  return url.toString();
}

/** The grant page: what the merchant sees, with the two links a test (or fake.approve) follows. */
export function grantPage(shop: WooShop, data: Record<string, string>): Answer {
  const nonce = randomBytes(5).toString('hex');
  const granted = new URL(`${shop.url}/wc-auth/v1/access_granted`);
  for (const name of PARAMS) granted.searchParams.set(name, data[name]!);
  granted.searchParams.set('wc_auth_nonce', nonce);
  shop.authNonces.set(nonce, granted.searchParams);
  const deny = withResult(data.return_url!, 0, data.user_id!);
  const html = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
    body: `<!DOCTYPE html><html><body><h1>${html(data.app_name!)} would like to connect to your store</h1>
<p>This will give "${html(data.app_name!)}" ${data.scope === 'read' ? 'Read' : data.scope === 'write' ? 'Write' : 'Read/Write'} access.</p>
<a class="button wc-auth-approve" href="${html(granted.toString())}">Approve</a>
<a class="button wc-auth-deny" href="${html(deny)}">Deny</a></body></html>`,
  };
}

/** The access_granted step: key pair, POST to callback_url, then where the merchant is redirected. */
export async function grantAccess(
  shop: WooShop,
  data: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  const key: ApiKey = {
    keyId: shop.keys.reduce((max, k) => Math.max(max, k.keyId), 0) + 1,
    consumerKey: `ck_${randomBytes(20).toString('hex')}`,
    consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
    permissions: data.scope as KeyPermissions,
    description: `${data.app_name!.slice(0, 170)} - API (${new Date().toISOString().slice(0, 19).replace('T', ' ')})`,
  };
  shop.keys.push(key);
  const body = JSON.stringify({
    key_id: key.keyId,
    user_id: data.user_id,
    consumer_key: key.consumerKey,
    consumer_secret: key.consumerSecret,
    key_permissions: key.permissions,
  });
  const result = await postJson(
    formatted(data.callback_url!),
    body,
    { 'content-type': 'application/json;charset=UTF-8' },
    timeoutMs,
  );
  if (result.status !== 200) {
    shop.keys.splice(shop.keys.indexOf(key), 1);
    throw new WcAuthError(
      result.status === 0
        ? 'cURL error 7: Failed to connect'
        : 'An error occurred in the request and at the time were unable to send the consumer data',
    );
  }
  return withResult(data.return_url!, 1, data.user_id!);
}

/** wp_die( 'Error: …', 'Access denied', 401 ). */
export function accessDenied(message: string): Answer {
  return {
    status: 401,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
    body: `<!DOCTYPE html><html><head><title>Access denied</title></head><body><p>Error: ${message}.</p></body></html>`,
  };
}
