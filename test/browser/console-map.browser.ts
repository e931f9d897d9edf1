import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrandWithKey, TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { consoleOperator } from '../support/console.ts';
import { hasChromium, openStage, type Stage } from './support.ts';

/**
 * The console's Map in a real Chromium against the real app on loopback: a dispatcher opens it on a
 * seeded day (three rounds, a pickup, a stop without a position, a courier sharing their position);
 * each round has its markers and its line, a marker's popup leads to its order, a stop done shows
 * without a reload; no request leaves the loopback (no tile URL set: no tile asked at all) and the
 * console's CSP is never violated. Screenshots at 1366×768 and 1920×1080 go to docs/screenshots/.
 */
if (!hasChromium)
  console.warn('console-map.browser.ts skipped: no Chromium at /usr/bin/chromium (CHROMIUM_PATH)');

const SHOTS = 'docs/screenshots';
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

// A day of its own (the map shows every round of the day, and the database is shared), in real time.
const DAY = '2031-03-19';
const started = Date.now();
const clock = () => new Date(Date.parse(`${DAY}T09:40:00Z`) + (Date.now() - started));

let stage: Stage;
beforeAll(async () => {
  if (!hasChromium) return;
  stage = await openStage({ clock });
  await mkdir(SHOTS, { recursive: true });
});
afterAll(async () => {
  if (hasChromium) await stage.close();
});

/** Points along a street-like line from `from`, about 250 m apart: a round's deliveries. */
const along = (from: [number, number], step: [number, number], n: number) =>
  Array.from({ length: n }, (_, i) => ({
    lat: Math.round((from[0] + step[0] * i) * 1e6) / 1e6,
    lng: Math.round((from[1] + step[1] * i) * 1e6) / 1e6,
  }));

async function seedDay() {
  const { deps } = stage.t;
  const brand = await createBrandWithKey(deps, { name: 'Maison Lumière' });
  const order = async (point: { lat: number; lng: number } | null, postcode: string) =>
    (
      await deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: 'client@example.com',
          delivery_address: `12 rue de la Roquette ${postcode} Paris`,
          delivery_recipient: 'Jeanne Martin',
          delivery_phone: '+33612345678',
          ...(point && { delivery_lat: point.lat, delivery_lng: point.lng }),
        },
      )
    ).trackingRef;
  const refsOf = async (points: { lat: number; lng: number }[], postcode: string) => {
    const refs = [];
    for (const p of points) refs.push(await order(p, postcode));
    return refs;
  };
  const a = await refsOf(along([48.8531, 2.3702], [0.0021, 0.0024], 6), '75011');
  const b = await refsOf(along([48.8781, 2.3523], [-0.0012, 0.0031], 5), '75010');
  const c = await refsOf(along([48.8702, 2.3921], [-0.0026, 0.0009], 4), '75020');
  // An order whose address the geocoder has not placed yet: listed beside the map, not drawn.
  const unplaced = await order(null, '75011');
  await stage.t.pool.query(
    `UPDATE orders SET delivery_lat = NULL, delivery_lng = NULL, delivery_location_precision = NULL,
            delivery_location_source = NULL WHERE tracking_ref = $1`,
    [unplaced],
  );
  const pickupId = (
    await stage.t.pool.query<{ pickup_id: string }>('SELECT pickup_id FROM orders WHERE tracking_ref = $1', [
      a[0],
    ])
  ).rows[0]!.pickup_id;
  const courier = async (name: string) =>
    (
      await deps.couriers.add(
        { email: `${name.split(' ')[0]!.toLowerCase()}-${Date.now()}@couriers.example`, name },
        testOperator,
      )
    ).courier.id;
  const gil = await courier('Gil Moreau');
  const lina = await courier('Lina Haddad');
  const round = async (name: string, courierId: string | null, stops: object[]) =>
    (await deps.rounds.create({ date: DAY, name, courierId, stops } as never, testOperator)).id;
  const roundA = await round('Paris 11 — morning', gil, [
    { pickup_id: pickupId },
    ...[...a, unplaced].map((r) => ({ tracking_ref: r })),
  ]);
  const roundB = await round(
    'Paris 10 — morning',
    lina,
    b.map((r) => ({ tracking_ref: r })),
  );
  const roundC = await round(
    'Paris 20 — afternoon',
    null,
    c.map((r) => ({ tracking_ref: r })),
  );
  // Round A is out, two stops done; Gil shares their position, Lina does not.
  for (const ref of a.slice(0, 4))
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery'])
      await deps.orders.setStatus(ref, status, null, testOperator);
  for (const ref of a.slice(0, 2)) await deps.orders.setStatus(ref, 'delivered', null, testOperator);
  await deps.arrivals.setSharing(gil, true);
  expect(
    await deps.arrivals.recordPosition(gil, { latitude: 48.8572, longitude: 2.3751, accuracy: 15 }),
  ).toEqual({ accepted: true });
  return { a, b, c, unplaced, roundA, roundB, roundC, gil };
}

interface Watched {
  page: Page;
  context: BrowserContext;
  requests: string[];
  violations: string[];
}

/** A page signed in with `cookie`, recording every request and every CSP complaint. */
async function watchedPage(cookie: string, locale = 'en-GB'): Promise<Watched> {
  const context = await stage.browser.newContext({ viewport: SIZES[0]!, locale });
  await context.addCookies([{ name: 'dlv_console', value: cookie, url: stage.origin }]);
  const requests: string[] = [];
  const violations: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
  return { page, context, requests, violations };
}

async function shoot(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // Leaflet follows its container's size; let it redraw before the picture.
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/console-${name}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(SIZES[0]!);
}

describe.skipIf(!hasChromium)('the console map in Chromium', () => {
  it('draws each round’s stops and line, the courier’s position; a marker leads to its order; live; loopback only', async () => {
    const day = await seedDay();
    const dispatcher = await consoleOperator(stage.t.app, stage.t.deps, 'dispatcher', clock, '10.96.0.1');
    const { page, context, requests, violations } = await watchedPage(
      dispatcher.b.cookies.get('dlv_console')!,
    );

    await page.goto(`${stage.origin}/console/map`);
    await page.locator('path.map-stop').first().waitFor();
    // Each round: its deliveries with a position, and its line.
    for (const [roundId, placed] of [
      [day.roundA, day.a.length],
      [day.roundB, day.b.length],
      [day.roundC, day.c.length],
    ] as const) {
      expect(await page.locator(`path.map-stop[data-round="${roundId}"]`).count(), roundId).toBe(placed);
      expect(await page.locator(`path.map-line[data-round="${roundId}"]`).count(), roundId).toBe(1);
    }
    expect(await page.locator(`path.map-stop.map-done[data-round="${day.roundA}"]`).count()).toBe(2);
    expect(await page.locator(`.map-pickup[data-round="${day.roundA}"]`).count()).toBe(1);
    expect(await page.locator(`path.map-courier[data-courier="${day.gil}"]`).count()).toBe(1);
    expect(await page.locator('.map-courier-label').textContent()).toBe('Gil Moreau');
    expect(await page.textContent('#map-list')).toContain('1 stop(s) without a position');
    expect(await page.locator(`path[data-ref="${day.unplaced}"]`).count()).toBe(0);
    await page.waitForSelector('#map-live.on');

    // A change shows without a reload (the board's stream): a stop delivered becomes a ring. The
    // board's watcher takes the day's first fingerprint within half a second of the stream's start
    // (board-watcher.ts): a change before that is only drawn by the next period.
    await page.waitForTimeout(700);
    const next = day.a[2]!;
    await stage.t.deps.orders.setStatus(next, 'delivered', null, testOperator);
    const changed = Date.now();
    await page.locator(`path.map-stop.map-done[data-ref="${next}"]`).waitFor({ timeout: 5000 });
    console.info(`a stop delivered shown on the map ${Date.now() - changed} ms after the change`);

    // The keyboard's way: focusing a stop's link in the list opens its marker's popup.
    await page.focus(`#map-list a[href="/console/orders/${day.b[1]}"]`);
    expect(await page.locator('.leaflet-popup-content').textContent()).toContain(day.b[1]!);
    await shoot(page, 'map');

    await page.click('.leaflet-popup-close-button');
    // Selecting a stop on the map: its popup, then its order.
    const target = day.b[2]!;
    await page.click(`path.map-stop[data-ref="${target}"]`);
    // (A closed popup fades out for a moment: the one that names the stop.)
    const link = page.locator('.leaflet-popup-content a', { hasText: target });
    expect(await link.getAttribute('href')).toBe(`/console/orders/${target}`);
    await Promise.all([page.waitForURL(`${stage.origin}/console/orders/${target}`), link.click()]);
    expect(await page.textContent('h1')).toContain(target);

    // One round, in French.
    await page.goto(`${stage.origin}/console/map?lang=fr&round=${day.roundA}`);
    await page.locator('path.map-stop').first().waitFor();
    expect(await page.locator('path.map-stop').count()).toBe(day.a.length);
    expect(await page.textContent('#map-list')).toContain('1 arrêt(s) sans position');
    await shoot(page, 'map-round-fr');

    const elsewhere = requests.filter((url) => new URL(url).hostname !== '127.0.0.1');
    expect(elsewhere).toEqual([]);
    expect(requests.filter((url) => /\{z\}|tile/i.test(url))).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('with CONSOLE_MAP_TILE_URL on another origin: tiles drawn from there, allowed by the page’s CSP, credited', async () => {
    // A tile server of our own on another loopback port (another origin): one pale pixel per tile.
    const pixel = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4+/fvfwAJ0gPkVbVuIwAAAABJRU5ErkJggg==',
      'base64',
    );
    let tiles = 0;
    const server = createServer((req, res) => {
      tiles += /^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '') ? 1 : 0;
      res.writeHead(200, { 'content-type': 'image/png' }).end(pixel);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tileOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tiled = await openStage({
      clock,
      config: { consoleMap: { tileUrl: `${tileOrigin}/{z}/{x}/{y}.png`, attribution: '© Test tiles & co' } },
    });
    try {
      const admin = await consoleOperator(tiled.t.app, tiled.t.deps, 'admin', clock, '10.96.0.2');
      const context = await tiled.browser.newContext({ viewport: SIZES[0]! });
      await context.addCookies([
        { name: 'dlv_console', value: admin.b.cookies.get('dlv_console')!, url: tiled.origin },
      ]);
      const violations: string[] = [];
      const page = await context.newPage();
      page.on('console', (m) => {
        if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${tiled.origin}/console/map`);
      await page.locator('img.leaflet-tile-loaded').first().waitFor();
      expect(tiles).toBeGreaterThan(0);
      expect(await page.textContent('.leaflet-control-attribution')).toBe('© Test tiles & co');
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      await tiled.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
