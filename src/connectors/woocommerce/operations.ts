import { isShopApiFailure } from '../shop-api-error.ts';
import type { WooOrder } from './order-mapping.ts';
import type { WooKeys, WooRestClient } from './rest-client.ts';

/** The topics a link subscribes to: an order created (paid at once by card) or changed later. */
export const WEBHOOK_TOPICS = ['order.created', 'order.updated'] as const;

export interface WooWebhook {
  id: number;
  status: 'active' | 'paused' | 'disabled';
  topic: string;
  delivery_url: string;
}

/** WooCommerce's weight units and how many grams one of each weighs. */
const GRAMS_PER_UNIT: Record<string, number> = { kg: 1000, g: 1, lbs: 453.59237, oz: 28.349523125 };

const SHIPMENT_TRACKING = '/wc-shipment-tracking/v3/orders';
export const PAGE_SIZE = 100;
/** How far the shop's clock may lag ours when its notes are matched to an event's time. */
const NOTE_CLOCK_SLACK_MS = 60_000;

/** A store and its keys: every call names both. */
export interface WooShopAccess {
  store: string;
  keys: WooKeys;
}

/** The WooCommerce REST calls the bridge makes (orders, notes, webhooks, products, Shipment Tracking). */
export function wooOperations(client: WooRestClient) {
  const operations = {
    /**
     * Creates our webhooks (signed with `secret`, delivered to `deliveryUrl`). One refused undoes
     * those created, so linking again starts clean.
     */
    async createWebhooks(
      shop: WooShopAccess,
      deliveryUrl: string,
      secret: string,
      name: string,
      topics: readonly string[] = WEBHOOK_TOPICS,
    ) {
      const ids: string[] = [];
      try {
        for (const topic of topics) {
          const { body } = await client.post<WooWebhook>(shop.store, shop.keys, '/wc/v3/webhooks', {
            name: `${name} (${topic})`,
            topic,
            delivery_url: deliveryUrl,
            secret,
            status: 'active',
          });
          ids.push(String(body.id));
        }
      } catch (err) {
        await operations.deleteWebhooks(shop, ids);
        throw err;
      }
      return ids;
    },

    /** Best effort (disconnecting must not fail because the shop is gone); returns what failed. */
    async deleteWebhooks(shop: WooShopAccess, ids: readonly string[]): Promise<string[]> {
      const failures: string[] = [];
      for (const id of ids) {
        try {
          await client.delete(shop.store, shop.keys, `/wc/v3/webhooks/${encodeURIComponent(id)}?force=true`);
        } catch (err) {
          if (isShopApiFailure(err, 'request_failed') && err.status === 404) continue; // already gone
          failures.push(`${id}: ${(err as Error).message}`);
          if (isShopApiFailure(err, 'unauthorized') || isShopApiFailure(err, 'retry_later')) break;
        }
      }
      return failures;
    },

    /** The webhook as the shop has it; null when deleted (by the merchant, or never created). */
    async getWebhook(shop: WooShopAccess, id: string): Promise<WooWebhook | null> {
      try {
        return (
          await client.get<WooWebhook>(shop.store, shop.keys, `/wc/v3/webhooks/${encodeURIComponent(id)}`)
        ).body;
      } catch (err) {
        // WooCommerce answers an unknown webhook id with 400 woocommerce_rest_webhook_invalid_id.
        if (isShopApiFailure(err, 'request_failed') && (err.status === 404 || err.status === 400))
          return null;
        throw err;
      }
    },

    async activateWebhook(shop: WooShopAccess, id: string): Promise<void> {
      await client.put(shop.store, shop.keys, `/wc/v3/webhooks/${encodeURIComponent(id)}`, {
        status: 'active',
      });
    },

    async getOrder(shop: WooShopAccess, id: string): Promise<WooOrder> {
      return (await client.get<WooOrder>(shop.store, shop.keys, `/wc/v3/orders/${encodeURIComponent(id)}`))
        .body;
    },

    /** One page of orders modified after `since` (exclusive, UTC), oldest change first. */
    async ordersModifiedAfter(shop: WooShopAccess, since: string, page: number) {
      const query = new URLSearchParams({
        modified_after: since,
        dates_are_gmt: 'true',
        per_page: String(PAGE_SIZE),
        orderby: 'modified',
        order: 'asc',
        page: String(page),
      });
      return client.get<WooOrder[]>(shop.store, shop.keys, `/wc/v3/orders?${query}`);
    },

    async addNote(shop: WooShopAccess, orderId: string, note: string, customerNote: boolean): Promise<void> {
      await client.post(shop.store, shop.keys, `/wc/v3/orders/${encodeURIComponent(orderId)}/notes`, {
        note,
        customer_note: customerNote,
      });
    },

    /**
     * Whether the order has a note with exactly this text written at `since` or later (the shop's
     * clock: a minute's slack), newest first as WooCommerce lists them.
     */
    async hasNoteSince(shop: WooShopAccess, orderId: string, note: string, since: Date): Promise<boolean> {
      const { body } = await client.get<{ note?: unknown; date_created_gmt?: unknown }[]>(
        shop.store,
        shop.keys,
        `/wc/v3/orders/${encodeURIComponent(orderId)}/notes?type=any`,
      );
      const from = since.getTime() - NOTE_CLOCK_SLACK_MS;
      return (Array.isArray(body) ? body : []).some(
        (n) =>
          typeof n.note === 'string' &&
          n.note.trim() === note.trim() &&
          typeof n.date_created_gmt === 'string' &&
          Date.parse(`${n.date_created_gmt}Z`) >= from,
      );
    },

    async setOrderStatus(shop: WooShopAccess, orderId: string, status: string): Promise<void> {
      await client.put(shop.store, shop.keys, `/wc/v3/orders/${encodeURIComponent(orderId)}`, { status });
    },

    /**
     * Our tracking entry in the Shipment Tracking extension, unless one with this number exists.
     * Resolves to false when the extension is not installed (its route answers 404 rest_no_route).
     */
    async addShipmentTracking(
      shop: WooShopAccess,
      orderId: string,
      entry: { provider: string; number: string; link: string; dateShipped: string },
    ): Promise<boolean> {
      const path = `${SHIPMENT_TRACKING}/${encodeURIComponent(orderId)}/shipment-trackings`;
      try {
        const { body } = await client.get<{ tracking_number?: string }[]>(shop.store, shop.keys, path);
        if (Array.isArray(body) && body.some((t) => t.tracking_number === entry.number)) return true;
        await client.post(shop.store, shop.keys, path, {
          custom_tracking_provider: entry.provider,
          // The extension replaces %1$s with the number; our link already holds it.
          custom_tracking_link: entry.link,
          tracking_number: entry.number,
          date_shipped: entry.dateShipped,
        });
        return true;
      } catch (err) {
        if (isShopApiFailure(err, 'request_failed') && err.status === 404 && err.code === 'rest_no_route')
          return false;
        throw err;
      }
    },

    /** Grams per unit of the store's weight unit (Settings › Products). */
    async gramsPerWeightUnit(shop: WooShopAccess): Promise<number> {
      const { body } = await client.get<{ value?: unknown }>(
        shop.store,
        shop.keys,
        '/wc/v3/settings/products/woocommerce_weight_unit',
      );
      const unit = typeof body.value === 'string' ? body.value : 'kg';
      return GRAMS_PER_UNIT[unit] ?? 1000;
    },

    /** A product's weight in the store's unit (a string, '' when not set); null when deleted. */
    async productWeight(shop: WooShopAccess, productId: number, variationId: number): Promise<string | null> {
      const path =
        variationId > 0
          ? `/wc/v3/products/${productId}/variations/${variationId}`
          : `/wc/v3/products/${productId}`;
      try {
        const { body } = await client.get<{ weight?: unknown }>(shop.store, shop.keys, path);
        return typeof body.weight === 'string' ? body.weight : '';
      } catch (err) {
        if (isShopApiFailure(err, 'request_failed') && (err.status === 404 || err.status === 400)) {
          // A variation the store no longer has: its parent's weight, which it inherits anyway.
          if (variationId > 0) return operations.productWeight(shop, productId, 0);
          return null;
        }
        throw err;
      }
    },
  };
  return operations;
}

export type WooOperations = ReturnType<typeof wooOperations>;
