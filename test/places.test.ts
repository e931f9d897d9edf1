import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPointsRepository } from '../src/db/repositories/address-points-repository.ts';
import { knownAddresses } from '../src/domain/places/known-addresses.ts';
import { placeService } from '../src/domain/places/place-service.ts';
import { banGeocoder } from '../src/infra/geo/ban-geocoder.ts';
import { createServiceMetrics } from '../src/infra/metrics/service-metrics.ts';
import { type Runner, startWorker } from '../src/worker.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type FakeBan, startFakeBan } from './support/fake-ban.ts';
import { brandFootprint, createOrder, NOTHING_STORED } from './support/orders.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { eventually, type Receiver, startReceiver } from './support/webhook-receiver.ts';

/**
 * Places, not postcodes (SPEC §11): where a delivery address is and what is wrong with it, through
 * the API, with the fake Base Adresse Nationale answering from real addresses.
 */
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let ban: FakeBan;
let t: TestApp;
let offline: TestApp;
let runner: Runner;
let receiver: Receiver;

// Real addresses and points (test/fixtures/addresses).
const LEON_BLUM = { address: '12 Place Léon Blum, 75011 Paris', lat: 48.858828, lng: 2.379506 };
const ARBRE_SEC = { address: "19 Rue de l'Arbre Sec, 75001 Paris", lat: 48.859954, lng: 2.342072 };
const POINT_OF_75011 = { lat: 48.8574, lng: 2.3795, precision: 'postcode', source: 'postcode' };

const geocoderConfig = (url: string, overrides: Record<string, number> = {}) => ({
  url,
  timeoutMs: 5000,
  ratePerSecond: 40,
  budgetMs: 2000,
  ...overrides,
});

beforeAll(async () => {
  scratch = await createScratchDatabase();
  ban = await startFakeBan();
  t = await buildTestApp({
    config: { databaseUrl: scratch.url, webhooksAllowInsecure: true, geocoder: geocoderConfig(ban.url) },
  });
  offline = await buildTestApp({ config: { databaseUrl: scratch.url } });
  receiver = await startReceiver();
  runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
});
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
  await offline?.close();
  await t?.close();
  await ban?.close();
  await scratch?.drop();
});

const order = (address: string, extra: object = {}) => ({
  customer_email: 'jane@example.com',
  delivery_address: address,
  delivery_recipient: 'Jane Doe',
  ...extra,
});
const create = (brand: TestBrand, body: object, app = t) => createOrder(app.app, brand, body);
const patch = (brand: TestBrand, ref: string, body: object, app = t) =>
  call(app.app, { method: 'PATCH', url: `${API}/orders/${ref}`, headers: brand.headers, payload: body });
const eventsOf = async (brandId: string, type: string) =>
  (
    await t.pool.query<{ data: { order: Record<string, any> } }>(
      'SELECT data FROM outbox_events WHERE brand_id = $1 AND type = $2 ORDER BY created_at',
      [brandId, type],
    )
  ).rows.map((r) => r.data);

describe('an order’s place', () => {
  it('is its postcode’s point when no geocoder is configured, and nobody is asked', async () => {
    const brand = await createBrandWithKey(offline.deps);
    const asked = ban.requests.length;
    const created = await create(brand, order('12 place Leon Blum 75011 Paris'), offline);
    expect(created.statusCode).toBe(200);
    expect(created.data.order.delivery_location).toEqual(POINT_OF_75011);
    expect(created.data.order.address_warnings).toEqual([]);
    expect(ban.requests).toHaveLength(asked);
    // Awaiting its address: no place yet.
    const awaiting = await create(brand, { customer_email: 'a@example.com' }, offline);
    expect(awaiting.data.order.delivery_location).toBeNull();
  });

  it('is the geocoder’s point at the house number for an address it finds, with no warning', async () => {
    const brand = await createBrandWithKey(t.deps);
    const created = await create(brand, order(LEON_BLUM.address));
    expect(created.statusCode).toBe(200);
    expect(created.data.order.delivery_location).toEqual({
      lat: LEON_BLUM.lat,
      lng: LEON_BLUM.lng,
      precision: 'rooftop',
      source: 'geocoder',
    });
    expect(created.data.order.address_warnings).toEqual([]);
    // The same in the list and the detail (the stored JSON).
    const detail = await call(t.app, {
      method: 'GET',
      url: `${API}/orders/${created.data.trackingRef}`,
      headers: brand.headers,
    });
    expect(detail.data.order.delivery_location).toEqual(created.data.order.delivery_location);
  });

  it('is found in the cache by every instance: the same address is not geocoded twice', async () => {
    const brand = await createBrandWithKey(t.deps);
    const address = '6 Rue Saint-Germain l’Auxerrois, 75001 Paris';
    await create(brand, order(address));
    const asked = ban.requests.length;
    // Another instance (its own process, sharing the database), the address written another way.
    const other = await buildTestApp({
      config: { databaseUrl: scratch.url, geocoder: geocoderConfig(ban.url) },
    });
    try {
      const again = await create(brand, order("6 rue saint germain l'auxerrois 75001 PARIS"), other);
      expect(again.data.order.delivery_location).toMatchObject({
        lat: 48.85821,
        lng: 2.345086,
        source: 'geocoder',
      });
      expect(ban.requests).toHaveLength(asked);
    } finally {
      await other.close();
    }
  });

  it('flags an address the geocoder cannot place surely, placed at its postcode; the brand’s webhook hears of it', async () => {
    const brand = await createBrandWithKey(t.deps);
    const path = `/${brand.brandId}`;
    await t.deps.webhooks.add(
      {
        brandId: brand.brandId,
        url: receiver.url(path),
        events: 'order.address_flagged',
      },
      testOperator,
    );
    const created = await create(brand, order('3 Rue Imaginaire 75011 Paris'));
    expect(created.statusCode).toBe(200);
    expect(created.data.order.status).toBe('pending');
    expect(created.data.order.delivery_location).toEqual(POINT_OF_75011);
    expect(created.data.order.address_warnings).toEqual([
      { code: 'address_uncertain', message: expect.stringContaining('score 0.') },
    ]);
    const [hook] = await eventually(async () => {
      const hooks = receiver.received.filter((r) => r.path === path);
      return hooks.length > 0 && hooks;
    });
    expect(hook!.json).toMatchObject({
      type: 'order.address_flagged',
      data: {
        order: {
          tracking_ref: created.data.trackingRef,
          address_warnings: created.data.order.address_warnings,
        },
      },
    });
  });

  it('flags a postcode that disagrees with the geocoder’s (same département), placed where it found it', async () => {
    const brand = await createBrandWithKey(t.deps);
    const created = await create(brand, order('12 Place Léon Blum, 75012 Paris'));
    expect(created.statusCode).toBe(200);
    expect(created.data.order.delivery_postcode).toBe('75012');
    expect(created.data.order.delivery_location).toMatchObject({ lat: LEON_BLUM.lat, source: 'geocoder' });
    expect(created.data.order.address_warnings).toEqual([
      {
        code: 'postcode_mismatch',
        message:
          'The address is written with postcode 75012, but "12 Place Léon Blum 75011 Paris" is in 75011: check the postcode.',
      },
    ]);
  });

  it('refuses (422 naming delivery_address) an address the geocoder surely places in another département; nothing stored', async () => {
    const brand = await createBrandWithKey(t.deps);
    const refused = await create(brand, order("1 Rue de la Légion d'Honneur 75011"));
    expect(refused.statusCode).toBe(422);
    expect(refused.data).toMatchObject({
      ok: false,
      error: 'invalid_address',
      details: [
        {
          field: 'delivery_address',
          message: 'is in 93200 (département 93), not in 75011: correct the postcode or the street',
        },
      ],
    });
    expect(refused.data.message).toContain('Saint-Denis');
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
    // Written with its own postcode, it is placed.
    const right = await create(brand, order("1 Rue de la Légion d'Honneur, 93200 Saint-Denis"));
    expect(right.data.order.delivery_location).toEqual({
      lat: 48.935556,
      lng: 2.359722,
      precision: 'rooftop',
      source: 'geocoder',
    });
  });

  it('is corrected with PATCH: the new address checked again, its warnings recomputed', async () => {
    const brand = await createBrandWithKey(t.deps);
    await t.deps.webhooks.add(
      { brandId: brand.brandId, url: receiver.url(`/${brand.brandId}`) },
      testOperator,
    );
    const created = await create(brand, order('19 Rue Imaginaire 75001 Paris'));
    expect(created.data.order.address_warnings[0].code).toBe('address_uncertain');
    const ref = created.data.trackingRef;
    const fixed = await patch(brand, ref, { delivery_address: ARBRE_SEC.address });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.data.order.address_warnings).toEqual([]);
    expect(fixed.data.order.delivery_location).toEqual({
      lat: ARBRE_SEC.lat,
      lng: ARBRE_SEC.lng,
      precision: 'rooftop',
      source: 'geocoder',
    });
    expect(fixed.data.order.events.at(-1).note).toBe('Updated delivery_address');
    // Flagged again by a PATCH: its event, in the change's statement.
    await patch(brand, ref, { delivery_address: '12 Place Léon Blum, 75012 Paris' });
    const flagged = await eventsOf(brand.brandId, 'order.address_flagged');
    expect(flagged.map((e) => e.order.address_warnings[0]?.code)).toEqual([
      'address_uncertain',
      'postcode_mismatch',
    ]);
  });
});

describe('the geocoder slow or down', () => {
  it('never refuses an order: down, it is accepted with address_check_unavailable; the job places it once it answers', async () => {
    let now = Date.now();
    const app = await buildTestApp({
      config: { databaseUrl: scratch.url, geocoder: geocoderConfig(ban.url, { budgetMs: 2000 }) },
      clock: () => new Date(now),
    });
    try {
      const brand = await createBrandWithKey(app.deps);
      ban.setMode({ kind: 'down' });
      const created = await create(brand, order('10 Rue Keller, 75011 Paris'), app);
      expect(created.statusCode).toBe(200);
      expect(created.data.order.delivery_location).toEqual(POINT_OF_75011);
      expect(created.data.order.address_warnings.map((w: { code: string }) => w.code)).toEqual([
        'address_check_unavailable',
      ]);
      // Still down: the job leaves it due.
      expect((await app.deps.addressChecks.runDue()).left).toBe(true);
      ban.setMode({ kind: 'normal' });
      // Past the breaker's pause (30 s), the job asks again and stores the answer.
      now += 31_000;
      await app.deps.addressChecks.runDue();
      const read = await call(app.app, {
        method: 'GET',
        url: `${API}/orders/${created.data.trackingRef}`,
        headers: brand.headers,
      });
      expect(read.data.order.delivery_location).toEqual({
        lat: 48.854041,
        lng: 2.376398,
        precision: 'rooftop',
        source: 'geocoder',
      });
      expect(read.data.order.address_warnings).toEqual([]);
      const { rows } = await app.pool.query(
        'SELECT address_check_due_at FROM orders WHERE tracking_ref = $1',
        [created.data.trackingRef],
      );
      expect(rows[0].address_check_due_at).toBeNull();
    } finally {
      ban.setMode({ kind: 'normal' });
      await app.close();
    }
  });

  it('holds a creation no longer than its budget (address_check_pending); the job then flags it through the event', async () => {
    const app = await buildTestApp({
      config: {
        databaseUrl: scratch.url,
        webhooksAllowInsecure: true,
        geocoder: geocoderConfig(ban.url, { budgetMs: 300, timeoutMs: 15_000 }),
      },
    });
    try {
      const brand = await createBrandWithKey(app.deps);
      await app.deps.webhooks.add(
        { brandId: brand.brandId, url: receiver.url(`/${brand.brandId}`) },
        testOperator,
      );
      ban.setMode({ kind: 'slow', delayMs: 6000 });
      const started = Date.now();
      const created = await create(brand, order('7 Rue Inconnue 75011 Paris'), app);
      // Answered long before the geocoder (its budget is 300 ms).
      expect(Date.now() - started).toBeLessThan(6000);
      expect(created.statusCode).toBe(200);
      expect(created.data.order.address_warnings.map((w: { code: string }) => w.code)).toEqual([
        'address_check_pending',
      ]);
      ban.setMode({ kind: 'normal' });
      // The request still running stores its answer; the job finds it (or asks again).
      // (The worker's own minutely run may be the one that does it: the outcome is the same.)
      await eventually(async () => {
        await app.deps.addressChecks.runDue();
        const { rows } = await app.pool.query(
          'SELECT address_check_due_at FROM orders WHERE tracking_ref = $1',
          [created.data.trackingRef],
        );
        return rows[0].address_check_due_at === null;
      }, 30_000);
      const flagged = await eventsOf(brand.brandId, 'order.address_flagged');
      expect(flagged).toHaveLength(1);
      expect(flagged[0]!.order).toMatchObject({
        tracking_ref: created.data.trackingRef,
        address_warnings: [{ code: 'address_uncertain' }],
      });
    } finally {
      ban.setMode({ kind: 'normal' });
      await app.close();
    }
  });
});

describe('a fallback, counted and logged', () => {
  it('counts the orders placed without the geocoder’s word, and says once in the log that it is down', async () => {
    const metrics = createServiceMetrics();
    const logs: string[] = [];
    const store = addressPointsRepository(t.pool);
    const places = placeService({
      geocoder: banGeocoder({
        baseUrl: ban.url,
        timeoutMs: 2000,
        ratePerSecond: 40,
        log: (l) => logs.push(l),
      }),
      store,
      known: knownAddresses(store),
      clock: () => new Date(),
      budgetMs: 2000,
      timeoutMs: 2000,
      observer: metrics.places,
      log: (l) => logs.push(l),
    });
    const place = { postcode: '75011', city: 'Paris', zone: 'paris' as const };
    ban.setMode({ kind: 'down' });
    try {
      for (const n of [1, 2, 3]) {
        const placed = await places.placeDelivery(`${n} Rue Keller 75011 Paris`, place, null);
        expect(placed).toMatchObject({ checkDue: true, location: POINT_OF_75011 });
      }
    } finally {
      ban.setMode({ kind: 'normal' });
    }
    const exposition = (await metrics.exposition()).body;
    expect(exposition).toContain('dlv_geocoder_fallbacks_total{reason="unavailable"} 3');
    expect(exposition).toMatch(/dlv_geocoder_requests_total\{outcome="down"\} 3/);
    expect(logs.filter((l) => /geocoder .* unavailable .*postcode/.test(l))).toHaveLength(1);
    expect(exposition).toContain('dlv_address_cache_lookups_total{result="miss"} 3');
    // The breaker is open now: the next order is not even sent, and counted the same.
    await places.placeDelivery('4 Rue Keller 75011 Paris', place, null);
    expect((await metrics.exposition()).body).toContain(
      'dlv_geocoder_fallbacks_total{reason="unavailable"} 4',
    );
  });
});

describe('coordinates from the brand', () => {
  it('places the order at the brand’s point, trusted: the geocoder is not asked', async () => {
    const brand = await createBrandWithKey(t.deps);
    const asked = ban.requests.length;
    const created = await create(
      brand,
      order('12 rue Oberkampf 75011 Paris', { delivery_lat: 48.86371, delivery_lng: 2.36841 }),
    );
    expect(created.statusCode).toBe(200);
    expect(created.data.order.delivery_location).toEqual({
      lat: 48.86371,
      lng: 2.36841,
      precision: 'rooftop',
      source: 'brand',
    });
    expect(ban.requests).toHaveLength(asked);
    // PATCH moves it; both null place it again from its address.
    const ref = created.data.trackingRef;
    const moved = await patch(brand, ref, { delivery_lat: 48.858828, delivery_lng: 2.379506 });
    expect(moved.data.order.delivery_location).toMatchObject({ lat: 48.858828, source: 'brand' });
    expect(moved.data.order.events.at(-1).note).toBe('Updated delivery_location');
    const back = await patch(brand, ref, { delivery_lat: null, delivery_lng: null });
    expect(back.data.order.delivery_location.source).not.toBe('brand');
  });

  it.each([
    [{ delivery_lat: 48.86 }, 'delivery_lng', 'is required with delivery_lat'],
    [{ delivery_lng: 2.36 }, 'delivery_lat', 'is required with delivery_lng'],
    [{ delivery_lat: 91, delivery_lng: 2.36 }, 'delivery_lat', 'must be'],
    [{ delivery_lat: 48.86, delivery_lng: 181 }, 'delivery_lng', 'must be'],
    [{ delivery_lat: 48.8600001, delivery_lng: 2.36 }, 'delivery_lat', 'at most 6 decimals'],
    [{ delivery_lat: 45.764, delivery_lng: 4.8357 }, 'delivery_lat', 'outside Île-de-France'],
    [{ delivery_lat: 2.3522, delivery_lng: 48.8566 }, 'delivery_lat', 'look swapped'],
    [{ delivery_lat: '48.86', delivery_lng: 2.36 }, 'delivery_lat', ''],
  ])('refuses %j with a 400 naming the field; nothing stored', async (point, field, words) => {
    const brand = await createBrandWithKey(t.deps);
    const refused = await create(brand, order(LEON_BLUM.address, point));
    expect(refused.statusCode).toBe(400);
    expect(refused.data.error).toBe('invalid_request');
    expect(refused.data.details).toContainEqual({ field, message: expect.stringContaining(words) });
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
  });

  it('refuses a point without an address, and a bad point in a PATCH leaves the order as it was', async () => {
    const brand = await createBrandWithKey(t.deps);
    const alone = await create(brand, {
      customer_email: 'a@example.com',
      delivery_lat: 48.86,
      delivery_lng: 2.36,
    });
    expect(alone.statusCode).toBe(400);
    expect(alone.data.details).toEqual([
      { field: 'delivery_lat', message: expect.stringContaining('delivery_address') },
    ]);
    const created = await create(brand, order(LEON_BLUM.address));
    const before = await t.pool.query('SELECT json_rest, history FROM orders WHERE tracking_ref = $1', [
      created.data.trackingRef,
    ]);
    const refused = await patch(brand, created.data.trackingRef, { delivery_lat: 48.86, delivery_lng: 200 });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.details).toEqual([{ field: 'delivery_lng', message: expect.any(String) }]);
    const after = await t.pool.query('SELECT json_rest, history FROM orders WHERE tracking_ref = $1', [
      created.data.trackingRef,
    ]);
    expect(after.rows).toEqual(before.rows);
  });
});

describe('places learned from deliveries', () => {
  it('teaches an address the point where its parcel was delivered, for the next orders to it', async () => {
    const brand = await createBrandWithKey(offline.deps);
    const address = '42 Rue de la Roquette 75011 Paris';
    const first = await create(brand, order(address), offline);
    expect(first.data.order.delivery_location).toEqual(POINT_OF_75011);
    const ref = first.data.trackingRef as string;
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery'])
      await offline.deps.orders.setStatus(ref, status, null, testOperator);
    const [result] = await offline.deps.scans.apply({ courierId: null, locale: 'en', by: testOperator }, [
      {
        id: randomUUID(),
        context: 'door',
        code: ref,
        happened_at: new Date().toISOString(),
        outcome: 'delivered',
        received_by: 'Jane Doe',
        location: { latitude: 48.8551, longitude: 2.3746 },
      },
    ]);
    expect(result).toMatchObject({ result: 'applied', status: 'delivered' });
    const next = await create(brand, order('42 rue de la Roquette, 75011 PARIS'), offline);
    // Kept to ~100 m, as the proof's location is: a street's precision.
    expect(next.data.order.delivery_location).toEqual({
      lat: 48.855,
      lng: 2.375,
      precision: 'street',
      source: 'delivery',
    });
  });

  it('ignores a delivery point far from where the address was placed', async () => {
    expect(
      await offline.deps.places.learnFromDelivery(
        '5 Rue Keller 75011 Paris',
        { lat: 48.9, lng: 2.2 },
        { lat: 48.854041, lng: 2.376398, precision: 'rooftop', source: 'geocoder' },
      ),
    ).toBe(false);
    expect(
      await offline.deps.places.learnFromDelivery(
        '5 Rue Keller 75011 Paris',
        { lat: 45.76, lng: 4.83 },
        null,
      ),
    ).toBe(false);
  });
});

describe('POST /addresses/validate', () => {
  const validate = (brand: TestBrand, body: object, app = t) =>
    call(app.app, {
      method: 'POST',
      url: `${API}/addresses/validate`,
      headers: brand.headers,
      payload: body,
    });

  it('answers where an address is, its zone, sort code and warnings (any valid key)', async () => {
    const brand = await createBrandWithKey(t.deps, { scopes: ['invoices:read'] });
    const answer = await validate(brand, { address: '12 place leon blum', postcode: '75011' });
    expect(answer.statusCode).toBe(200);
    expect(answer.data).toEqual({
      ok: true,
      available: true,
      reason: null,
      address: '12 Place Léon Blum 75011 Paris',
      postcode: '75011',
      city: 'Paris',
      zone: 'paris',
      sort_code: 'PAR-11',
      score: expect.any(Number),
      precision: 'rooftop',
      location: { lat: LEON_BLUM.lat, lng: LEON_BLUM.lng, precision: 'rooftop', source: 'geocoder' },
      warnings: [],
    });
    const flagged = await validate(brand, { address: '12 Place Léon Blum 75012 Paris' });
    expect(flagged.data).toMatchObject({
      available: true,
      sort_code: 'PAR-12',
      warnings: [{ code: 'postcode_mismatch' }],
    });
  });

  it('says clearly when an order would be refused: out of zone, no postcode, another département', async () => {
    const brand = await createBrandWithKey(t.deps);
    expect((await validate(brand, { address: '1 place Bellecour 69002 Lyon' })).data).toMatchObject({
      available: false,
      reason: { code: 'out_of_zone' },
      location: null,
    });
    expect((await validate(brand, { address: 'rue sans code' })).data).toMatchObject({
      available: false,
      reason: { code: 'invalid_address' },
    });
    expect((await validate(brand, { address: "1 Rue de la Légion d'Honneur 75011" })).data).toMatchObject({
      available: false,
      reason: { code: 'invalid_address', message: expect.stringContaining('93200') },
    });
  });

  it('answers address_check_unavailable, not a 500, when the geocoder is down', async () => {
    const app = await buildTestApp({
      config: { databaseUrl: scratch.url, geocoder: geocoderConfig(ban.url) },
    });
    try {
      const brand = await createBrandWithKey(app.deps);
      ban.setMode({ kind: 'down' });
      const answer = await validate(brand, { address: '9 Rue Popincourt, 75011 Paris' }, app);
      expect(answer.statusCode).toBe(200);
      expect(answer.data).toMatchObject({
        available: true,
        location: POINT_OF_75011,
        warnings: [{ code: 'address_check_unavailable' }],
      });
    } finally {
      ban.setMode({ kind: 'normal' });
      await app.close();
    }
  });

  it('refuses a bad body with 400 and an unknown key with 401', async () => {
    const brand = await createBrandWithKey(t.deps);
    const empty = await validate(brand, { address: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.details[0].field).toMatch(/address/);
    expect((await validate(brand, { address: 'x', extra: 1 })).statusCode).toBe(400);
    const anonymous = await call(t.app, {
      method: 'POST',
      url: `${API}/addresses/validate`,
      payload: { address: LEON_BLUM.address },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('who sees an order’s place', () => {
  it('is never on the tracking page', async () => {
    const brand = await createBrandWithKey(t.deps);
    const created = await create(
      brand,
      order(LEON_BLUM.address, { delivery_lat: 48.863716, delivery_lng: 2.368385 }),
    );
    const token = new URL(created.data.order.tracking_url).pathname.split('/').pop();
    for (const lang of ['fr', 'en']) {
      const page = await call(t.app, { method: 'GET', url: `/track/${token}?lang=${lang}` });
      expect(page.statusCode).toBe(200);
      for (const text of [
        '48.86',
        '2.36',
        '48,86',
        '2,36',
        'latitude',
        'delivery_location',
        'rooftop',
        'geocoder',
      ])
        expect(page.body).not.toContain(text);
    }
  });

  it('is on the account area’s order page, with its warnings in the reader’s language', async () => {
    const user = await createUser(t.deps);
    const b = new Browser(t.app, '10.37.0.1');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const created = await t.deps.orders.create(
      { id: user.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
      order('3 Rue Imaginaire 75011 Paris'),
    );
    for (const [lang, words] of [
      ['fr', 'L’adresse n’a pas pu être trouvée avec certitude'],
      ['en', 'The address could not be found surely'],
    ] as const) {
      const page = await b.get(`/account/orders/${created.trackingRef}?lang=${lang}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(words);
      expect(page.body).toContain('48.857400, 2.379500');
    }
  });
});
