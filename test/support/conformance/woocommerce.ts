import { createHmac } from 'node:crypto';
import { WOOCOMMERCE_SYNC_ORDER_SPEC } from '../../../src/connectors/woocommerce/jobs/names.ts';
import { OUR_SHIPPING, startWooBridge } from '../woocommerce.ts';
import type { ConformanceAdapter, ShopUnderTest } from './adapter.ts';

type Order = { id: number };

/** The note WooCommerce gets for each status (src/connectors/woocommerce/status-sync.ts), by its first words. */
const NOTES: [string, string][] = [
  ['Votre colis a été pris en charge', 'picked_up'],
  ['Colis en transit', 'in_transit'],
  ['Votre colis est en cours de livraison', 'out_for_delivery'],
  ['Votre colis a été livré', 'delivered'],
];

/** WooCommerce through its fake: order webhooks signed with the webhook's secret, order notes heard. */
export const wooCommerceAdapter: ConformanceAdapter = {
  platform: 'woocommerce',
  async start(): Promise<ShopUnderTest<Order>> {
    const w = await startWooBridge();
    const brand = await w.brand();
    const slug = 'conformance-shop';
    const connection = await w.linkShop(brand.brandId, slug);
    const shop = w.fake.shop(slug);
    return {
      t: w.t,
      brandId: brand.brandId,
      connectionId: connection.id,
      newOrder({ ours = true } = {}) {
        const order = w.fake.createOrder(slug, ours ? { shippingLine: OUR_SHIPPING() } : {});
        // The fake's own delivery is dropped: the suite sends the webhook itself.
        shop.pending = [];
        return { id: order.id };
      },
      externalId: (order) => String(order.id),
      async send(order, signature = 'valid') {
        const hook = shop.webhooks.find((h) => h.topic === 'order.created')!;
        const body = w.fake.orderJson(slug, order.id);
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'x-wc-webhook-topic': 'order.created',
        };
        if (signature !== 'missing')
          headers['x-wc-webhook-signature'] = createHmac(
            'sha256',
            signature === 'valid' ? hook.secret : 'forged',
          )
            .update(body)
            .digest('base64');
        const res = await fetch(`${w.base}/connectors/woocommerce/webhooks/${connection.id}`, {
          method: 'POST',
          headers,
          body,
        });
        await res.text();
        return res.status;
      },
      heard: (order) =>
        shop.notes
          .filter((n) => n.orderId === order.id)
          .map((n) => NOTES.find(([start]) => n.note.startsWith(start))?.[1] ?? 'tracking note'),
      walkHeard: ['tracking note', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered'],
      setShop: (mode) => w.fake.setMode(slug, mode === 'revoked' ? 'unauthorized' : mode),
      syncJob: WOOCOMMERCE_SYNC_ORDER_SPEC.name,
      close: () => w.close(),
    };
  },
};
