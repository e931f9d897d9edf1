import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runner, startWorker } from '../../src/worker.ts';
import { createUser, PASSWORD } from '../support/account-browser.ts';
import { buildTestApp, call, type TestApp } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { POPPLER } from '../support/pdf-pages.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { eventually, type Receiver, startReceiver, verifyWith } from '../support/webhook-receiver.ts';
import { cameraBrowser, orderWithLabel, phoneContext, queueOf, watchPage } from './courier-support.ts';
import { DOC_SHOTS, hasChromium } from './support.ts';

/**
 * Issue #27's "done when", in a real Chromium at phone size on the real server: a courier signs in,
 * sees the day's round, scans a label with the camera (Chromium's fake camera playing a video of the
 * real label) → picked up; goes offline, scans three parcels and delivers one with a photo and a
 * signature; back online, everything is applied once, in order; a wedge scanner's scan works too.
 * Then the brand sees the proof through the API, its webhook and the account area, and the recipient
 * on the tracking page.
 */
const OPS_TOKEN = 'courier-journey-ops-token-0123456789';
const ops = { authorization: `Bearer ${OPS_TOKEN}` };

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let origin: string;
let runner: Runner;
let receiver: Receiver;
let camera: Awaited<ReturnType<typeof cameraBrowser>>;

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

async function historyOf(ref: string): Promise<string[]> {
  const { rows } = await t.pool.query<{ history: Array<{ status: string }> }>(
    'SELECT history FROM orders WHERE tracking_ref = $1',
    [ref],
  );
  return rows[0]!.history.map((event) => event.status);
}

async function scansOf(refs: string[]) {
  const { rows } = await t.pool.query<{
    id: string;
    context: string;
    tracking_ref: string;
    result: string;
    status_after: string | null;
    happened_at: Date;
    received_at: Date;
  }>(
    `SELECT s.id, s.context, o.tracking_ref, s.result, s.status_after, s.happened_at, s.received_at
       FROM scans s JOIN orders o ON o.id = s.order_id
      WHERE o.tracking_ref = ANY($1) ORDER BY s.happened_at, s.received_at`,
    [refs],
  );
  return rows;
}

const waitingOf = (page: Page) => page.locator('#waiting').getAttribute('data-count');

describe.skipIf(!hasChromium || !POPPLER)('the courier journey (Chromium, phone, fake camera)', () => {
  let label: Awaited<ReturnType<typeof orderWithLabel>>;
  const refs: string[] = [];
  let courier: { id: string; email: string; password: string };
  let webhookSecret: string;

  beforeAll(async () => {
    // A database of its own: the worker here must not take other files' jobs, nor they ours.
    scratch = await createScratchDatabase();
    t = await buildTestApp({
      config: { databaseUrl: scratch.url, opsToken: OPS_TOKEN, webhooksAllowInsecure: true },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    receiver = await startReceiver();
    runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 2 });
    label = await orderWithLabel(t.deps, 'Jeanne Martin');
    refs.push(label.order.trackingRef);
    webhookSecret = (
      await t.deps.webhooks.add({ brandId: label.brand.brandId, url: receiver.url('/brand') }, testOperator)
    ).secret;
    for (const recipient of ['Paul Durand', 'Amina Diallo']) {
      const order = await t.deps.orders.create(
        { id: label.brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
        {
          customer_email: 'client@example.com',
          delivery_address: '5 avenue Parmentier 75011 Paris',
          delivery_recipient: recipient,
          delivery_phone: '+33611223344',
        },
      );
      refs.push(order.trackingRef);
    }
    courier = await createCourier();
    await createRound(courier.id, refs);
    camera = await cameraBrowser(label.png);
  });
  // Each step bounded and named: once (in CI, on a loaded machine) the teardown overran the 60 s
  // hook timeout after the journey had passed, and the failure did not say which step hung.
  afterAll(async () => {
    const bounded = async (name: string, step: () => Promise<unknown> | undefined) => {
      const at = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const overran = new Promise<'overran'>((resolve) => {
        timer = setTimeout(() => resolve('overran'), 30_000);
      });
      const outcome = await Promise.race([Promise.resolve(step()).then(() => 'done' as const), overran]);
      clearTimeout(timer);
      if (outcome === 'overran') console.warn(`teardown: ${name} still running after 30 s; going on`);
      else if (Date.now() - at > 5_000) console.warn(`teardown: ${name} took ${Date.now() - at} ms`);
    };
    await bounded('camera browser', () => camera?.close());
    await bounded('worker', () => runner?.stop());
    await bounded('webhook receiver', () => receiver?.close());
    await bounded('app', () => t?.close());
    await bounded('scratch database', () => scratch?.drop());
  }, 180_000);

  async function createCourier() {
    const email = `courier.${Date.now()}@dlv.example.com`;
    const res = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/couriers',
      headers: ops,
      payload: { email, name: 'Karim Benali', locale: 'en' },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const data = res.data as Record<string, any>;
    const password = data.password ?? data.one_time_password;
    expect(typeof password).toBe('string');
    return { id: (data.courier?.id ?? data.id) as string, email, password: password as string };
  }

  async function createRound(courierId: string, stops: string[]) {
    const res = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/rounds',
      headers: ops,
      payload: {
        date: today(),
        name: 'PAR-11',
        courier_id: courierId,
        stops: stops.map((tracking_ref) => ({ tracking_ref })),
      },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }

  it('signs in, scans with the camera, works offline, and the brand and recipient see the proof', async () => {
    const [a, b, c] = refs as [string, string, string];
    const context = await phoneContext(camera.browser);
    const page = await context.newPage();
    const watch = watchPage(page, origin);

    // Sign in with the one-time password the operator handed over → choose one's own → the day.
    await page.goto(`${origin}/courier/`);
    await page.waitForURL(`${origin}/courier/login`);
    await page.fill('input[name=email]', courier.email);
    await page.fill('input[name=password]', courier.password);
    await page.screenshot({ path: `${DOC_SHOTS}/courier-sign-in.png` });
    // A phone's sign-in: full-width fields and a button a thumb hits (48 px and more), one above the other.
    const boxes = await Promise.all(
      ['input[name=email]', 'input[name=password]', 'main button[type=submit]'].map(
        async (s) => (await page.locator(s).boundingBox())!,
      ),
    );
    for (const box of boxes) {
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThan(300);
    }
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height);
    await Promise.all([
      page.waitForURL(`${origin}/courier/password`),
      page.click('main button[type=submit]'),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Choose your password');
    await page.fill('#password', 'a tram to Oberkampf at dawn');
    await page.fill('#password_confirm', 'a tram to Oberkampf at dawn');
    await page.screenshot({ path: `${DOC_SHOTS}/courier-password.png` });
    await Promise.all([page.waitForURL(`${origin}/courier/`), page.click('main button[type=submit]')]);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#courier-name').textContent()).toBe('Karim Benali');
    for (const ref of refs) await page.waitForSelector(`li.stop[data-ref="${ref}"]`);
    const stop = page.locator(`li.stop[data-ref="${a}"]`);
    expect(await stop.textContent()).toContain('Jeanne Martin');
    // The number a courier dials, as the label prints it; the link calls the full number.
    const dial = stop.locator('a[href^="tel:"]');
    expect(await dial.getAttribute('href')).toBe('tel:+33612345678');
    expect(await dial.textContent()).toBe('Call 06 12 34 56 78');
    // Parcels still to pick up: no door to offer yet.
    expect(await page.locator('li.stop button', { hasText: 'At the door' }).count()).toBe(0);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: `${DOC_SHOTS}/courier-day.png` });

    // At the door with a parcel still to pick up: said at once, no door screen, nothing queued.
    await page.click('#tab-scan');
    await page.click('#mode-door');
    await page.fill('#code', c);
    await page.press('#code', 'Enter');
    await expect.poll(() => page.locator('#flash.error').textContent()).toContain('not out for delivery yet');
    expect(await page.locator('#door').count()).toBe(0);
    expect(await queueOf(page)).toEqual([]);

    // The camera, at the pickup → picked_up.
    await page.click('#mode-pickup');
    await page.click('#camera-toggle');
    await expect
      .poll(() => page.locator('#recent li[data-state="applied"]').count(), { timeout: 30_000 })
      .toBe(1);
    expect(await page.locator('#scan-video').getAttribute('data-decoder')).toBe('zxing');
    expect(await historyOf(a)).toEqual(['pending', 'picked_up']);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: `${DOC_SHOTS}/courier-scan.png` });
    await page.click('#camera-toggle');
    // B and C typed at the pickup, online.
    for (const ref of [b, c]) {
      await page.fill('#code', ref);
      await page.press('#code', 'Enter');
    }
    await expect.poll(() => page.locator('#recent li[data-state="applied"]').count()).toBe(3);

    // Offline: three scans and a delivery with a photo and a signature, queued on the phone.
    await context.setOffline(true);
    await expect.poll(() => page.locator('#offline').isVisible()).toBe(true);
    await page.click('#mode-hub');
    for (const ref of [a, b]) {
      await page.fill('#code', ref);
      await page.press('#code', 'Enter');
    }
    await page.click('#mode-loading');
    await page.fill('#code', a);
    await page.press('#code', 'Enter');
    await expect.poll(() => waitingOf(page)).toBe('3');
    await page.click('#tab-day');
    // Its loading scan waits on the phone: the door is offered (B, only at the hub, is not).
    expect(await page.locator(`li.stop[data-ref="${b}"] button`, { hasText: 'At the door' }).count()).toBe(0);
    await page.locator(`li.stop[data-ref="${a}"] button`, { hasText: 'At the door' }).click();
    await page.waitForSelector('#door');
    await expect
      .poll(() =>
        page
          .locator('#door-video')
          .evaluate((video) => (video as unknown as { videoWidth: number }).videoWidth),
      )
      .toBeGreaterThan(0);
    await page.click('#take-photo');
    await page.waitForSelector('#photo-preview:not([hidden])');
    const pad = page.locator('#signature');
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 24; i++) {
      await page.mouse.move(
        box.x + 20 + i * ((box.width - 40) / 24),
        box.y + box.height / 2 + Math.sin(i / 2) * 25,
      );
    }
    await page.mouse.up();
    await page.fill('#received-by', 'Jeanne Martin');
    await expect.poll(() => page.locator('#door-position').textContent()).toBe('48.865, 2.379');
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: `${DOC_SHOTS}/courier-door.png`, fullPage: true });
    await page.click('#confirm-delivered');
    // The door screen closes once the delivery is on the phone.
    await page.waitForSelector('#door', { state: 'detached' });
    await expect.poll(() => waitingOf(page)).toBe('4');
    expect(await page.locator('#waiting').textContent()).toBe('4 waiting to be sent');
    const queue = await queueOf(page);
    expect(queue.map((item) => [item.kind, item.body.context, item.body.code])).toEqual([
      ['scan', 'hub', a],
      ['scan', 'hub', b],
      ['scan', 'loading', a],
      ['delivery', 'door', a],
    ]);
    expect(queue[3]!.files).toEqual({
      photo: { type: 'image/jpeg', size: expect.any(Number) },
      signature: { type: 'image/png', size: expect.any(Number) },
    });
    expect(queue[3]!.body).toMatchObject({
      outcome: 'delivered',
      received_by: 'Jeanne Martin',
      location: { latitude: 48.865, longitude: 2.379 },
    });
    // Nothing reached the server meanwhile.
    expect(await historyOf(a)).toEqual(['pending', 'picked_up']);

    // Online: sent in order, each applied once.
    await context.setOffline(false);
    await expect.poll(() => waitingOf(page), { timeout: 20_000 }).toBe('0');
    expect(await page.locator('#messages').count()).toBe(0);
    expect(await historyOf(a)).toEqual([
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(await historyOf(b)).toEqual(['pending', 'picked_up', 'in_transit']);
    const scans = await scansOf([a, b]);
    expect(scans.map((s) => [s.tracking_ref, s.context, s.result, s.status_after])).toEqual([
      [a, 'pickup', 'applied', 'picked_up'],
      [b, 'pickup', 'applied', 'picked_up'],
      [a, 'hub', 'applied', 'in_transit'],
      [b, 'hub', 'applied', 'in_transit'],
      [a, 'loading', 'applied', 'out_for_delivery'],
      [a, 'door', 'applied', 'delivered'],
    ]);
    expect(scans.slice(2).map((s) => s.id)).toEqual(queue.map((item) => item.id));
    // The phone's times, not the server's: each happened before it was received.
    for (const s of scans.slice(2)) expect(s.happened_at.getTime()).toBeLessThan(s.received_at.getTime());
    const { rows: attempts } = await t.pool.query(
      `SELECT a.outcome, a.received_by, a.photo_key, a.signature_key
         FROM delivery_attempts a JOIN orders o ON o.id = a.order_id WHERE o.tracking_ref = $1`,
      [a],
    );
    expect(attempts).toEqual([
      expect.objectContaining({
        outcome: 'delivered',
        received_by: 'Jeanne Martin',
        photo_key: expect.any(String),
        signature_key: expect.any(String),
      }),
    ]);

    // A wedge scanner: the code typed fast and Enter, with no field focused → loading B.
    await page.click('#tab-scan');
    await page.click('#mode-loading');
    await page.locator('#code').blur();
    await page.keyboard.type(b, { delay: 5 });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => historyOf(b), { timeout: 15_000 })
      .toEqual(['pending', 'picked_up', 'in_transit', 'out_for_delivery']);
    await expect.poll(() => waitingOf(page)).toBe('0');
    expect(watch.elsewhere).toEqual([]);
    expect(watch.violations).toEqual([]);

    // The brand: the API's proof, with signed URLs that serve the files.
    const brandHeaders = label.brand.headers;
    const order = await call(t.app, { method: 'GET', url: `/public/v1/orders/${a}`, headers: brandHeaders });
    expect(order.statusCode).toBe(200);
    const proof = order.data.order.proof_of_delivery;
    expect(proof).toMatchObject({
      received_by: 'Jeanne Martin',
      location: { latitude: 48.865, longitude: 2.379 },
      photo_url: expect.stringContaining('/proofs/'),
      signature_url: expect.stringContaining('/proofs/'),
    });
    for (const [url, type] of [
      [proof.photo_url, 'image/jpeg'],
      [proof.signature_url, 'image/png'],
    ] as const) {
      const file = await fetch(`${origin}${new URL(url, origin).pathname}${new URL(url, origin).search}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(type);
    }
    // Its webhooks: order.status_changed to delivered, and order.delivered with the proof (7-day URLs).
    const changed = await eventually(async () =>
      receiver.received.find(
        (r) =>
          r.json.type === 'order.status_changed' &&
          r.json.data?.order?.tracking_ref === a &&
          r.json.data.order.status === 'delivered',
      ),
    );
    expect(verifyWith(webhookSecret, changed)).toMatchObject({ type: 'order.status_changed' });
    const hook = await eventually(async () =>
      receiver.received.find(
        (r) => r.json.type === 'order.delivered' && r.json.data?.order?.tracking_ref === a,
      ),
    );
    const payload = verifyWith(webhookSecret, hook) as Record<string, any>;
    expect(payload.data.order.proof_of_delivery).toMatchObject({
      received_by: 'Jeanne Martin',
      location: { latitude: 48.865, longitude: 2.379 },
      photo_url: expect.stringContaining('/proofs/'),
      signature_url: expect.stringContaining('/proofs/'),
    });
    const hooked = new URL(payload.data.order.proof_of_delivery.photo_url);
    const photo = await fetch(`${origin}${hooked.pathname}${hooked.search}`);
    expect(photo.status).toBe(200);
    // Its account area: the order page shows who took it.
    const owner = await createUser(t.deps, { brandId: label.brand.brandId });
    const brandPage = await context.browser()!.newContext({ viewport: { width: 1280, height: 800 } });
    const account = await brandPage.newPage();
    await account.goto(`${origin}/account/sign-in`);
    await account.fill('#email', owner.email);
    await account.fill('#password', PASSWORD);
    await Promise.all([account.waitForURL(`${origin}/account`), account.click('button[type=submit]')]);
    await account.goto(`${origin}/account/orders/${a}`);
    expect(await account.locator('main').textContent()).toContain('Jeanne Martin');
    expect(await account.locator('main img').count()).toBeGreaterThan(0);
    // The recipient: the tracking page shows the delivery.
    const trackingUrl: string = order.data.order.tracking_url;
    await account.goto(`${origin}${new URL(trackingUrl).pathname}`);
    expect(await account.locator('main').textContent()).toMatch(/Delivered|Livré/);
    await brandPage.close();
    await context.close();
  });
});
