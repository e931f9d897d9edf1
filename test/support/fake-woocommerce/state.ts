import type { PostResult } from '../fake-shopify/delivery.ts';

export type WooMode = 'up' | 'down' | 'unauthorized';
export type KeyPermissions = 'read' | 'write' | 'read_write';
export const ORDER_STATUSES = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'trash',
  'checkout-draft',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface ApiKey {
  keyId: number;
  consumerKey: string;
  consumerSecret: string;
  permissions: KeyPermissions;
  description: string;
}

export interface WooAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email?: string;
  phone: string;
}

export interface WooProduct {
  id: number;
  name: string;
  sku: string;
  price: string;
  /** In the store's weight unit, as a string ("" when not set), as WooCommerce stores it. */
  weight: string;
  dimensions: { length: string; width: string; height: string };
}

interface WooLineItem {
  id: number;
  product_id: number;
  variation_id: number;
  quantity: number;
}

interface WooShippingLine {
  id: number;
  method_title: string;
  method_id: string;
  instance_id: string;
  total: string;
  /** Item meta the shipping method stored (the DLV plugin: `dlv_service`), shown as meta_data. */
  meta?: { key: string; value: string }[];
}

/** The stored order: what the REST answer is rendered from (dates as instants). */
export interface WooOrder {
  id: number;
  status: OrderStatus;
  orderKey: string;
  customerId: number;
  customerNote: string;
  billing: WooAddress;
  shipping: WooAddress;
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  lineItems: WooLineItem[];
  shippingLines: WooShippingLine[];
  createdAt: number;
  modifiedAt: number;
  paidAt: number | null;
  completedAt: number | null;
}

interface OrderNote {
  id: number;
  orderId: number;
  note: string;
  customerNote: boolean;
  author: string;
  createdAt: number;
}

export interface TrackingItem {
  tracking_id: string;
  tracking_provider: string;
  custom_tracking_provider: string;
  custom_tracking_link: string;
  tracking_number: string;
  date_shipped: number;
}

export type WebhookStatus = 'active' | 'paused' | 'disabled';

export interface Webhook {
  id: number;
  name: string;
  status: WebhookStatus;
  topic: string;
  deliveryUrl: string;
  secret: string;
  /** Consecutive failed deliveries (WC_Webhook::failure_count). */
  failureCount: number;
  createdAt: number;
  modifiedAt: number;
}

/** One POST the shop made to a webhook's delivery URL (a ping or a delivery). */
export interface WebhookDeliveryLog {
  webhookId: number;
  kind: 'ping' | 'delivery';
  url: string;
  headers: Record<string, string>;
  body: string;
  result: PostResult;
  at: number;
}

/** One request to the shop's REST API and how the fake answered it. */
interface RestCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  status: number;
  /** The consumer key used, when any (the secret is never logged). */
  consumerKey: string | null;
  at: number;
}

export interface WooShop {
  slug: string;
  /** home_url(): http://127.0.0.1:PORT/{slug} */
  url: string;
  timeZone: string;
  weightUnit: 'kg' | 'g' | 'lbs' | 'oz';
  currency: string;
  shipmentTracking: boolean;
  maxWebhookFailures: number;
  mode: WooMode;
  keys: ApiKey[];
  products: WooProduct[];
  orders: WooOrder[];
  notes: OrderNote[];
  trackings: Map<number, TrackingItem[]>;
  webhooks: Webhook[];
  /** Action Scheduler's queue: (webhook, order) pairs waiting for flushWebhooks(). */
  pending: { webhookId: number; orderId: number }[];
  deliveries: WebhookDeliveryLog[];
  calls: RestCall[];
  /** wc-auth approvals waiting for their access_granted click (nonce → request). */
  authNonces: Map<string, URLSearchParams>;
  sequence: number;
}

/** WordPress numbers every post, order item and comment from shared sequences; one counter will do. */
export function nextId(shop: WooShop): number {
  shop.sequence += 1;
  return shop.sequence;
}
