import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialCipher } from '../src/connectors/credentials.ts';
import { storesOn } from '../src/db/stores.ts';
import { prefixedId } from '../src/domain/ids.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import type { TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import type { ScratchTestApp } from './support/scratch-database.ts';
import { CONNECTOR_KEY, paidOrderPayload, sendWebhook, startShopifyShop } from './support/shopify.ts';

/**
 * An order's events go to the connector of the shop the order came from, and to no other: a brand
 * with a Shopify store and a PrestaShop shop (and orders by API) gets a status job only for the
 * platform of each order (src/events/outbox.ts `origin`).
 */
let t: ScratchTestApp;
let brand: TestBrand;
let shop: string;

beforeAll(async () => {
  ({ t, brand, shop } = await startShopifyShop());
  // A PrestaShop link of the same brand, made in the database (no shop is called here).
  const id = prefixedId('con');
  await storesOn(t.pool).connections.insert({
    id,
    brandId: brand.brandId,
    platform: 'prestashop',
    shop: 'https://boutique.example',
    credentials: await credentialCipher(async () => CONNECTOR_KEY).encrypt('secret', id),
    scopes: '',
    remoteIds: {},
    at: new Date(),
  });
  t.deps.connectorDirectory.forget();
});
afterAll(async () => {
  await t?.close();
});

/** The status jobs queued for this delivery order's events, per job name. */
async function statusJobs(trackingRef: string): Promise<Record<string, number>> {
  const { rows } = await t.pool.query<{ task: string; n: number }>(
    `SELECT j.task, count(*)::int AS n FROM ${QUEUED_JOBS} j
       JOIN outbox_events e ON e.id = j.payload->>'event_id'
      WHERE e.data->'order'->>'tracking_ref' = $1 GROUP BY j.task ORDER BY j.task`,
    [trackingRef],
  );
  return Object.fromEntries(rows.map((r) => [r.task, r.n]));
}

describe('order events, routed by the order’s origin', () => {
  it('sends a Shopify order’s moves to Shopify only', async () => {
    const order = paidOrderPayload();
    const webhookId = `wh-${Math.random().toString(36).slice(2)}`;
    const res = await sendWebhook(t.app, { shop, topic: 'orders/paid', body: order.text, webhookId });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.pool.query('SELECT id FROM connector_inbox WHERE delivery_id = $1', [webhookId]);
    const created = await t.deps.shopify!.inbox.process(rows[0].id);
    const ref = created.replace('created ', '');
    await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
    // A pickup scan tells the recipient nothing: no notification job (decision 0007's steps).
    expect(await statusJobs(ref)).toEqual({ shopify_sync_order: 1 });
  });

  it('sends no shop the moves of an order made by API', async () => {
    const direct = await createOrder(t.app, brand);
    expect(direct.statusCode).toBe(200);
    await t.deps.orders.setStatus(direct.data.trackingRef, 'picked_up', null, testOperator);
    expect(await statusJobs(direct.data.trackingRef)).toEqual({});
    // Out for delivery is a step: the recipients' notifications (on by default) hear it, whatever the origin.
    await t.deps.orders.setStatus(direct.data.trackingRef, 'in_transit', null, testOperator);
    await t.deps.orders.setStatus(direct.data.trackingRef, 'out_for_delivery', null, testOperator);
    expect(await statusJobs(direct.data.trackingRef)).toEqual({ 'notify-recipient': 1 });
  });
});
