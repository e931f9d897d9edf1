import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../src/db/pool.ts';
import { STATUS_EVENTS } from '../src/events/catalogue.ts';
import { OrderSchema } from '../src/http/shared/schemas/orders.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { WEBHOOKS_FAN_OUT } from '../src/jobs/webhooks-fan-out.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import {
  brandFootprint,
  createOrder,
  NOTHING_STORED,
  subscribeToWebhooks,
  VALID_ORDER,
} from './support/orders.ts';

// Tuesday 24 November 2026, 10:00 in Paris.
const NOW = new Date('2026-11-24T09:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => NOW, config: { webhooksAllowInsecure: true } });
});
afterAll(() => t.close());

describe('POST /orders', () => {
  it('creates a pending order, priced from the grid, with its promised date and first event', async () => {
    const brand = await createBrandWithKey(t.deps, { pickupAddress: '5 rue du Dépôt 93200 Saint-Denis' });
    const res = await createOrder(t.app, brand, {
      ...VALID_ORDER,
      reference: 'CMD-1',
      service: 'express',
      unit_type: 'Colis',
      unit_weight: '2,5 kg',
      quantity: 2,
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.ok).toBe(true);
    expect(res.data.trackingRef).toMatch(/^DLV-[0-9A-HJKMNP-TV-Z]{10}$/);
    const order = res.data.order;
    expect(order).toMatchObject({
      tracking_ref: res.data.trackingRef,
      status: 'pending',
      reference: 'CMD-1',
      customer_email: 'jane@example.com',
      amount_eur: 49.9,
      pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
      delivery_address: '12 rue Oberkampf 75011 Paris',
      delivery_postcode: '75011',
      delivery_city: 'Paris',
      delivery_recipient: 'Jane Doe',
      delivery_phone: '+33612345678',
      delivery_email: null,
      service: 'express',
      unit_type: 'parcel',
      quantity: 2,
      unit_weight_grams: 2500,
      vat_rate: 0.2,
      promised_date: '2026-11-24',
      created_at: NOW.toISOString(),
    });
    const quote = await call(t.app, {
      method: 'POST',
      url: `${API}/rates`,
      headers: brand.headers,
      payload: { delivery_zip: '75011', unit_type: 'parcel', unit_weight: '2.5kg', quantity: 2 },
    });
    const express = quote.data.rates.find((r: { service: string }) => r.service === 'express');
    expect(order.price_eur).toBe(express.price_eur);
    expect(order.price_excl_tax_eur).toBe(express.price_excl_tax_eur);
    expect(order.events).toEqual([{ status: 'pending', at: NOW.toISOString(), note: 'Order created' }]);
    // Exactly the documented members: a field added to the column map and the schema shows here.
    expect(Object.keys(order).sort()).toEqual(Object.keys(OrderSchema.properties).sort());
    // Nobody listens to this brand's events: only the order and its first event were written.
    expect(await brandFootprint(t.pool, brand.brandId)).toMatchObject({ orders: 1, events: 1, webhooks: 0 });
    expect(await fanOutJobs(t.pool, brand.brandId)).toBe(0);
  });

  it('writes the order.created event and one fan-out job with the order when the brand has a webhook endpoint', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const res = await createOrder(t.app, brand);
    expect(res.statusCode).toBe(200);
    expect(await brandFootprint(t.pool, brand.brandId)).toMatchObject({ orders: 1, events: 1, webhooks: 1 });
    expect(await fanOutJobs(t.pool, brand.brandId)).toBe(1);
    const { rows } = await t.pool.query('SELECT type, data FROM outbox_events WHERE brand_id = $1', [
      brand.brandId,
    ]);
    expect(rows[0].type).toBe('order.created');
    expect(rows[0].data.order).toEqual(omitEvents(res.data.order));
  });

  it('starts writing events as soon as an endpoint is added by this instance', async () => {
    const brand = await createBrandWithKey(t.deps);
    await createOrder(t.app, brand);
    expect((await brandFootprint(t.pool, brand.brandId)).webhooks).toBe(0);
    await t.deps.webhooks.add({ brandId: brand.brandId, url: 'http://127.0.0.1:9/hook' }, testOperator);
    await createOrder(t.app, brand);
    expect((await brandFootprint(t.pool, brand.brandId)).webhooks).toBe(1);
  });

  it('uses the defaults: standard service, one 1 kg parcel, the brand pickup address', async () => {
    const brand = await createBrandWithKey(t.deps);
    const res = await createOrder(t.app, brand, {
      customer_email: 'a@b.fr',
      delivery_address: '1 place du Marché 78000 Versailles',
    });
    expect(res.data.order).toMatchObject({
      service: 'standard',
      unit_type: 'parcel',
      quantity: 1,
      unit_weight_grams: 1000,
      pickup_address: '1 rue de Rivoli 75001 Paris',
      delivery_city: 'Versailles',
      promised_date: '2026-11-25',
      amount_eur: null,
      reference: null,
    });
  });

  it('creates an order awaiting its address, which PATCH completes into a priced pending order', async () => {
    const brand = await createBrandWithKey(t.deps);
    const res = await createOrder(t.app, brand, { customer_email: 'a@b.fr' });
    expect(res.statusCode).toBe(200);
    expect(res.data.order).toMatchObject({
      status: 'awaiting_address',
      price_eur: null,
      promised_date: null,
      delivery_address: null,
    });
    const ref = res.data.trackingRef;

    const bad = await call(t.app, {
      method: 'PATCH',
      url: `${API}/orders/${ref}`,
      headers: brand.headers,
      payload: { delivery_address: '3 rue X 69001 Lyon' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.data.error).toBe('out_of_zone');

    const done = await call(t.app, {
      method: 'PATCH',
      url: `${API}/orders/${ref}`,
      headers: brand.headers,
      payload: { delivery_address: '3 avenue Foch 94300 Vincennes', delivery_phone: '+44 20 7946 0958' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.data.order).toMatchObject({
      status: 'pending',
      delivery_postcode: '94300',
      delivery_phone: '+442079460958',
      promised_date: '2026-11-25',
    });
    expect(done.data.order.price_eur).toBeGreaterThan(0);
    expect(done.data.order.events.map((e: { status: string }) => e.status)).toEqual([
      'awaiting_address',
      'pending',
    ]);

    const details = await call(t.app, {
      method: 'PATCH',
      url: `${API}/orders/${ref}`,
      headers: brand.headers,
      payload: { delivery_recipient: 'M. Martin' },
    });
    expect(details.data.order).toMatchObject({
      status: 'pending',
      delivery_recipient: 'M. Martin',
      price_eur: done.data.order.price_eur,
    });
    expect(details.data.order.events).toHaveLength(3);

    const empty = await call(t.app, {
      method: 'PATCH',
      url: `${API}/orders/${ref}`,
      headers: brand.headers,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
  });

  it('rejects amounts beyond the documented maximum with 400, never a 500', async () => {
    const brand = await createBrandWithKey(t.deps);
    const huge = [1e15, 1e308, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 100_000_000.01, 1e21];
    for (const amount of huge) {
      const res = await createOrder(t.app, brand, { ...VALID_ORDER, amount_eur: amount });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(res.data.details).toEqual([{ field: 'amount_eur', message: 'must be <= 100000000' }]);
    }
    for (const amount of [1e-9, 0.30000000000000004]) {
      const res = await createOrder(t.app, brand, { ...VALID_ORDER, amount_eur: amount });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.data.details[0].field).toBe('amount_eur');
    }
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
    const max = await createOrder(t.app, brand, { ...VALID_ORDER, amount_eur: 100_000_000 });
    expect(max.statusCode).toBe(200);
    expect(max.data.order.amount_eur).toBe(100_000_000);
    const negativeZero = await createOrder(t.app, brand, { ...VALID_ORDER, amount_eur: -0 });
    expect(negativeZero.data.order.amount_eur).toBe(0);
  });

  it('rejects every invalid input with 400 naming the field, and stores nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const cases: [object, string][] = [
      [{ delivery_address: VALID_ORDER.delivery_address }, 'customer_email'],
      [{ ...VALID_ORDER, customer_email: 'not-an-email' }, 'customer_email'],
      [{ ...VALID_ORDER, customer_email: 42 }, 'customer_email'],
      [{ ...VALID_ORDER, delivery_email: 'x@' }, 'delivery_email'],
      [{ ...VALID_ORDER, amount_eur: -1 }, 'amount_eur'],
      [{ ...VALID_ORDER, amount_eur: 10.123 }, 'amount_eur'],
      [{ ...VALID_ORDER, amount_eur: '10' }, 'amount_eur'],
      [{ ...VALID_ORDER, delivery_phone: '12' }, 'delivery_phone'],
      [{ ...VALID_ORDER, service: 'teleport' }, 'service'],
      [{ ...VALID_ORDER, unit_type: 'box' }, 'unit_type'],
      [{ ...VALID_ORDER, unit_weight: 'heavy' }, 'unit_weight'],
      [{ ...VALID_ORDER, unit_weight: '0 kg' }, 'unit_weight'],
      [{ ...VALID_ORDER, quantity: 0 }, 'quantity'],
      [{ ...VALID_ORDER, quantity: 1001 }, 'quantity'],
      [{ ...VALID_ORDER, reference: 'x'.repeat(101) }, 'reference'],
      [{ ...VALID_ORDER, delivery_address: 'x'.repeat(501) }, 'delivery_address'],
      [{ ...VALID_ORDER, colour: 'blue' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await createOrder(t.app, brand, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(
        res.data.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const several = await createOrder(t.app, brand, {
      customer_email: 'a@b.fr',
      unit_type: 'box',
      delivery_phone: '12',
      unit_weight: 'x',
    });
    expect(several.data.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'delivery_phone',
      'unit_type',
      'unit_weight',
    ]);
    const zero = await createOrder(t.app, brand, { ...VALID_ORDER, quantity: 0 });
    expect(zero.data.details).toEqual([{ field: 'quantity', message: 'must be >= 1' }]);
    for (const payload of ['not json', '[]', 'null']) {
      const res = await call(t.app, {
        method: 'POST',
        url: `${API}/orders`,
        headers: { ...brand.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
    }
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
  });

  it('refuses destinations out of zone (422 out_of_zone) or without a real postcode (422 invalid_address), storing nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const cases: [string, string][] = [
      ['10 rue de la République 69001 Lyon', 'out_of_zone'],
      ['Rue du Port 13002 Marseille', 'out_of_zone'],
      ['12 rue sans code, Paris', 'invalid_address'],
      ['12 rue X 75099 Paris', 'invalid_address'],
      ['12 rue X 00000', 'invalid_address'],
    ];
    for (const [address, code] of cases) {
      const res = await createOrder(
        t.app,
        brand,
        { ...VALID_ORDER, delivery_address: address },
        { 'idempotency-key': `k-${code}-${address.length}` },
      );
      expect(res.statusCode, address).toBe(422);
      expect(res.data.error, address).toBe(code);
    }
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
  });

  it('refuses with 422 unpriceable what the brand grid does not price, naming what is missing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const csv = await readFile(new URL('../data/example-grid.csv', import.meta.url), 'utf8');
    await t.deps.grids.importGrid({ brandId: brand.brandId }, csv, 'csv', null, testOperator);
    const res = await createOrder(t.app, brand, { ...VALID_ORDER, unit_type: 'envelope' });
    expect(res.statusCode).toBe(422);
    expect(res.data.error).toBe('unpriceable');
    expect(res.data.message).toMatch(/standard envelope to paris/);
    const express = await createOrder(t.app, brand, { ...VALID_ORDER, service: 'express' });
    expect(express.data.error).toBe('unpriceable');
    expect(await brandFootprint(t.pool, brand.brandId)).toMatchObject({ orders: 0, webhooks: 0 });
  });

  it('gives 100 concurrent creations 100 distinct tracking refs', async () => {
    const brand = await createBrandWithKey(t.deps);
    const results = await Promise.all(Array.from({ length: 100 }, () => createOrder(t.app, brand)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(new Set(results.map((r) => r.data.trackingRef)).size).toBe(100);
    expect((await brandFootprint(t.pool, brand.brandId)).orders).toBe(100);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same body, and refuses another body with 422', async () => {
    const brand = await createBrandWithKey(t.deps);
    const first = await createOrder(t.app, brand, VALID_ORDER, { 'idempotency-key': 'order-42' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const reordered = Object.fromEntries(Object.entries(VALID_ORDER).reverse());
    const again = await createOrder(t.app, brand, reordered, { 'idempotency-key': 'order-42' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const other = await createOrder(
      t.app,
      brand,
      { ...VALID_ORDER, amount_eur: 1 },
      { 'idempotency-key': 'order-42' },
    );
    expect(other.statusCode).toBe(422);
    expect(other.data.error).toBe('idempotency_key_reused');
    // Keys are per brand: another brand may use the same key.
    const otherBrand = await createBrandWithKey(t.deps);
    const theirs = await createOrder(t.app, otherBrand, VALID_ORDER, { 'idempotency-key': 'order-42' });
    expect(theirs.data.trackingRef).not.toBe(first.data.trackingRef);
    expect((await brandFootprint(t.pool, brand.brandId)).orders).toBe(1);
  });

  it('makes one order out of 50 parallel requests with one key; the others replay it or get 409', async () => {
    const brand = await createBrandWithKey(t.deps);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => createOrder(t.app, brand, VALID_ORDER, { 'idempotency-key': 'race' })),
    );
    const refs = new Set(results.filter((r) => r.statusCode === 200).map((r) => r.data.trackingRef));
    expect(refs.size).toBe(1);
    for (const r of results) {
      expect([200, 409]).toContain(r.statusCode);
      if (r.statusCode === 409) expect(r.data.error).toBe('idempotency_conflict');
    }
    expect((await brandFootprint(t.pool, brand.brandId)).orders).toBe(1);
  });

  it('stores nothing for a rejected request, so the key can be used again', async () => {
    const brand = await createBrandWithKey(t.deps);
    const bad = await createOrder(
      t.app,
      brand,
      { ...VALID_ORDER, delivery_address: '1 rue X 69001 Lyon' },
      { 'idempotency-key': 'retry-me' },
    );
    expect(bad.statusCode).toBe(422);
    const good = await createOrder(t.app, brand, VALID_ORDER, { 'idempotency-key': 'retry-me' });
    expect(good.statusCode).toBe(200);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('rejects malformed keys with 400', async () => {
    const brand = await createBrandWithKey(t.deps);
    for (const key of ['x'.repeat(256), 'has space', '']) {
      const res = await createOrder(t.app, brand, VALID_ORDER, { 'idempotency-key': key });
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
    }
    expect((await brandFootprint(t.pool, brand.brandId)).orders).toBe(0);
  });
});

describe('GET /orders/{trackingRef}, cancel and PATCH across brands', () => {
  it("answers 404 with the same body for unknown refs and for another brand's order", async () => {
    const owner = await createBrandWithKey(t.deps);
    const stranger = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, owner)).data.trackingRef;
    const own = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: owner.headers });
    expect(own.statusCode).toBe(200);
    expect(own.data.order.events).toHaveLength(1);
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: `${API}/orders/${ref.toLowerCase()}`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(200);

    const strip = (body: Record<string, unknown>) => ({
      ...body,
      request_id: undefined,
      message: String(body.message).replace(/DLV-\w+/, 'REF'),
    });
    const requests = [
      { method: 'GET' as const, url: `${API}/orders/${ref}` },
      { method: 'POST' as const, url: `${API}/orders/${ref}/cancel` },
      { method: 'PATCH' as const, url: `${API}/orders/${ref}`, payload: { delivery_recipient: 'x' } },
    ];
    for (const r of requests) {
      const foreign = await call(t.app, { ...r, headers: stranger.headers });
      const unknown = await call(t.app, {
        ...r,
        url: r.url.replace(ref, 'DLV-0000000000'),
        headers: stranger.headers,
      });
      expect(foreign.statusCode, r.url).toBe(404);
      expect(foreign.data.error).toBe('not_found');
      expect(strip(foreign.data)).toEqual(strip(unknown.data));
    }
    // Any reference up to the 100-character path guard names no order: 404, whatever its length.
    const bogusRefs = [
      'nope',
      'DLV-',
      'x'.repeat(40),
      `DLV-${'7'.repeat(11)}`,
      `DLV-${'7'.repeat(46)}`,
      encodeURIComponent('𐀀'.repeat(60)), // 60 characters, 120 UTF-16 code units
    ];
    for (const bogus of [...bogusRefs, `DLV-${'K'.repeat(96)}`]) {
      for (const r of requests) {
        const res = await call(t.app, { ...r, url: r.url.replace(ref, bogus), headers: owner.headers });
        expect(res.statusCode, `${r.method} ${bogus}`).toBe(404);
        expect(res.data.error).toBe('not_found');
      }
    }
    for (const tooLong of [`DLV-${'K'.repeat(97)}`, 'K'.repeat(300)]) {
      const res = await call(t.app, {
        method: 'GET',
        url: `${API}/orders/${tooLong}`,
        headers: owner.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toBe('invalid_request');
    }
    // Nothing changed for the owner.
    expect(
      (await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: owner.headers })).data.order
        .status,
    ).toBe('pending');
  });
});

const STATUS_EVENT_TYPES: string[] = Object.values(STATUS_EVENTS);

describe('cancel and status changes', () => {
  it('lets the brand cancel before pickup only', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const cancelled = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${ref}/cancel`,
      headers: brand.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.data.order.status).toBe('cancelled');
    expect(cancelled.data.order.events.map((e: { status: string }) => e.status)).toEqual([
      'pending',
      'cancelled',
    ]);
    // Cancelling again is no error: the order as it is (test/idempotent-writes.test.ts).
    const again = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${ref}/cancel`,
      headers: brand.headers,
      payload: {},
    });
    expect(again.statusCode).toBe(200);
    expect(again.data.order.events).toEqual(cancelled.data.order.events);

    const moving = (await createOrder(t.app, brand)).data.trackingRef;
    await t.deps.orders.setStatus(moving, 'picked_up', 'scan 1', testOperator);
    const late = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${moving}/cancel`,
      headers: brand.headers,
    });
    expect(late.statusCode).toBe(422);
    expect(late.data.error).toBe('invalid_transition');
    const patch = await call(t.app, {
      method: 'PATCH',
      url: `${API}/orders/${moving}`,
      headers: brand.headers,
      payload: { delivery_recipient: 'x' },
    });
    expect(patch.statusCode).toBe(422);
  });

  it('walks an order to delivery through a failed attempt, with one event and one notification per change', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    for (const status of [
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
      'out_for_delivery',
      'delivered',
    ]) {
      await t.deps.orders.setStatus(ref, status, `scan ${status}`, testOperator);
    }
    const detail = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(detail.data.order.status).toBe('delivered');
    expect(detail.data.order.events.map((e: { status: string }) => e.status)).toEqual([
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
      'out_for_delivery',
      'delivered',
    ]);
    const { rows } = await t.pool.query(
      "SELECT type, data->>'previous_status' AS prev FROM outbox_events WHERE brand_id = $1 ORDER BY seq",
      [brand.brandId],
    );
    // One order.status_changed per change, and the convenience events beside the two they stand for
    // (written by the same statement, so their order relative to it is not defined).
    expect(rows.map((r) => r.type).filter((type) => !STATUS_EVENT_TYPES.includes(type))).toEqual([
      'order.created',
      ...Array(6).fill('order.status_changed'),
    ]);
    expect(rows.map((r) => r.type).filter((type) => STATUS_EVENT_TYPES.includes(type))).toEqual([
      'order.delivery_failed',
      'order.delivered',
    ]);
    await expect(t.deps.orders.setStatus(ref, 'returned', null, testOperator)).rejects.toMatchObject({
      code: 'invalid_transition',
    });
    await expect(t.deps.orders.setStatus(ref, 'teleported', null, testOperator)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('applies only one of two simultaneous transitions from the same state', async () => {
    const brand = await createBrandWithKey(t.deps);
    for (let i = 0; i < 10; i++) {
      const ref = (await createOrder(t.app, brand)).data.trackingRef;
      await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
      await t.deps.orders.setStatus(ref, 'in_transit', null, testOperator);
      await t.deps.orders.setStatus(ref, 'out_for_delivery', null, testOperator);
      const outcomes = await Promise.allSettled([
        t.deps.orders.setStatus(ref, 'delivered', null, testOperator),
        t.deps.orders.setStatus(ref, 'failed_attempt', null, testOperator),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const detail = await t.deps.orders.getAnyBrand(ref, testOperator);
      expect(detail.events).toHaveLength(5);
    }
  });
});

/** Fan-out jobs queued for the brand's outbox events. */
async function fanOutJobs(pool: Pool, brandId: string): Promise<number> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM ${QUEUED_JOBS} j WHERE j.task = $2 AND j.payload->>'event_id' IN (SELECT id FROM outbox_events WHERE brand_id = $1)`,
    [brandId, WEBHOOKS_FAN_OUT.name],
  );
  return rows[0].n;
}

function omitEvents({ events: _, ...order }: Record<string, unknown>) {
  return order;
}
