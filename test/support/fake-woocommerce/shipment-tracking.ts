import { randomBytes } from 'node:crypto';
import { wallTime } from './dates.ts';
import { missingParam, READ, type RestContext, type Route, wpError, wpJson } from './rest-basics.ts';
import { findOrder } from './rest-orders.ts';
import type { TrackingItem } from './state.ts';

/**
 * The Shipment Tracking extension's REST API (namespace wc-shipment-tracking/v3), served only by shops
 * that run it: POST/GET /orders/{id}/shipment-trackings, GET/DELETE …/{tracking_id}. A custom
 * provider takes `custom_tracking_provider` and `custom_tracking_link`, where %1$s stands for the
 * tracking number, %2$s the destination postcode and %3$s its country.
 */

const PROVIDERS: Record<string, string> = {
  'La Poste': 'https://www.laposte.fr/outils/suivre-vos-envois?code=%1$s',
  Colissimo: 'https://www.laposte.fr/outils/suivre-vos-envois?code=%1$s',
  Chronopost: 'https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=%1$s',
};

function itemDocument(ctx: RestContext, orderId: number, item: TrackingItem) {
  const order = findOrder(ctx.shop, String(orderId))!;
  const format = item.custom_tracking_link || PROVIDERS[item.tracking_provider] || '';
  const link = format
    .replaceAll('%1$s', encodeURIComponent(item.tracking_number))
    .replaceAll('%2$s', encodeURIComponent(order.shipping.postcode.replace(/\s/g, '')))
    .replaceAll('%3$s', encodeURIComponent(order.shipping.country));
  return {
    tracking_id: item.tracking_id,
    tracking_provider: item.custom_tracking_provider || item.tracking_provider,
    tracking_link: link,
    tracking_number: item.tracking_number,
    date_shipped: wallTime(item.date_shipped, ctx.shop.timeZone).slice(0, 10),
  };
}

function withOrder(
  handler: (ctx: RestContext, orderId: number, items: TrackingItem[]) => ReturnType<Route['handle']>,
) {
  return (ctx: RestContext) => {
    const order = findOrder(ctx.shop, ctx.match[1]);
    if (!order) return wpError(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
    if (!ctx.shop.trackings.has(order.id)) ctx.shop.trackings.set(order.id, []);
    return handler(ctx, order.id, ctx.shop.trackings.get(order.id)!);
  };
}

const base = '^\\/wc-shipment-tracking\\/v3\\/orders\\/(\\d+)\\/shipment-trackings';

export const TRACKING_ROUTES: Route[] = [
  {
    methods: ['POST'],
    path: new RegExp(`${base}$`),
    access: 'create',
    extension: 'shipment-tracking',
    validate: (ctx) => (ctx.body.tracking_number ? undefined : missingParam('tracking_number')),
    handle: withOrder((ctx, orderId, items) => {
      const b = ctx.body;
      const shipped =
        typeof b.date_shipped === 'string' ? Date.parse(`${b.date_shipped}T12:00:00Z`) : Date.now();
      const item: TrackingItem = {
        tracking_id: randomBytes(16).toString('hex'),
        tracking_provider: typeof b.tracking_provider === 'string' ? b.tracking_provider : '',
        custom_tracking_provider:
          typeof b.custom_tracking_provider === 'string' ? b.custom_tracking_provider : '',
        custom_tracking_link: typeof b.custom_tracking_link === 'string' ? b.custom_tracking_link : '',
        tracking_number: String(b.tracking_number),
        date_shipped: Number.isNaN(shipped) ? Date.now() : shipped,
      };
      items.push(item);
      const location = `${ctx.shop.url}/wp-json/wc-shipment-tracking/v3/orders/${orderId}/shipment-trackings/${item.tracking_id}`;
      return wpJson(201, itemDocument(ctx, orderId, item), { Location: location });
    }),
  },
  {
    methods: READ,
    path: new RegExp(`${base}$`),
    access: 'list',
    extension: 'shipment-tracking',
    handle: withOrder((ctx, orderId, items) =>
      wpJson(
        200,
        items.map((i) => itemDocument(ctx, orderId, i)),
      ),
    ),
  },
  {
    methods: [...READ, 'DELETE'],
    path: new RegExp(`${base}\\/([0-9a-f]+)$`),
    access: 'view',
    extension: 'shipment-tracking',
    handle: withOrder((ctx, orderId, items) => {
      const item = items.find((i) => i.tracking_id === ctx.match[2]);
      if (!item)
        return wpError(
          404,
          'woocommerce_rest_shop_order_shipment_tracking_invalid_id',
          'Invalid tracking ID.',
        );
      if (ctx.method === 'DELETE') items.splice(items.indexOf(item), 1);
      return wpJson(200, itemDocument(ctx, orderId, item));
    }),
  },
];
