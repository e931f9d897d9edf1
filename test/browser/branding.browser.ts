import { mkdir } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/account-browser.ts';
import { createBrandWithKey } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { createOrder } from '../support/orders.ts';
import { linkShop } from '../support/shopify.ts';
import { DOC_SHOTS, hasChromium, newPage, openStage, type Stage, signIn } from './support.ts';

/** The owner's recipient settings page and the tracking page in the brand's look, in a real Chromium. */
const SHOTS = DOC_SHOTS;
let stage: Stage;

/** A small wordmark as a brand would draw it: an emblem and the name, on a transparent ground. */
const WORDMARK = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="900" height="240">
  <circle cx="120" cy="120" r="96" fill="#0f766e"/>
  <path d="M72 150 L120 70 L168 150 Z" fill="#ffffff"/>
  <text x="250" y="150" font-family="DejaVu Serif, serif" font-size="96" font-weight="bold" fill="#13322f">Lumière</text>
</svg>`);

describe.skipIf(!hasChromium)('brand settings and the branded tracking page (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(() => stage?.close());

  it('lets the owner choose steps, name, colour and logo, then shows them on the tracking page', async () => {
    const brand = await createBrandWithKey(stage.t.deps, { name: 'Maison Lumière' });
    const owner = await createUser(stage.t.deps, { brandId: brand.brandId });
    await linkShop(stage.t.deps, brand.brandId, 'lumiere-paris.myshopify.com');
    const page = await newPage(stage);
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused/i.test(m.text())) refused.push(m.text());
    });
    await signIn(page, stage, owner.email);
    await page.click('nav a[href="/account/notifications"]');
    await page.waitForURL(`${stage.origin}/account/notifications`);
    expect(await page.locator('.linked-shops li').allTextContents()).toEqual([
      'lumiere-paris.myshopify.com (Shopify)',
    ]);

    // A mistake first: the form comes back with the colour marked and nothing saved.
    await page.fill('#colour', 'teal');
    await Promise.all([page.waitForLoadState('load'), page.click('form.settings button[type=submit]')]);
    expect(await page.locator('#colour-error').textContent()).toBe(
      'Colour: must be a colour written #rrggbb, such as #1a73e8',
    );
    expect((await stage.t.deps.recipientSettings.get(brand.brandId)).colour).toBeNull();

    await page.fill('#colour', '');
    await page.check('input[name="sms_steps"][value="out_for_delivery"]');
    await page.check('input[name="email_steps"][value="confirmed"]');
    await page.fill('#sender_name', 'Maison Lumière – Paris');
    // The picker alone (the text box left empty as shown): its colour is taken.
    await page.fill('input[type="color"]', '#0f766e');
    await page.selectOption('#locale', 'en');
    await Promise.all([
      page.waitForURL(`${stage.origin}/account/notifications?done=saved`),
      page.click('form.settings button[type=submit]'),
    ]);
    const png = await sharp(WORDMARK).png().toBuffer();
    await page.setInputFiles('#logo', { name: 'lumiere.png', mimeType: 'image/png', buffer: png });
    await Promise.all([
      page.waitForURL(`${stage.origin}/account/notifications?done=logo`),
      page.click('section.logo form[enctype] button[type=submit]'),
    ]);
    const preview = page.locator('.logo-preview img');
    expect(await preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(
      400,
    );
    const settings = await stage.t.deps.recipientSettings.get(brand.brandId);
    expect(settings).toMatchObject({
      emailSteps: ['confirmed', 'out_for_delivery', 'delivered', 'failed_attempt'],
      smsSteps: ['out_for_delivery'],
      senderName: 'Maison Lumière – Paris',
      colour: '#0f766e',
      locale: 'en',
    });
    await page.screenshot({ path: `${SHOTS}/account-notifications.png`, fullPage: true });

    // The recipient's page, on a phone.
    const ref = (await createOrder(stage.t.app, brand)).data.trackingRef;
    await stage.t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
    await stage.t.deps.orders.setStatus(ref, 'in_transit', null, testOperator);
    const { rows } = await stage.t.pool.query('SELECT tracking_token FROM orders WHERE tracking_ref = $1', [
      ref,
    ]);
    const phone = await stage.browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      locale: 'fr-FR',
    });
    const tracking = await phone.newPage();
    tracking.on('console', (m) => {
      if (/Content Security Policy|Refused/i.test(m.text())) refused.push(m.text());
    });
    await tracking.goto(`${stage.origin}/track/${rows[0].tracking_token}`);
    const logo = tracking.locator('img.brand-logo');
    expect(await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(400);
    const styleOf = (selector: string, property: 'backgroundColor' | 'color') =>
      tracking
        .locator(selector)
        .first()
        .evaluate((el, p) => el.ownerDocument.defaultView!.getComputedStyle(el)[p], property);
    const look = {
      bar: await styleOf('.topbar', 'backgroundColor'),
      name: await styleOf('.brand-name', 'color'),
      progress: await styleOf('.progress span', 'backgroundColor'),
    };
    expect(look).toEqual({
      bar: 'rgb(15, 118, 110)',
      name: 'rgb(255, 255, 255)',
      progress: 'rgb(15, 118, 110)',
    });
    expect(await tracking.locator('.brand-name').textContent()).toBe('Maison Lumière');
    await tracking.screenshot({ path: `${SHOTS}/tracking-branded-phone.png`, fullPage: true });
    await phone.close();
    expect(refused).toEqual([]);
  });
});
