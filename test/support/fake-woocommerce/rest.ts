import { type Answer, basicCredentials, type Call } from '../shop-http.ts';
import { FORBIDDEN, noRoute, type RestContext, type Route, wpError, wpJson } from './rest-basics.ts';
import { ORDER_ROUTES } from './rest-orders.ts';
import { WEBHOOK_ROUTES } from './rest-webhooks.ts';
import { TRACKING_ROUTES } from './shipment-tracking.ts';
import type { ApiKey, WooShop } from './state.ts';
import type { DeliveryOptions } from './webhooks.ts';

/**
 * One request under {shop}/wp-json/, in WordPress's order: the authentication error first (a known
 * consumer key with the wrong secret: 401 woocommerce_rest_authentication_error and a WWW-Authenticate
 * header), then the route (404 rest_no_route), the key's read/write permission, argument validation
 * (400 rest_invalid_param), and the permission callback — which an unknown or revoked key, being
 * nobody, fails with 401 woocommerce_rest_cannot_view/create/edit/delete.
 *
 * Credentials come as HTTP Basic (key as user, secret as password) or as consumer_key/consumer_secret
 * query parameters. WooCommerce only reads Basic over https (OAuth 1.0a otherwise); the fake listens on
 * plain loopback http and stands for an https shop, so it reads Basic.
 */

const ROUTES: Route[] = [...ORDER_ROUTES, ...WEBHOOK_ROUTES, ...TRACKING_ROUTES];
const REALM =
  'Basic realm="WooCommerce API. Use a consumer key in the username field and a consumer secret in the password field."';

function credentials(call: Call): { key: string; secret: string } | null {
  const q = call.url.searchParams;
  if (q.get('consumer_key') && q.get('consumer_secret'))
    return { key: q.get('consumer_key')!, secret: q.get('consumer_secret')! };
  const basic = basicCredentials(call.headers.authorization);
  return basic?.user && basic.password ? { key: basic.user, secret: basic.password } : null;
}

function parseBody(call: Call): { value: Record<string, any> } | { error: Answer } {
  if (!call.body) return { value: {} };
  if ((call.headers['content-type'] ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(call.body);
      return { value: parsed && typeof parsed === 'object' ? parsed : {} };
    } catch {
      return {
        error: wpError(400, 'rest_invalid_json', 'Invalid JSON body passed.', {
          json_error_code: 4,
          json_error_message: 'Syntax error',
        }),
      };
    }
  }
  return { value: Object.fromEntries(new URLSearchParams(call.body)) };
}

function keyAllows(key: ApiKey, method: string): Answer | undefined {
  const reads = ['GET', 'HEAD'].includes(method);
  if (reads && key.permissions === 'write')
    return wpError(
      401,
      'woocommerce_rest_authentication_error',
      'The API key provided does not have read permissions.',
    );
  if (!reads && key.permissions === 'read')
    return wpError(
      401,
      'woocommerce_rest_authentication_error',
      'The API key provided does not have write permissions.',
    );
  return undefined;
}

export async function answerRest(
  shop: WooShop,
  call: Call,
  route: string,
  delivery: DeliveryOptions,
): Promise<Answer> {
  const given = credentials(call);
  // Revoked keys (mode 'unauthorized') are rows that no longer exist: the caller is anonymous.
  const known =
    shop.mode === 'unauthorized' ? undefined : shop.keys.find((k) => k.consumerKey === given?.key);
  if (known && known.consumerSecret !== given!.secret) {
    const answer = wpError(401, 'woocommerce_rest_authentication_error', 'Consumer secret is invalid.');
    return { ...answer, headers: { ...answer.headers, 'WWW-Authenticate': REALM } };
  }
  const key = known ?? null;
  const method = call.method.toUpperCase();
  for (const candidate of ROUTES) {
    const match = candidate.path.exec(route);
    if (!match || !candidate.methods.includes(method)) continue;
    if (candidate.extension === 'shipment-tracking' && !shop.shipmentTracking) break;
    if (key) {
      const refused = keyAllows(key, method);
      if (refused) return refused;
    }
    const parsed = parseBody(call);
    if ('error' in parsed) return parsed.error;
    const query = call.url.searchParams;
    const ctx: RestContext = { shop, method, match, query, body: parsed.value, key, delivery };
    const invalid = candidate.validate?.(ctx);
    if (invalid) return invalid;
    if (!key) {
      const [code, message] = FORBIDDEN[candidate.access];
      return wpError(401, code, message);
    }
    return candidate.handle(ctx);
  }
  return route === '/wc/v3' || route === '/' ? wpJson(200, { namespace: 'wc/v3', routes: {} }) : noRoute();
}
