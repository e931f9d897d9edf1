import type { FakeShopify } from './fake-shopify.ts';

/**
 * What an app does against the fake, reduced to its simplest form: the fake's own tests use it to
 * install and call the Admin API without the connector. (The connector's tests go through the
 * connector's routes instead.)
 */

export const TEST_API_KEY = 'test-client-id';
export const TEST_API_SECRET = 'test-client-secret-0123456789abcdef';
const CONNECTOR_SCOPES = 'read_orders,write_merchant_managed_fulfillment_orders,write_shipping';

function adminOrigin(fake: FakeShopify, shop: string): string {
  return fake.adminOriginTemplate.replace('{shop}', shop);
}

export function authorizeUrl(
  fake: FakeShopify,
  shop: string,
  params: Partial<Record<'client_id' | 'scope' | 'redirect_uri' | 'state', string>> = {},
): string {
  const url = new URL(`${adminOrigin(fake, shop)}/admin/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: TEST_API_KEY,
    scope: CONNECTOR_SCOPES,
    redirect_uri: 'http://127.0.0.1:9/connectors/shopify/callback',
    state: 'nonce-0001',
    ...params,
  }).toString();
  return url.toString();
}

export async function exchangeCode(
  fake: FakeShopify,
  shop: string,
  body: Record<string, string>,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${adminOrigin(fake, shop)}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** Approves the install and exchanges the code: an offline access token. */
export async function installApp(fake: FakeShopify, shop: string): Promise<string> {
  const callback = new URL(fake.approve(authorizeUrl(fake, shop)));
  const { status, json } = await exchangeCode(fake, shop, {
    client_id: TEST_API_KEY,
    client_secret: TEST_API_SECRET,
    code: callback.searchParams.get('code')!,
  });
  if (status !== 200) throw new Error(`token exchange failed: ${status} ${JSON.stringify(json)}`);
  return json.access_token;
}

export async function adminGraphql(
  fake: FakeShopify,
  shop: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  version = '2025-10',
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const response = await fetch(`${adminOrigin(fake, shop)}/admin/api/${version}/graphql.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-shopify-access-token': token } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (503 page): kept in text
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const MUTATIONS = {
  subscribe: `mutation Subscribe($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) {
    webhookSubscription { id topic }
    userErrors { field message }
  }
}`,
  carrierService: `mutation Carrier($input: DeliveryCarrierServiceCreateInput!) {
  carrierServiceCreate(input: $input) {
    carrierService { id name callbackUrl active }
    userErrors { field message }
  }
}`,
  fulfill: `mutation Fulfill($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status }
    userErrors { field message }
  }
}`,
  event: `mutation Event($event: FulfillmentEventInput!) {
  fulfillmentEventCreate(fulfillmentEvent: $event) {
    fulfillmentEvent { id status }
    userErrors { field message }
  }
}`,
  order: `query Order($id: ID!) {
  order(id: $id) {
    fulfillmentOrders(first: 10) { nodes { id status } }
    fulfillments(first: 20) { id status trackingInfo { company number url } }
  }
}`,
};
