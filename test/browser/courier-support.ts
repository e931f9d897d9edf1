import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Deps } from '../../src/deps.ts';
import { createBrandWithKey, TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { pdfPagesToPng } from '../support/pdf-pages.ts';
import { writeY4m } from '../support/y4m.ts';
import { launchChromium } from './support.ts';

const PHONE = { width: 390, height: 844 };

/** An order of a new brand, and its real label (the PDF a brand prints) rendered to PNG by pdftoppm. */
export async function orderWithLabel(deps: Deps, recipient = 'Jeanne Martin') {
  const brand = await createBrandWithKey(deps);
  const order = await deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
    {
      customer_email: 'client@example.com',
      delivery_address: '12 rue Oberkampf 75011 Paris',
      delivery_recipient: recipient,
      delivery_phone: '+33612345678',
    },
  );
  const printed = await deps.labels.printOne(brand.brandId, order.trackingRef, { format: 'pdf', size: 'a6' });
  const [png] = await pdfPagesToPng(printed.body, 150);
  return { brand, order, png: png! };
}

/**
 * A headless Chromium whose camera is a video of `labelPng` (Chromium's fake capture device fed a
 * .y4m file written into a temporary directory), allowed to use it without asking.
 */
export async function cameraBrowser(labelPng: Buffer): Promise<{ browser: Browser; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'courier-camera-'));
  const video = join(dir, 'label.y4m');
  await writeY4m(labelPng, video, { width: 640, height: 480, frames: 5 });
  const browser = await launchChromium([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
  return {
    browser,
    async close() {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A phone: 390×844, touch, French or English, camera and position granted. */
export async function phoneContext(browser: Browser, locale = 'en-GB'): Promise<BrowserContext> {
  return browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale,
    permissions: ['camera', 'geolocation'],
    geolocation: { latitude: 48.86543, longitude: 2.37891 },
  });
}

/** Requests the page made to anywhere but the app, and what the browser's CSP refused. */
export function watchPage(page: Page, origin: string) {
  const elsewhere: string[] = [];
  const violations: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')) elsewhere.push(url);
  });
  page.on('pageerror', (error) => {
    errors.push(String(error));
    console.warn(`[courier page] ${error}`);
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return { elsewhere, violations, errors };
}

/** The items of the app's IndexedDB queue, as stored (files as their type and size). */
export function queueOf(page: Page): Promise<Array<Record<string, any>>> {
  // Given as text: it runs in the page, whose globals (indexedDB, Blob) the tests' types do not know.
  return page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('dlv-courier');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('queue').objectStore('queue').getAll();
      request.onerror = () => reject(request.error);
      request.onsuccess = () =>
        resolve(
          request.result.map((item) => ({
            ...item,
            files: item.files
              ? Object.fromEntries(Object.entries(item.files).map(([k, b]) => [k, { type: b.type, size: b.size }]))
              : undefined,
          })),
        );
    };
  })`);
}

let couriers = 0;

/** A courier to sign in from the app. */
export interface TestCourier {
  id: string;
  email: string;
  name: string;
  /** What the operator handed over: it works for the first sign-in only. */
  oneTimePassword: string;
  /** What the courier chooses at that first sign-in, and signs in with afterwards. */
  password: string;
  chosen: boolean;
}

/** A courier made through the domain as the operator makes one: with a one-time password. */
export async function newCourier(
  deps: Deps,
  name = 'Karim Benali',
  locale: 'fr' | 'en' = 'en',
): Promise<TestCourier> {
  const email = `courier.${Date.now()}.${++couriers}@dlv.example.com`;
  const { courier, oneTimePassword } = await deps.couriers.add({ email, name, locale }, testOperator);
  return {
    id: courier.id,
    email,
    name,
    oneTimePassword: oneTimePassword!,
    password: 'a tram to Oberkampf at dawn',
    chosen: false,
  };
}

/**
 * Signs in through the courier sign-in page, as a courier would, and lands on the app: the first
 * time with the one-time password, which leads to choosing the courier's own (then used after).
 */
export async function signInCourier(page: Page, origin: string, courier: TestCourier) {
  await page.goto(`${origin}/courier/login`);
  await page.fill('input[name=email]', courier.email);
  await page.fill('input[name=password]', courier.chosen ? courier.password : courier.oneTimePassword);
  if (!courier.chosen) {
    await Promise.all([
      page.waitForURL(`${origin}/courier/password`),
      page.click('main button[type=submit]'),
    ]);
    await choosePassword(page, origin, courier);
  } else {
    await Promise.all([page.waitForURL(`${origin}/courier/`), page.click('main button[type=submit]')]);
  }
  await page.waitForSelector('body[data-ready="true"]');
}

/** The first sign-in's password form: the courier's own password, typed twice → the app. */
async function choosePassword(page: Page, origin: string, courier: TestCourier) {
  await page.fill('#password', courier.password);
  await page.fill('#password_confirm', courier.password);
  await Promise.all([page.waitForURL(`${origin}/courier/`), page.click('main button[type=submit]')]);
  courier.chosen = true;
}
