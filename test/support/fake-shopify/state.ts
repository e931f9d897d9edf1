import { LeakyBucket, type ThrottleOptions } from './throttle.ts';

interface WebhookSubscription {
  id: string;
  /** The GraphQL enum, e.g. ORDERS_PAID. */
  topic: string;
  /** Where events go (2025-10's `uri`). */
  uri: string;
  /** The same address, as the deprecated `callbackUrl` field of the object reads it. */
  callbackUrl: string;
  /** Which input field the app gave the address in. */
  addressField: 'uri' | 'callbackUrl';
  format: string;
  createdAt: string;
}

interface CarrierService {
  id: string;
  name: string;
  callbackUrl: string;
  active: boolean;
  supportsServiceDiscovery: boolean;
}

interface FulfillmentOrderLine {
  id: string;
  lineItemGid: string;
  totalQuantity: number;
  remainingQuantity: number;
}

type FulfillmentOrderStatus =
  | 'OPEN'
  | 'IN_PROGRESS'
  | 'CLOSED'
  | 'CANCELLED'
  | 'INCOMPLETE'
  | 'ON_HOLD'
  | 'SCHEDULED';

export interface FulfillmentOrder {
  id: string;
  orderGid: string;
  status: FulfillmentOrderStatus;
  lineItems: FulfillmentOrderLine[];
}

export interface FakeOrder {
  gid: string;
  /** The numeric id as a string (it exceeds 2^53). */
  id: string;
  name: string;
  fulfillmentOrders: FulfillmentOrder[];
  /** The payload document with rawInt() markers: re-rendered for orders/cancelled. */
  document: Record<string, any>;
}

interface Fulfillment {
  id: string;
  orderGid: string;
  name: string;
  status: 'SUCCESS' | 'CANCELLED';
  fulfillmentOrderIds: string[];
  trackingInfo: { company: string | null; number: string | null; url: string | null }[];
  notifyCustomer: boolean;
  message: string | null;
  createdAt: string;
}

interface FulfillmentEvent {
  id: string;
  fulfillmentId: string;
  status: string;
  happenedAt: string;
  estimatedDeliveryAt: string | null;
  message: string | null;
}

/** One request to the Admin GraphQL endpoint, as the connector sent it, and how the fake answered. */
export interface GraphqlCall {
  operation: string | null;
  variables: Record<string, unknown>;
  /** 'ok' (data, userErrors included), 'errors' (top-level GraphQL errors), or the HTTP outcome. */
  outcome: 'ok' | 'errors' | 'throttled' | 'unauthorized' | 'down' | 'rate-limited' | 'bad-request';
  at: number;
}

interface AuthorizeRequest {
  clientId: string | null;
  scope: string | null;
  redirectUri: string | null;
  state: string | null;
  grantOptions: string[];
}

export interface ShopState {
  domain: string;
  /** Shop ids are small (below 2^53) in Shopify's samples and in real life. */
  shopId: number;
  accessTokens: string[];
  scopes: string | null;
  authorizeRequests: AuthorizeRequest[];
  webhookSubscriptions: WebhookSubscription[];
  carrierServices: CarrierService[];
  orders: FakeOrder[];
  fulfillments: Fulfillment[];
  fulfillmentEvents: FulfillmentEvent[];
  calls: GraphqlCall[];
  bucket: LeakyBucket;
  orderCount: number;
}

export function newShopState(domain: string, shopId: number, throttle: ThrottleOptions): ShopState {
  return {
    domain,
    shopId,
    accessTokens: [],
    scopes: null,
    authorizeRequests: [],
    webhookSubscriptions: [],
    carrierServices: [],
    orders: [],
    fulfillments: [],
    fulfillmentEvents: [],
    calls: [],
    bucket: new LeakyBucket(throttle),
    orderCount: 0,
  };
}

export function findFulfillmentOrder(shop: ShopState, id: string): FulfillmentOrder | undefined {
  for (const order of shop.orders) {
    const found = order.fulfillmentOrders.find((fo) => fo.id === id);
    if (found) return found;
  }
  return undefined;
}
