import { randomBytes } from 'node:crypto';
import { SHOPIFY_SYNC_ORDER_SPEC } from '../../../src/connectors/shopify/jobs/names.ts';
import { merchantRate } from '../fake-shopify/payloads.ts';
import { signBody } from '../shopify.ts';
import { installShop, paidOrder, startLiveShopify } from '../shopify-live.ts';
import type { ConformanceAdapter, ShopUnderTest } from './adapter.ts';

type Order = ReturnType<typeof paidOrder>;

/** Shopify through its fake: webhooks signed with the app secret, fulfillments and their events heard. */
export const shopifyAdapter: ConformanceAdapter = {
  platform: 'shopify',
  async start(): Promise<ShopUnderTest<Order>> {
    const live = await startLiveShopify();
    const { brand, shop, connectionId } = await installShop(live);
    const fulfillments = (order: Order) =>
      live.fake.shop(shop).fulfillments.filter((f) => f.orderGid === order.gid);
    return {
      t: live.t,
      brandId: brand.brandId,
      connectionId,
      newOrder: ({ ours = true } = {}) =>
        ours ? paidOrder(live, shop) : live.fake.newOrder(shop, { shippingLine: merchantRate('Standard') }),
      externalId: (order) => order.gid,
      async send(order, signature = 'valid') {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/paid',
          'x-shopify-shop-domain': shop,
          'x-shopify-api-version': '2025-10',
          // Each delivery its own: the same order arriving again is the connector's to recognise.
          'x-shopify-webhook-id': randomBytes(8).toString('hex'),
        };
        if (signature !== 'missing')
          headers['x-shopify-hmac-sha256'] =
            signature === 'valid' ? signBody(order.payload) : signBody(order.payload, 'forged');
        const res = await fetch(`${live.base}/connectors/shopify/webhooks`, {
          method: 'POST',
          headers,
          body: order.payload,
        });
        await res.text();
        return res.status;
      },
      heard(order) {
        const made = fulfillments(order);
        const events = live.fake
          .shop(shop)
          .fulfillmentEvents.filter((e) => made.some((f) => f.id === e.fulfillmentId));
        return [
          ...made.map((f) => `fulfillment ${f.trackingInfo[0]?.number ? 'tracked' : 'untracked'}`),
          ...events.map((e) => e.status),
        ];
      },
      walkHeard: ['fulfillment tracked', 'CARRIER_PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED'],
      setShop(mode) {
        if (mode === 'revoked') live.fake.shop(shop).accessTokens.length = 0;
        else live.fake.setMode(mode);
      },
      syncJob: SHOPIFY_SYNC_ORDER_SPEC.name,
      close: () => live.close(),
    };
  },
};
