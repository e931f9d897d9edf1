import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openStage, type Stage } from './support.ts';

/**
 * The API reference (`/public/v1/docs`, Redoc served by the API itself) as a developer's browser
 * loads it (issue 40): every request the page makes is recorded, and any to an origin other than
 * the server's own loopback one — a CDN's script, font or logo — fails the test, as does anything
 * the page's CSP had to refuse. The page carries the product's own name, logo and contact, and
 * code samples in curl and the three SDKs. Screenshot at 1366×768 in docs/screenshots/.
 */
let stage: Stage;
const SHOTS = 'docs/screenshots';
const VIEWPORT = { width: 1366, height: 768 };

beforeAll(async () => {
  stage = await openStage();
  await mkdir(SHOTS, { recursive: true });
});
afterAll(() => stage?.close());

/** The page, loaded until Redoc has drawn the operations, with what it asked for along the way. */
async function openReference(hash = ''): Promise<{ page: Page; requests: string[]; refused: string[] }> {
  const context = await stage.browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' });
  const page = await context.newPage();
  const requests: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  // A request the CSP blocks may never reach the network layer: the console says so instead.
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  page.on('pageerror', (error) => refused.push(`page error: ${error.message}`));
  await page.goto(`${stage.origin}/public/v1/docs${hash}`, { waitUntil: 'networkidle' });
  await page.locator('a[href="#/orders/createorder"]').first().waitFor({ timeout: 30_000 });
  return { page, requests, refused };
}

describe.skipIf(!hasChromium)('the API reference page (Chromium)', () => {
  it('loads everything from its own origin: no CDN, font or logo from a third party', async () => {
    const { page, requests, refused } = await openReference();
    await page.screenshot({ path: `${SHOTS}/api-reference-1366x768.png` });
    // Scroll through the whole page: lazily drawn parts (samples, schemas) ask for their assets too.
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await page.waitForLoadState('networkidle');
    const origins = new Set(requests.map((url) => new URL(url).origin));
    const elsewhere = [...origins].filter(
      (origin) => origin !== stage.origin && origin !== 'null' && !origin.startsWith('data:'),
    );
    expect(elsewhere, requests.join('\n')).toEqual([]);
    for (const url of requests) {
      const { protocol, hostname } = new URL(url);
      if (protocol === 'data:' || protocol === 'blob:') continue;
      expect(hostname, url).toBe('127.0.0.1');
    }
    expect(refused).toEqual([]);
    // What it did load: the page, its script, Redoc's bundle, the logo and the OpenAPI document.
    for (const asset of [
      '/docs/reference.js',
      '/docs/redoc.standalone.js',
      '/docs/logo.svg',
      '/openapi.json',
    ])
      expect(
        requests.some((url) => url.endsWith(`/public/v1${asset}`)),
        asset,
      ).toBe(true);
    await page.context().close();
  });

  it('shows the product’s name, logo and contact, and code samples in curl and the three SDKs', async () => {
    const { page } = await openReference('#/orders/createorder');
    expect(await page.title()).toMatch(/API reference · Livraison DLV$/);
    const logo = page.locator('header.brand-bar img');
    expect(await logo.getAttribute('src')).toBe('/public/v1/docs/logo.svg');
    expect(await logo.getAttribute('alt')).toBe('Livraison DLV');
    // The logo is drawn (an SVG of our own, not a broken image).
    expect(await logo.evaluate((img: any) => img.naturalWidth as number)).toBeGreaterThan(0);
    const contact = page.locator('header.brand-bar a[href^="mailto:"]');
    expect(await contact.getAttribute('href')).toBe('mailto:api@dlv.example');
    expect(await page.getByRole('heading', { name: 'Create a delivery order' }).count()).toBeGreaterThan(0);

    // The create-order operation's samples: a language chooser with curl and the three SDKs, each a real call.
    let current = 'curl';
    const chooser = () => page.getByRole('button', { name: new RegExp(`^${current}`) }).first();
    await chooser().click();
    const languages = (await page.getByRole('menuitem').allInnerTexts()).map((text) => text.trim());
    expect(languages).toEqual(expect.arrayContaining(['curl', 'TypeScript', 'PHP', 'Python']));
    const sampleIn = async (language: string) => {
      if ((await page.getByRole('menuitem').count()) === 0) await chooser().click();
      await page
        .getByRole('menuitem')
        .filter({ hasText: new RegExp(`^\\s*${language}\\s*$`) })
        .first()
        .click();
      current = language;
      return page.locator('body').innerText();
    };
    const typescript = await sampleIn('TypeScript');
    expect(typescript).toContain("import { DlvClient } from '@dlv/sdk';");
    expect(typescript).toContain('await dlv.createOrder(');
    expect(await sampleIn('PHP')).toContain('$dlv->createOrder(');
    expect(await sampleIn('Python')).toContain('dlv.create_order(');
    const curl = await sampleIn('curl');
    expect(curl).toContain("curl -X POST 'http://127.0.0.1:");
    expect(curl).toContain('/public/v1/orders');
    expect(curl).toContain('-H "Idempotency-Key: $(uuidgen)"');

    // The operation as a developer first sees it: its heading at the top, the TypeScript SDK's sample.
    await sampleIn('TypeScript');
    await page
      .getByRole('heading', { name: 'Create a delivery order' })
      .first()
      .evaluate((heading: any) => heading.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/api-reference-create-order-1366x768.png` });
    await page.context().close();
  });
});
