import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysOffered } from '../../src/domain/recipients/delivery-choices.ts';
import { deliverWebhook } from '../../src/jobs/webhooks-deliver.ts';
import { fanOutWebhookEvent } from '../../src/jobs/webhooks-fan-out.ts';
import { createBrandWithKey, TEST_PICKUP_ADDRESS, type TestBrand } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { buildSelfServiceApp, type SelfServiceTestApp } from '../support/self-service.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { watchPage } from './courier-support.ts';
import { DOC_SHOTS, hasChromium, launchChromium } from './support.ts';

/**
 * The recipient's self-service in a real Chromium at phone size, on the real server (decision
 * 0007): the tracking page → a code by e-mail (read from the loopback SMTP server) → a wrong code
 * (refused) → the right one → a door code, a safe place and another day → the brand's webhook
 * arrives and the promised day moved → the courier of that delivery, in the courier app on that
 * day, sees the door code on that stop only. Phone screenshots of each step: docs/images/recipient-*.png.
 */
const SHOTS = DOC_SHOTS;
const PHONE = { width: 390, height: 844 };
const EMAIL = 'camille.recipient@example.org';

let now = new Date();
let t: SelfServiceTestApp;
let origin: string;
let receiver: Receiver;
let brand: TestBrand;
let secret: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;

const parisToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(now);

describe.skipIf(!hasChromium)('the recipient changes the delivery (Chromium, phone)', () => {
  beforeAll(async () => {
    t = await buildSelfServiceApp({ clock: () => now, config: { webhooksAllowInsecure: true } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    receiver = await startReceiver();
    brand = await createBrandWithKey(t.deps, { name: 'Maison Lumière' });
    secret = (
      await t.deps.webhooks.add({ brandId: brand.brandId, url: receiver.url('/brand') }, testOperator)
    ).secret;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  async function order(recipient: string, address: string) {
    const created = await t.deps.orders.create(
      { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
      {
        customer_email: 'client@example.com',
        delivery_address: address,
        delivery_recipient: recipient,
        delivery_phone: '+33612345678',
        delivery_email: EMAIL,
      },
    );
    await t.deps.orders.setStatus(created.trackingRef, 'picked_up', null, testOperator);
    await t.deps.orders.setStatus(created.trackingRef, 'in_transit', null, testOperator);
    const { rows } = await t.pool.query(
      "SELECT tracking_token, to_char(promised_date, 'YYYY-MM-DD') AS promised FROM orders WHERE tracking_ref = $1",
      [created.trackingRef],
    );
    return {
      ref: created.trackingRef,
      token: rows[0].tracking_token as string,
      promised: rows[0].promised as string,
    };
  }

  const phone = async (locale: string) =>
    (
      await browser.newContext({
        viewport: PHONE,
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale,
      })
    ).newPage();
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${SHOTS}/recipient-${name}.png`, fullPage: true });

  it('code → wrong code → right code → door code, safe place, new day → webhook, and the courier sees it', async () => {
    const mine = await order('Camille Rousseau', '12 rue Oberkampf 75011 Paris');
    const neighbour = await order('Hugo Martin', '9 rue Oberkampf 75011 Paris');
    const page = await phone('fr-FR');
    const watch = watchPage(page, origin);

    // The tracking page links to the self-service.
    await page.goto(`${origin}/track/${mine.token}`);
    expect(await page.locator('h1').textContent()).toBe('Colis en transit');
    await shot(page, 'tracking');
    await Promise.all([page.waitForURL(/\/change\?lang=fr$/), page.click('text=Modifier ma livraison')]);

    // Where to send the code: no digit of the phone, no part of the address.
    const door = (await page.content()) as string;
    for (const personal of ['Camille', 'Rousseau', 'Oberkampf', '5678', 'camille.recipient', 'example.org'])
      expect(door).not.toContain(personal);
    await page.check('input[value=email]');
    await shot(page, 'code-request');
    await Promise.all([page.waitForURL(/sent=email/), page.click('button[type=submit]')]);
    expect(await page.locator('p.lead').textContent()).toContain('Un code vous a été envoyé par e-mail');
    const code = (await t.lastCode(EMAIL))!;
    expect(code).toMatch(/^\d{6}$/);
    expect(await page.content()).not.toContain(code);

    // A wrong code, refused with the tries left.
    await page.fill('#code', code === '000000' ? '111111' : '000000');
    await shot(page, 'code-entry');
    await Promise.all([page.waitForLoadState('load'), page.click('form[action*="/verify"] button')]);
    expect(await page.locator('.notice-error').textContent()).toBe(
      'Ce n’est pas le bon code. Essais restants : 4.',
    );
    expect(await page.locator('p.lead').textContent()).toContain('par e-mail');
    await shot(page, 'wrong-code');

    // The right one opens the form.
    await page.fill('#code', code);
    await Promise.all([page.waitForURL(/\/change\?lang=fr$/), page.click('form[action*="/verify"] button')]);
    const days = daysOffered(mine.promised, parisToday());
    const newDay = days[1]!;
    await page.fill('#instructions', 'Digicode 4821B, 3e étage porte gauche');
    await page.check('input[name=safe_place][value=caretaker]');
    await page.fill('#safe_place_detail', 'M. Dupont, loge au fond de la cour');
    await page.check(`input[name=date][value="${newDay}"]`);
    await shot(page, 'choices');
    await Promise.all([
      page.waitForURL(/saved=1/),
      page.click('form[action$="/change?lang=fr"] button[type=submit]'),
    ]);
    expect(await page.locator('.notice-done').textContent()).toMatch(
      /^Vos choix sont enregistrés\. Nouvelle date de livraison : /,
    );
    await shot(page, 'saved');
    expect(watch.elsewhere).toEqual([]);
    expect(watch.violations).toEqual([]);
    await page.context().close();

    // The brand's webhook: order.rescheduled, signed, with the new day.
    const { rows: events } = await t.pool.query(
      `SELECT id FROM outbox_events WHERE type = 'order.rescheduled' AND data->'order'->>'tracking_ref' = $1`,
      [mine.ref],
    );
    const [delivery] = await fanOutWebhookEvent(t.deps, events[0].id);
    expect(await deliverWebhook(t.deps, delivery!)).toBe('succeeded');
    const hook = receiver.received.find((r) => r.json.type === 'order.rescheduled')!;
    const signedAt = new Date(Number(hook.headers['webhook-timestamp']) * 1000);
    expect(hook.headers['webhook-signature']).toContain(
      new Webhook(secret).sign(hook.headers['webhook-id']!, signedAt, hook.body),
    );
    expect(hook.json.data).toMatchObject({
      previous_promised_date: mine.promised,
      changed_by: 'recipient',
      order: { tracking_ref: mine.ref, promised_date: newDay },
    });

    // The new day: the courier's round carries both parcels; the door code is on that stop only.
    now = new Date(`${newDay}T07:30:00Z`);
    const email = `courier.${Date.now()}@dlv.example.com`;
    const { courier } = await t.deps.couriers.add(
      {
        email,
        name: 'Karim Benali',
        password: 'correct-horse-battery-42',
        locale: 'en',
      },
      testOperator,
    );
    await t.deps.rounds.create(
      {
        date: newDay,
        name: `PAR-11 (${mine.ref.slice(4, 8)})`,
        courierId: courier.id,
        stops: [{ tracking_ref: neighbour.ref }, { tracking_ref: mine.ref }],
      },
      testOperator,
    );
    const app = await phone('en-GB');
    await app.goto(`${origin}/courier/`);
    await app.waitForURL(`${origin}/courier/login`);
    await app.fill('input[name=email]', email);
    await app.fill('input[name=password]', 'correct-horse-battery-42');
    await Promise.all([app.waitForURL(`${origin}/courier/`), app.click('button[type=submit]')]);
    await app.waitForSelector('body[data-ready="true"]');
    const stop = app.locator(`li.stop[data-ref="${mine.ref}"]`);
    await stop.waitFor();
    expect(await stop.locator('p.instructions').first().textContent()).toBe(
      'Instructions: Digicode 4821B, 3e étage porte gauche',
    );
    expect(await stop.locator('p.safe-place').textContent()).toBe(
      'If out, leave it: with the caretaker — M. Dupont, loge au fond de la cour',
    );
    const other = app.locator(`li.stop[data-ref="${neighbour.ref}"]`);
    expect(await other.locator('p.instructions').count()).toBe(0);
    await stop.scrollIntoViewIfNeeded();
    await app.screenshot({ path: `${SHOTS}/recipient-courier-stop.png` });
    await app.context().close();
  });
});
