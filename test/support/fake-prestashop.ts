import {
  addCarrier,
  changeState,
  createOrder,
  editCarrier,
  type PsOrderInput,
} from './fake-prestashop/orders.ts';
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
 * Authoritative text: the shop-plugins contract the module is written to. Its actionValidateOrder and
 * actionOrderStatusPostUpdate hooks (when the new state is paid, or the order is cancelled) POST:
 *
 *   POST {base}/connectors/prestashop/orders
 *   Content-Type: application/json
 *   X-Dlv-Connection: {connection id from the module's settings, con_…}
 *   X-Dlv-Delivery-Id: {UUID v4 per push; the same on a retry of the same push}
 *   X-Dlv-Timestamp: {Unix seconds when this attempt is sent}
 *   X-Dlv-Signature: base64(HMAC-SHA256(shop secret from the settings, "{timestamp}.{raw body bytes}"))
 *
 *   {"event": "order.paid" | "order.cancelled", "shop_url": "https://shop.example.fr",
 *    "order": {"id": 42, "reference": "XKBKNABJK", "id_carrier": 7, "carrier_service": "express" | null,
 *      "current_state": 2, "total_paid_tax_incl": "59.90", "currency": "EUR", "date_upd": "2026-11-23 15:04:05",
 *      "customer": {"email": "…", "firstname": "…", "lastname": "…"},
 *      "delivery_address": {"company": "", "firstname": "…", "lastname": "…", "address1": "…", "address2": "",
 *        "postcode": "75011", "city": "Paris", "country_iso": "FR", "phone": "", "phone_mobile": "…"},
 *      "products": [{"id_product": 1, "name": "…", "quantity": 2, "weight_kg": "0.450"}]}}
 *
 * `carrier_service` is our service when the order's carrier is one of the module's (its id_reference is
 * kept in Configuration as DLV_CARRIER_REF_<SERVICE>: a carrier's id changes each time it is edited in
 * the back office, its id_reference does not), else null. The body is PHP json_encode() output ("\/"
 * and "\u00e9" escapes): verify the signature over the timestamp and the raw bytes, before parsing;
 * a timestamp more than 5 minutes off, or a signature seen before, is a replay (refused). A 2xx is accepted
 * (idempotent on shop + order id on our side); otherwise the module retries from its dlv_push_queue.
 * Statuses back go through the Webservice: PUT /api/order_carriers/{id} (tracking_number; the tracking
 * URL is the carrier's `url` with @ replaced by the number — there is no URL field on order_carrier)
 * and POST /api/order_histories (id_order, id_order_state: PS_OS_SHIPPING 4, PS_OS_DELIVERED 5,
 * PS_OS_CANCELED 6, as installed).
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
    let answer = answerWebservice(shop, call, split.rest.slice('/api'.length));
    const lost = shop.losing.findIndex(
      (l) => l.method === call.method.toUpperCase() && split.rest.startsWith(l.path),
    );
    if (lost >= 0) {
      // Done in the shop, but the caller hears only a gateway timeout.
      shop.losing.splice(lost, 1);
      answer = { ...DOWN, status: 504 };
    }
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

    /** The merchant adds a carrier of its own (its name may well be one of ours: it never counts). */
    addCarrier: (slug: string, name: string) => addCarrier(shopState(slug), name),

    /** The merchant edits a carrier: a new id, the same id_reference (PrestaShop's versioning). */
    editCarrier: (slug: string, carrierId: number, changes?: Record<string, string>) =>
      editCarrier(shopState(slug), carrierId, changes),

    /** The merchant changes the order's state in the back office (an order_histories row). */
    setOrderState: (slug: string, orderId: number, stateId: number) =>
      changeState(shopState(slug), orderId, stateId, 1),

    /** The module's push body for an order (see the contract above). */
    pushPayload: (slug: string, orderId: number, event: PushEvent = 'order.paid') =>
      pushPayload(shopState(slug), orderId, event),

    /** Sends a push as the module does: POST `url`, naming the connection, signed with its secret. */
    pushOrder: (
      url: string,
      credentials: { connectionId: string; secret: string },
      payload: Record<string, unknown>,
      options: { deliveryId?: string; timeoutMs?: number; signature?: string; timestamp?: number } = {},
    ) => sendPush(url, credentials, payload, options),

    /** The next `method` call under `path` (e.g. /api/order_histories) is applied, its answer lost (504). */
    loseAnswerOf(slug: string, method: string, path: string): void {
      shopState(slug).losing.push({ method: method.toUpperCase(), path });
    },

    setMode(slug: string, mode: PsMode): void {
      shopState(slug).mode = mode;
    },

    close: () => server.close(),
  };
  return fake;
}

export type FakePrestaShop = Awaited<ReturnType<typeof startFakePrestaShop>>;
