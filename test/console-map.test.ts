import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';

/**
 * The console's Map (docs/console.md#map): its JSON and its list for a seeded day — the stops by
 * round in order, the pickups, the stops without a position, the positions of the couriers who
 * share theirs and no other's — and who may read them.
 */
let t: TestApp;
// A day of its own, so that no other file's rounds are on it (the map shows every round of the day).
const DAY = '2031-03-12';
let now = new Date(`${DAY}T08:00:00Z`);
let dispatcher: ConsoleOperator;
let support: ConsoleOperator;
let finance: ConsoleOperator;

// Real points of the 11th arrondissement (test/fixtures/addresses/paris.csv).
const POINTS = [
  { address: '5 Rue Keller', lat: 48.85459, lng: 2.376377 },
  { address: '46 Rue de la Folie-Méricourt', lat: 48.864441, lng: 2.371098 },
  { address: '19 Rue de la Roquette', lat: 48.854437, lng: 2.372542 },
];

let refs: string[] = [];
let pickupId = '';
let roundA = '';
let roundB = '';
let sharing = '';
let notSharing = '';
let brandId = '';

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
  const { deps } = t;
  const brand = await createBrandWithKey(deps, { name: 'Carte Blanche' });
  brandId = brand.brandId;
  const order = async (p: (typeof POINTS)[number]) =>
    (
      await deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: 'client@example.com',
          delivery_address: `${p.address} 75011 Paris`,
          delivery_recipient: 'Jeanne Martin',
          delivery_phone: '+33612345678',
          delivery_lat: p.lat,
          delivery_lng: p.lng,
        },
      )
    ).trackingRef;
  refs = [await order(POINTS[0]!), await order(POINTS[1]!), await order(POINTS[2]!), await order(POINTS[0]!)];
  // The fourth as an order created while the geocoder's answer is awaited: no point yet.
  await t.pool.query(
    `UPDATE orders SET delivery_lat = NULL, delivery_lng = NULL, delivery_location_precision = NULL,
            delivery_location_source = NULL WHERE tracking_ref = $1`,
    [refs[3]],
  );
  const pickup = await t.pool.query<{ pickup_id: string; pickup_date: string }>(
    `SELECT p.id AS pickup_id, p.pickup_date::text FROM orders o JOIN pickups p ON p.id = o.pickup_id
      WHERE o.tracking_ref = $1`,
    [refs[0]],
  );
  expect(pickup.rows[0]?.pickup_date).toBe(DAY);
  pickupId = pickup.rows[0]!.pickup_id;

  const courier = async (name: string) =>
    (
      await deps.couriers.add(
        { email: `${name.toLowerCase()}-${Date.now()}@couriers.example`, name },
        testOperator,
      )
    ).courier.id;
  sharing = await courier('Gil');
  notSharing = await courier('Noé');
  roundA = (
    await deps.rounds.create(
      {
        date: DAY,
        name: 'Map A — Paris 11',
        courierId: sharing,
        stops: [
          { pickup_id: pickupId },
          { tracking_ref: refs[0]! },
          { tracking_ref: refs[1]! },
          { tracking_ref: refs[3]! },
        ],
      },
      testOperator,
    )
  ).id;
  roundB = (
    await deps.rounds.create(
      { date: DAY, name: 'Map B — Paris 11', courierId: notSharing, stops: [{ tracking_ref: refs[2]! }] },
      testOperator,
    )
  ).id;
  // Round A is out; its courier shares their position; round B's courier does not.
  for (const ref of [refs[0]!, refs[1]!])
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery'])
      await deps.orders.setStatus(ref, status, null, testOperator);
  await deps.orders.setStatus(refs[0]!, 'delivered', null, testOperator);
  await deps.arrivals.setSharing(sharing, true);
  now = new Date(`${DAY}T08:30:00Z`);
  expect(
    await deps.arrivals.recordPosition(sharing, { latitude: 48.8601, longitude: 2.3702, accuracy: 12 }),
  ).toEqual({
    accepted: true,
  });
  // A position with no consent behind it is never shown (stopping sharing deletes them; this checks the read too).
  await t.pool.query(
    `INSERT INTO courier_positions (courier_id, recorded_at, round_id, lat, lng) VALUES ($1, $2, $3, 48.86, 2.37)`,
    [notSharing, now, roundB],
  );

  dispatcher = await consoleOperator(t.app, deps, 'dispatcher', () => now, '10.95.0.1');
  support = await consoleOperator(t.app, deps, 'support', () => now, '10.95.0.2');
  finance = await consoleOperator(t.app, deps, 'finance', () => now, '10.95.0.3');
});
afterAll(() => t.close());

describe('the map’s data', () => {
  it('gives the day’s stops by round in order, the pickups, the positions shared, and links to the orders', async () => {
    const res = await dispatcher.b.get('/console/map/data');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const map = JSON.parse(res.body);
    expect(map.date).toBe(DAY);
    expect(map.rounds).toEqual([
      { id: roundA, name: 'Map A — Paris 11', courier: 'Gil', colour: 0, stops: 4, done: 1 },
      { id: roundB, name: 'Map B — Paris 11', courier: 'Noé', colour: 1, stops: 1, done: 0 },
    ]);
    const stops = map.stops.map((s: Record<string, unknown>) => [s.round_id, s.position, s.kind, s.ref]);
    expect(stops).toEqual([
      [roundA, 1, 'pickup', pickupId],
      [roundA, 2, 'delivery', refs[0]],
      [roundA, 3, 'delivery', refs[1]],
      [roundA, 4, 'delivery', refs[3]],
      [roundB, 1, 'delivery', refs[2]],
    ]);
    const [pickup, delivered, out, unplaced] = map.stops;
    // The pickup at its address's postcode (75001), linked to its brand.
    expect(pickup).toMatchObject({
      precision: 'postcode',
      status: 'planned',
      done: false,
      href: `/console/brands/${brandId}`,
    });
    expect(pickup.lat).toBeCloseTo(48.86, 1);
    expect(delivered).toMatchObject({
      lat: POINTS[0]!.lat,
      lng: POINTS[0]!.lng,
      status: 'delivered',
      done: true,
      brand: 'Carte Blanche',
      href: `/console/orders/${refs[0]}`,
    });
    expect(out).toMatchObject({ status: 'out_for_delivery', done: false, lat: POINTS[1]!.lat });
    expect(unplaced).toMatchObject({ lat: null, lng: null, precision: null });
    expect(map.unplaced).toBe(1);
    // Only the courier who shares their position; never the other's.
    expect(map.couriers).toEqual([
      {
        id: sharing,
        name: 'Gil',
        round_id: roundA,
        lat: 48.8601,
        lng: 2.3702,
        accuracy_m: 12,
        at: `${DAY}T08:30:00.000Z`,
      },
    ]);
    // No recipient's data in the map.
    expect(res.body).not.toContain('Jeanne');
    expect(res.body).not.toContain('+33612345678');
  });

  it('shows one round (its stops and courier) when asked, and refuses a round not of the day', async () => {
    const one = JSON.parse((await support.b.get(`/console/map/data?round=${roundB}`)).body);
    expect(one.rounds).toHaveLength(2);
    expect(one.stops.map((s: { ref: string }) => s.ref)).toEqual([refs[2]]);
    expect(one.couriers).toEqual([]);
    const unknown = await support.b.get('/console/map/data?round=rnd_0000000000000000');
    expect(unknown.status).toBe(404);
  });

  it('lists the stops beside the map, the ones without a position first, each linked to its order', async () => {
    const page = await dispatcher.b.get('/console/map');
    expect(page.status).toBe(200);
    expect(page.body).toContain('1 stop(s) without a position');
    expect(page.body).toContain(`href="/console/orders/${refs[3]}"`);
    expect(page.body).toContain('Map A — Paris 11');
    expect(page.body).toContain('Gil — ');
    expect(page.body).not.toContain('Noé — ');
    expect(page.body).toContain('src="/console/static/map/leaflet.js"');
    // No tile URL set: the page names none, and the CSP stays the console's.
    expect(page.body).toContain('data-tiles=""');
    expect(String(page.headers['content-security-policy'])).toContain("img-src 'self' data:;");
    const list = await dispatcher.b.get(`/console/map/stops?lang=fr&round=${roundA}`);
    expect(list.body).toContain('1 arrêt(s) sans position');
    expect(list.body).not.toContain(refs[2]!);
    for (const file of ['leaflet.js', 'leaflet.css', 'map.js', 'map.css'])
      expect((await dispatcher.b.get(`/console/static/map/${file}`)).status, file).toBe(200);
  });
});

describe('who reads the map', () => {
  it('refuses no session and a brand’s session (to sign-in), and a role without rounds:read (403)', async () => {
    const anonymous = new Browser(t.app, '10.95.1.1');
    const brandUser = await createUser(t.deps);
    const brandBrowser = new Browser(t.app, '10.95.1.2');
    await brandBrowser.signIn(brandUser.email, PASSWORD);
    for (const url of ['/console/map', '/console/map/data', '/console/map/stops']) {
      for (const b of [anonymous, brandBrowser]) {
        const res = await b.get(url);
        expect(res.status, url).toBe(303);
        expect(res.location, url).toBe('/console/sign-in');
      }
      const refused = await finance.b.get(url);
      expect(refused.status, url).toBe(403);
      expect(refused.body).not.toContain(refs[0]!);
    }
    // The navigation shows the Map to the roles that open it only.
    expect((await support.b.get('/console/search')).body).toContain('<a href="/console/map">Map</a>');
    expect((await finance.b.get('/console/search')).body).not.toContain('href="/console/map"');
  });
});

describe('the tiles', () => {
  it('are a path of the console’s origin or an http(s) URL with {z}, {x} and {y}; unset, none', () => {
    expect(loadConfig({}).consoleMap).toEqual({ tileUrl: null, attribution: null });
    expect(
      loadConfig({ CONSOLE_MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png', CONSOLE_MAP_TILE_ATTRIBUTION: '© OSM' })
        .consoleMap,
    ).toEqual({ tileUrl: '/tiles/{z}/{x}/{y}.png', attribution: '© OSM' });
    for (const bad of [
      '//tiles.example/{z}/{x}/{y}.png',
      'ftp://tiles.example/{z}/{x}/{y}',
      '/tiles/{x}/{y}',
    ])
      expect(() => loadConfig({ CONSOLE_MAP_TILE_URL: bad }), bad).toThrow(
        /CONSOLE_MAP_TILE_URL must be a path/,
      );
    expect(() => loadConfig({ CONSOLE_MAP_TILE_URL: '/tiles/{z}/{x}.png' })).toThrow(
      'CONSOLE_MAP_TILE_URL must contain {z}, {x} and {y} (missing {y})',
    );
    expect(() => loadConfig({ CONSOLE_MAP_TILE_ATTRIBUTION: '<a href=x>OSM</a>' })).toThrow(
      /CONSOLE_MAP_TILE_ATTRIBUTION must be plain text/,
    );
  });

  it('are asked from the configured URL only, whose origin the map page alone allows for images', async () => {
    const tiled = await buildTestApp({
      clock: () => now,
      config: {
        consoleMap: { tileUrl: 'https://{s}.tiles.example/{z}/{x}/{y}.png', attribution: '© Tiles & co' },
      },
    });
    try {
      const admin = await consoleOperator(tiled.app, tiled.deps, 'admin', () => now, '10.95.2.1');
      const page = await admin.b.get('/console/map');
      expect(page.body).toContain('data-tiles="https://{s}.tiles.example/{z}/{x}/{y}.png"');
      expect(page.body).toContain('data-attribution="© Tiles &amp; co"');
      expect(String(page.headers['content-security-policy'])).toContain(
        "img-src 'self' data: https://*.tiles.example;",
      );
      const today = await admin.b.get('/console');
      expect(String(today.headers['content-security-policy'])).not.toContain('tiles.example');
    } finally {
      await tiled.close();
    }
  });
});
