import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/app.ts';
import { POPPLER } from '../support/pdf-pages.ts';
import {
  cameraBrowser,
  newCourier,
  orderWithLabel,
  phoneContext,
  queueOf,
  signInCourier,
  watchPage,
} from './courier-support.ts';
import { hasChromium } from './support.ts';

/**
 * The courier app's front end in a real Chromium at phone size, on the real app shell: the camera
 * (Chromium's fake camera playing a video of a real label) read by the app's own scanner, the
 * service worker opening the app offline, the queue kept in IndexedDB, a wrong code refused at once.
 */
let t: TestApp;
let origin: string;
let camera: Awaited<ReturnType<typeof cameraBrowser>>;
let label: Awaited<ReturnType<typeof orderWithLabel>>;

describe.skipIf(!hasChromium || !POPPLER)('courier app front end (Chromium, fake camera)', () => {
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    label = await orderWithLabel(t.deps);
    camera = await cameraBrowser(label.png);
  });
  afterAll(async () => {
    await camera?.close();
    await t?.close();
  });

  async function assetsOf(page: Page): Promise<string> {
    return JSON.parse((await page.locator('#courier-config').textContent())!).assets;
  }

  it('reads the label from the camera with its own decoder (no CDN, no CSP violation)', async () => {
    const context = await phoneContext(camera.browser);
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    await signInCourier(page, origin, await newCourier(t.deps));
    const assets = await assetsOf(page);
    // The app's scanner module, as the scan screen starts it, on a video element of the page.
    // Given as text: vitest would rewrite an import() written in this file for Node.
    const read: { codes: string[]; decoder: string } = await page.evaluate(`(async (base) => {
      const { startScanner } = await import(base + '/scanner.js');
      const video = document.createElement('video');
      document.body.append(video);
      return new Promise((resolve, reject) => {
        const codes = [];
        let stop = () => {};
        const timer = setTimeout(() => reject(new Error('nothing read; decoder ' + video.dataset.decoder)), 30_000);
        startScanner(video, {
          assets: base,
          onCode: (text) => {
            codes.push(text);
            clearTimeout(timer);
            setTimeout(() => {
              stop();
              resolve({ codes, decoder: video.dataset.decoder || '' });
            }, 1500);
          },
          onError: (what, err) => reject(new Error(what + ': ' + err)),
        }).then((s) => {
          stop = s;
        });
      });
    })(${JSON.stringify(assets)})`);
    // Linux Chromium has no BarcodeDetector: the WebAssembly reader served by the app did the work.
    expect(read.decoder).toBe('zxing');
    const ref = label.order.trackingRef;
    expect(read.codes.length).toBeGreaterThan(0);
    for (const code of read.codes) expect([ref, `${ref}|PAR-11|1/1`]).toContain(code);
    expect(watch.elsewhere).toEqual([]);
    expect(watch.violations).toEqual([]);
    await context.close();
  });

  it('opens offline from its service worker, queues a typed scan with its id and time, refuses a wrong code at once, keeps the queue through a sign-in, shows the server’s refusal', async () => {
    const context = await phoneContext(camera.browser);
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    const courier = await newCourier(t.deps);
    await signInCourier(page, origin, courier);
    // The worker is installed (shell and files cached) and controls the page once it has claimed it.
    // A function, not a string: the page's CSP (no 'unsafe-eval') refuses a string once polling starts.
    type InPage = { navigator: { serviceWorker: { controller: unknown } } };
    await page.waitForFunction(
      () => (globalThis as unknown as InPage).navigator.serviceWorker.controller !== null,
    );
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.locator('#courier-config').count()).toBe(1);
    await page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => page.locator('#offline').isVisible()).toBe(true);
    await page.click('#tab-scan');
    await page.click('#mode-hub');
    // A wrong code: said at once, nothing queued.
    await page.fill('#code', 'HELLO-123');
    await page.press('#code', 'Enter');
    await expect.poll(() => page.locator('#flash.error').textContent()).toContain('HELLO-123');
    expect(await queueOf(page)).toEqual([]);
    // A reference typed (lower case, as people do), and Enter.
    const before = Date.now();
    await page.fill('#code', label.order.trackingRef.toLowerCase());
    await page.press('#code', 'Enter');
    await expect.poll(() => page.locator('#waiting').getAttribute('data-count')).toBe('1');
    expect(await page.locator('#waiting').textContent()).toBe('1 waiting to be sent');
    const [item] = await queueOf(page);
    expect(item).toMatchObject({
      kind: 'scan',
      state: 'waiting',
      body: { context: 'hub', code: label.order.trackingRef },
    });
    expect(item!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(item!.body.id).toBe(item!.id);
    expect(Date.parse(item!.happened_at)).toBeGreaterThanOrEqual(before - 1000);
    // A reload offline keeps the queue (IndexedDB) and shows it.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => page.locator('#waiting').getAttribute('data-count')).toBe('1');

    // The session ends while offline: back online, the 401 sends the courier to sign in, and the
    // queue stays on the phone until then.
    await context.clearCookies();
    await context.setOffline(false);
    await page.waitForURL(`${origin}/courier/login`, { timeout: 20_000 });
    expect((await queueOf(page)).map((i) => i.id)).toEqual([item!.id]);
    await signInCourier(page, origin, courier);
    await expect
      .poll(() => page.locator('#waiting').getAttribute('data-count'), { timeout: 15_000 })
      .toBe('0');
    // A hub scan of a parcel never picked up: the server refuses it, the courier is told, nothing moved.
    await expect
      .poll(() => page.locator('#messages li').getAttribute('data-code'))
      .toBe('invalid_transition');
    const { rows } = await t.pool.query('SELECT id, result, problem FROM scans WHERE id = $1', [item!.id]);
    expect(rows).toEqual([{ id: item!.id, result: 'refused', problem: 'invalid_transition' }]);
    const { rows: order } = await t.pool.query('SELECT status FROM orders WHERE tracking_ref = $1', [
      label.order.trackingRef,
    ]);
    expect(order[0].status).toBe('pending');

    // Online now: the same scan again. The green "saved" line gives way to the server's refusal:
    // the screen says one thing (the red list), never "recorded" beside "refused".
    await page.click('#tab-scan');
    await page.click('#mode-hub');
    await page.fill('#code', label.order.trackingRef);
    await page.press('#code', 'Enter');
    await expect.poll(() => page.locator('#messages li').count()).toBe(2);
    await expect.poll(() => page.locator('#waiting').getAttribute('data-count')).toBe('0');
    expect(await page.locator('#flash').count()).toBe(0);
    expect(watch.elsewhere).toEqual([]);
    expect(watch.violations).toEqual([]);
    await context.close();
  });
});
