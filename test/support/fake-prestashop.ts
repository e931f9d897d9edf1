import { changeState, createOrder, type PsOrderInput } from './fake-prestashop/orders.ts';
import { type PushEvent, pushPayload, sendPush } from './fake-prestashop/push.ts';
import { RESOURCES } from './fake-prestashop/resources.ts';
import {
  newKeyValue,
  newShop,
  type PsMode,
  type PsShop,
  type WebserviceKey,
} from './fake-prestashop/state.ts';
import { answerWebservice } from './fake-prestashop/webservice.ts';
import { type Answer, type Call, splitShopPath, startLoopback } from './shop-http.ts';

export type { PsOrderInput } from './fake-prestashop/orders.ts';
export type { PsShop } from './fake-prestashop/state.ts';

/**
 * A faithful fake PrestaShop 8 store on 127.0.0.1 for the PrestaShop bridge's tests: its Webservice
 * (`{url}/api/…`, see fake-prestashop/webservice.ts and query.ts) over orders, addresses, customers,
 * order_carriers (GET, PUT, PATCH), order_histories (GET, POST), order_states, carriers, products,
 * countries and configurations; and the push of our PrestaShop module. Each shop lives under a path:
 * `http://127.0.0.1:PORT/{slug}`. Every Webservice call lands in `shop.calls`.
 * Modes per shop: 'up'; 'down' (503 from the web server); 'unauthorized' (the key deactivated: 401 code 20).
 *
 * ─── Contract: the module's push (connectors/prestashop-module → /connectors/prestashop/orders) ───
 * The module's actionValidateOrder and actionOrderStatusPostUpdate hooks POST, once, synchronously,
 * with a short timeout and no retry (the bridge's Webservice poll catches up what is lost):
 *
 *   POST {bridge}/connectors/prestashop/orders
 *   Content-Type: application/json
 *   User-Agent: PrestaShop/{_PS_VERSION_} deliveryorders/{module version}
 *   X-Dlv-Event: order.validated | order.status_changed
 *   X-Dlv-Shop: {shop_url}
 *   X-Dlv-Delivery-Id: {UUID v4, new for each push}
 *   X-Dlv-Signature: base64(HMAC-SHA256(per-shop secret, raw body bytes))
 *
 *   {"event": "order.validated",
 *    "shop_url": "https://boutique.example/",          // Tools::getShopDomainSsl(true) . __PS_BASE_URI__
 *    "module_version": "1.0.0",
 *    "sent_at": "2025-03-01 10:00:00",                  // shop-local, see order.timezone
 *    "order": {
 *      "id": 12, "reference": "XKBKNABJK", "id_shop": 1,
 *      "current_state": {"id": 2, "name": "Paiement accepté", "paid": true, "shipped": false, "delivery": false},
 *      "date_add": "2025-03-01 10:00:00", "date_upd": "2025-03-01 10:00:00", "timezone": "Europe/Paris",
 *      "currency": "EUR", "total_paid_tax_incl": "56.70", "payment": "Carte bancaire",
 *      "carrier": {"id_carrier": 1, "id_reference": 7, "name": "Livraison le jour même", "id_order_carrier": 5},
 *      "customer": {"id": 3, "firstname": "Claire", "lastname": "Martin", "email": "claire.martin@example.fr"},
 *      "delivery_address": {"id": 9, "company": "", "firstname": "Claire", "lastname": "Martin",
 *        "address1": "12 rue Oberkampf", "address2": "…", "postcode": "75011", "city": "Paris",
 *        "country_iso": "FR", "phone": "", "phone_mobile": "06 12 34 56 78", "other": "Digicode 4821B"},
 *      "weight_unit": "kg",                               // PS_WEIGHT_UNIT; unit_weight is in it
 *      "lines": [{"product_id": 1, "product_attribute_id": 0, "reference": "THE-VERT-01",
 *                 "name": "Coffret thé vert", "quantity": 2, "unit_weight": "0.450"}]}}
 *
 * The body is PHP json_encode() output ("\/" and "\u00e9" escapes): verify the signature over the raw
 * bytes, before parsing. Idempotency is on (shop_url, order.id): the same order is pushed again on each
 * status change, with a new delivery id. Carrier matching is on `id_reference` (a carrier's id changes
 * each time it is edited in the back office; its id_reference does not).
 * Statuses back go through the Webservice: PUT /api/order_carriers/{id} (tracking_number; the tracking
 * URL is the carrier's `url` with @ replaced by the number — there is no URL field on order_carrier)
 * and POST /api/order_histories (id_order, id_order_state: 4 Expédié, 5 Livré, 6 Annulé).
 */

const DOWN: Answer = {
  status: 503,
  headers: { 'content-type': 'text/html' },
  body: '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>',
};

export async function startFakePrestaShop() {
  const shops = new Map<string, PsShop>();

  function route(call: Call): Answer {
    const split = splitShopPath(call.url.pathname);
    const shop = split ? shops.get(split.slug) : undefined;
    if (!shop || !split || !/^\/api(\/|$)/.test(split.rest)) return { status: 404, body: 'Not Found' };
    if (shop.mode === 'down') return DOWN;
    const answer = answerWebservice(shop, call, split.rest.slice('/api'.length));
    shop.calls.push({
      method: call.method,
      path: split.rest,
      query: Object.fromEntries([...call.url.searchParams].filter(([k]) => k !== 'ws_key')),
      body: call.body,
      status: answer.status,
      at: Date.now(),
    });
    return answer;
  }

  const server = await startLoopback(route);

  function shopState(slug: string): PsShop {
    const shop = shops.get(slug);
    if (!shop) throw new Error(`fake PrestaShop: no shop ${slug} (call addShop first)`);
    return shop;
  }

  const fake = {
    port: server.port,
    url: (slug: string) => `http://127.0.0.1:${server.port}/${slug}`,

    addShop(slug: string, options: { timeZone?: string } = {}): PsShop {
      if (!shops.has(slug))
        shops.set(slug, newShop(slug, fake.url(slug), options.timeZone ?? 'Europe/Paris'));
      return shops.get(slug)!;
    },

    shop: shopState,

    /**
     * A Webservice key made in Advanced Parameters › Webservice. By default it may GET every resource
     * and write what the bridge writes (PUT/PATCH order_carriers, POST order_histories).
     */
    createKey(slug: string, permissions?: Record<string, string[]>): WebserviceKey {
      const granted =
        permissions ??
        Object.fromEntries(Object.entries(RESOURCES).map(([name, definition]) => [name, definition.methods]));
      const key = { key: newKeyValue(), active: true, permissions: granted };
      shopState(slug).keys.push(key);
      return key;
    },

    /** A customer checks out (state 2 "Paiement accepté" unless given). */
    createOrder: (slug: string, input: PsOrderInput = {}) => createOrder(shopState(slug), input),

    /** The merchant changes the order's state in the back office (an order_histories row). */
    setOrderState: (slug: string, orderId: number, stateId: number) =>
      changeState(shopState(slug), orderId, stateId, 1),

    /** The module's push body for an order (see the contract above). */
    pushPayload: (slug: string, orderId: number, event: PushEvent = 'order.validated') =>
      pushPayload(shopState(slug), orderId, event),

    /** Sends a push as the module does: POST `url`, signed with `secret`. */
    pushOrder: (
      url: string,
      secret: string,
      payload: Record<string, unknown>,
      options: { deliveryId?: string; timeoutMs?: number } = {},
    ) => sendPush(url, secret, payload, options),

    setMode(slug: string, mode: PsMode): void {
      shopState(slug).mode = mode;
    },

    close: () => server.close(),
  };
  return fake;
}

export type FakePrestaShop = Awaited<ReturnType<typeof startFakePrestaShop>>;
