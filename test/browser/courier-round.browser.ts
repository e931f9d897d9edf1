import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parisToday } from '../../src/domain/calendar/paris-time.ts';
import { recipientEmail } from '../../src/domain/recipients/recipient-messages.ts';
import { createBrandWithKey, TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { buildScratchTestApp, type ScratchTestApp } from '../support/scratch-database.ts';
import { newCourier, phoneContext, signInCourier, watchPage } from './courier-support.ts';
import { hasChromium, launchChromium } from './support.ts';

/**
 * Issue 37 on a phone (390×844) in a real Chromium: a day planned by the optimiser from its hub for
 * a cargo bike, the courier's app listing the stops in the round's order, each with its "Navigate"
 * links (the phone's map app through a geo: URI, Google Maps, Waze, Apple Plans) and the distance
 * to the next stop, in French; and a recipient's tracking page once the round has left, saying how
 * many stops come before theirs and never giving a coordinate. Screenshots in docs/screenshots.
 */
const SHOTS = 'docs/screenshots';
// Real addresses of the 10th and 11th (test/fixtures/addresses/paris.csv) and their points.
const POINTS = [
  { address: '5 Rue Keller', lat: 48.85459, lng: 2.376377, name: 'Inès Garnier' },
  { address: '46 Rue de la Folie-Méricourt', lat: 48.864441, lng: 2.371098, name: 'Paul Lemaire' },
  { address: '19 Rue de la Roquette', lat: 48.854437, lng: 2.372542, name: 'Chloé Fabre' },
  { address: '200 Rue Saint-Maur', lat: 48.872432, lng: 2.371513, name: 'Yanis Moreau', postcode: '75010' },
  { address: '155 Avenue Parmentier', lat: 48.871691, lng: 2.369783, name: 'Léa Dubois', postcode: '75010' },
];
const HUB = { name: 'Hub Bastille', address: '10 rue de la Roquette 75011 Paris', lat: 48.8541, lng: 2.3722 };

let t: ScratchTestApp;
let browser: Browser;
let origin: string;
const day = parisToday(new Date());
const refs: string[] = [];
let courier: Awaited<ReturnType<typeof newCourier>>;

describe.skipIf(!hasChromium)('an optimised round on the phone (Chromium, 390×844)', () => {
  beforeAll(async () => {
    t = await buildScratchTestApp({
      config: { optimiser: { url: null, timeoutMs: 1000, timeLimitMs: 500 } },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });

    const brand = await createBrandWithKey(t.deps, { name: 'Atelier Keller' });
    for (const [i, p] of POINTS.entries()) {
      const order = await t.deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: `client-${i}@example.com`,
          delivery_address: `${p.address} ${'postcode' in p ? p.postcode : '75011'} Paris`,
          delivery_recipient: p.name,
          delivery_phone: `+3361234567${i}`,
          delivery_lat: p.lat,
          delivery_lng: p.lng,
        },
      );
      refs.push(order.trackingRef);
      await t.deps.orders.setStatus(order.trackingRef, 'picked_up', null, testOperator);
    }
    await t.pool.query('UPDATE orders SET promised_date = $1 WHERE tracking_ref = ANY($2)', [day, refs]);
    courier = await newCourier(t.deps, 'Karim Benali', 'fr');
    await t.deps.fleet.addHub(HUB, testOperator);
    await t.deps.fleet.addVehicle(
      { name: 'Vélo 1', kind: 'cargo_bike', capacityParcels: 30, capacityKg: 120, hub: HUB.name },
      testOperator,
    );
    await t.deps.fleet.setShift(
      { courier: courier.id, date: day, startsAt: '08:00', endsAt: '18:00', vehicle: 'Vélo 1' },
      testOperator,
    );
    const planned = await t.deps.rounds.planOptimised({ date: day }, testOperator);
    expect(planned.unplaced).toEqual([]);
    expect(planned.rounds).toHaveLength(1);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the stops in the round’s order with Navigate links and the distance to the next stop (FR)', async () => {
    const [round] = await t.deps.rounds.list(day, testOperator);
    const order = round!.stops.flatMap((s) => (s.kind === 'delivery' ? [s.order.tracking_ref] : []));
    expect([...order].sort()).toEqual([...refs].sort());

    const context = await phoneContext(browser, 'fr-FR');
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    await signInCourier(page, origin, courier);
    await page.waitForSelector('li.stop.delivery');
    // The round's order, not the postcode's nor the address's.
    expect(
      await page.locator('li.stop.delivery').evaluateAll((els) => els.map((e) => e.getAttribute('data-ref'))),
    ).toEqual(order);
    const stops = page.locator('li.stop.delivery');
    for (let i = 0; i < order.length; i++) {
      const stop = stops.nth(i);
      const point = POINTS[refs.indexOf(order[i]!)]!;
      const at = `${point.lat},${point.lng}`;
      expect(await stop.locator('a[data-nav=geo]').getAttribute('href')).toBe(`geo:${at}?q=${at}`);
      expect(await stop.locator('a[data-nav=geo]').textContent()).toBe('Y aller · Appli de cartes');
      expect(await stop.locator('a[data-nav=google_maps]').getAttribute('href')).toBe(
        `https://www.google.com/maps/dir/?api=1&destination=${at}`,
      );
      expect(await stop.locator('a[data-nav=waze]').getAttribute('href')).toBe(
        `https://waze.com/ul?ll=${at}&navigate=yes`,
      );
      expect(await stop.locator('a[data-nav=apple_maps]').textContent()).toBe('Plans');
      expect(await stop.locator('a[data-nav=apple_maps]').getAttribute('href')).toBe(
        `https://maps.apple.com/?daddr=${at}`,
      );
      // The last stop has no next one (and no estimate before the round leaves): no line at all.
      const facts = (await stop.locator('.way-facts').count())
        ? ((await stop.locator('.way-facts').textContent()) ?? '')
        : '';
      if (i < order.length - 1) expect(facts).toMatch(/^\d[\d ,]* (m|km) jusqu’à l’arrêt suivant$/);
      else expect(facts).not.toContain('arrêt suivant');
    }
    // Nothing wider than the phone: no sideways scrolling of the list.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/courier-round-phone.png`, fullPage: true });
    expect(watch.elsewhere).toEqual([]);
    expect(watch.violations).toEqual([]);
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('the tracking page says how many stops come before, and never gives a coordinate', async () => {
    const [round] = await t.deps.rounds.list(day, testOperator);
    const order = round!.stops.flatMap((s) => (s.kind === 'delivery' ? [s.order.tracking_ref] : []));
    // The round leaves the hub at 08:30: hub and loading scans.
    const scan = (context: string, ref: string, time: string) => ({
      id: randomUUID(),
      context,
      code: ref,
      happened_at: `${day}T${time}:00+01:00`,
    });
    await t.deps.scans.apply({ courierId: null, locale: 'fr', by: testOperator }, [
      ...order.map((ref) => scan('hub', ref, '08:00')),
      ...order.map((ref) => scan('loading', ref, '08:30')),
    ]);
    const third = order[2]!;
    const { rows } = await t.pool.query<{ tracking_token: string }>(
      'SELECT tracking_token FROM orders WHERE tracking_ref = $1',
      [third],
    );
    const context = await phoneContext(browser, 'fr-FR');
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    await page.goto(`${origin}/track/${rows[0]!.tracking_token}`);
    await expect.poll(() => page.locator('body').textContent()).toContain('2 arrêts avant le vôtre.');
    // Times as the recipient's e-mails write them in French: 08h30.
    expect(await page.locator('.fact.arrival time').textContent()).toMatch(/^entre \d\dh\d\d et \d\dh\d\d$/);
    const html = await page.content();
    for (const p of [...POINTS, HUB])
      for (const value of [p.lat, p.lng]) {
        expect(html).not.toContain(String(value));
        expect(html).not.toContain(String(value).replace('.', ','));
      }
    expect(html).not.toMatch(/\b(lat|lng|latitude|longitude)\b/i);
    expect(html).not.toMatch(/\b4[89]\.\d{3,}/);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/tracking-stops-before-phone.png`, fullPage: true });
    expect(watch.elsewhere).toEqual([]);
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('the recipient’s e-mail of a moved window reads well on a phone (FR)', async () => {
    const mail = recipientEmail({
      step: 'eta_changed',
      locale: 'fr',
      brandName: 'Atelier Keller',
      colour: '#0f766e',
      hasLogo: false,
      carrierName: 'Livraison Île-de-France',
      trackingRef: refs[0]!,
      trackingUrl: 'https://dlv.example.com/track/abc',
      changeUrl: 'https://dlv.example.com/track/abc/change',
      unsubscribeUrl: 'https://dlv.example.com/unsubscribe/xyz',
      promisedDate: day,
      window: { from: new Date(`${day}T10:00:00Z`), to: new Date(`${day}T12:00:00Z`) },
      at: new Date(),
    });
    expect(mail.subject).toBe('Atelier Keller : nouvel horaire de livraison');
    const context = await phoneContext(browser, 'fr-FR');
    const page = await context.newPage();
    await page.setContent(mail.html);
    expect(await page.locator('h1').textContent()).toBe('Votre livraison change d’horaire');
    expect(await page.locator('body').textContent()).toMatch(
      /finalement aujourd’hui entre \d\dh\d\d et \d\dh\d\d/,
    );
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/recipient-email-eta-changed-fr-390.png`, fullPage: true });
    await context.close();
  });
});
