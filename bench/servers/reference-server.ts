/**
 * The yardstick for the order routes: plain node:http running the same SQL through the same
 * repository (and the same JSON shape), without the framework — no schema validation, auth
 * plugin, error envelope, hooks or serializer. Keys are verified once and kept, as the API does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { apiKeysRepository } from '../../src/db/repositories/api-keys-repository.ts';
import { ordersRepository } from '../../src/db/repositories/orders-repository.ts';
import { hashApiKey } from '../../src/domain/api-keys/keys.ts';
import { NO_CO2E } from '../../src/domain/orders/order-fields.ts';
import { orderDetailJson, orderLinks } from '../../src/domain/orders/order-json.ts';
import { generateTrackingRef, generateTrackingToken } from '../../src/domain/orders/tracking-ref.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const links = orderLinks(config.publicBaseUrl ?? `http://${config.host}:${config.port}`);
const pool = createPool(config.databaseUrl!, 20);
const orders = ordersRepository(pool);
const keys = apiKeysRepository(pool);
const brandByKey = new Map<string, string>();

async function brandOf(req: IncomingMessage): Promise<string | null> {
  const token = req.headers.authorization?.slice(7) ?? '';
  let brand = brandByKey.get(token);
  if (!brand) {
    brand = (await keys.findActiveByHash(hashApiKey(token), new Date()))?.brandId;
    if (brand) brandByKey.set(token, brand);
  }
  return brand ?? null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

const server = createServer(async (req, res) => {
  try {
    if (req.url === '/ping') return send(res, 200, { ok: true, time: new Date().toISOString() });
    const brandId = await brandOf(req);
    if (!brandId) return send(res, 401, { ok: false });
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/orders') {
      const body = await readBody(req);
      const now = new Date();
      const row = {
        trackingRef: generateTrackingRef(),
        trackingToken: generateTrackingToken(),
        brandId,
        status: 'pending' as const,
        reference: null,
        customerEmail: String(body.customer_email),
        amountCents: null,
        pickupAddress: null,
        deliveryAddress: String(body.delivery_address),
        deliveryPostcode: '75011',
        deliveryCity: 'Paris',
        deliveryZone: 'paris' as const,
        deliveryRecipient: null,
        deliveryPhone: null,
        deliveryEmail: null,
        deliveryLat: 48.8574,
        deliveryLng: 2.3795,
        deliveryLocationPrecision: 'postcode' as const,
        deliveryLocationSource: 'postcode' as const,
        addressWarnings: [],
        addressCheckDueAt: null,
        service: 'standard' as const,
        unitType: 'parcel' as const,
        quantity: 1,
        unitWeightGrams: 1000,
        priceExclTaxCents: 700,
        vatCents: 140,
        priceCents: 840,
        promisedDate: '2026-11-25',
        livemode: true,
        pickupId: null,
        ...NO_CO2E,
        createdAt: now,
      };
      // The statement the API runs for a brand nobody subscribes to (as the bench brand): no event.
      const { order } = (await orders.insert(row, 'Order created', null))!;
      return send(res, 200, {
        ok: true,
        trackingRef: order.trackingRef,
        order: orderDetailJson(
          { ...order, events: [{ status: 'pending', at: now, note: 'Order created' }] },
          links,
        ),
      });
    }
    if (req.method === 'GET' && url.pathname === '/orders') {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const list = await orders.listJson(brandId, { status: null, limit: limit + 1, after: null }, links);
      const json = `{"ok":true,"orders":[${list
        .slice(0, limit)
        .map((o) => o.json)
        .join(',')}],"next_cursor":"x"}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      return res.end(json);
    }
    if (req.method === 'GET' && url.pathname.startsWith('/orders/')) {
      const json = await orders.findDetailJson(url.pathname.slice(8), brandId, links);
      if (json === null) return send(res, 404, { ok: false });
      const body = `{"ok":true,"order":${json}}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }
    send(res, 404, { ok: false });
  } catch (err) {
    send(res, 500, { ok: false, error: String(err) });
  }
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
