/**
 * The Admin API version every call and webhook subscription uses, sent in the URL. Shopify supports
 * a version for twelve months: bump it (and re-run the connector tests) before this one is retired.
 */
export const SHOPIFY_API_VERSION = '2025-10';

/** The access scopes the app asks for: read orders, fulfil them with our tracking, rate at checkout. */
export const SHOPIFY_SCOPES = 'read_orders,write_merchant_managed_fulfillment_orders,write_shipping';
