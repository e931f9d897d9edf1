import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/account-browser.ts';
import { API } from '../support/app.ts';
import { hasChromium, newPage, onStage, openStage, type Stage, shoot, signIn } from './support.ts';

/**
 * A brand's first day, in a real Chromium: sign-up, the e-mailed link, sign-in, a key made with
 * step-up, an order created with it through the public API, the recipient's tracking page, and
 * the key rolled with no grace period.
 */
let stage: Stage;

describe.skipIf(!hasChromium)('a brand from sign-up to a rolled key (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('signs up, verifies, signs in, makes a key, orders with it, tracks it, rolls the key', async () => {
    const page = await newPage(stage);
    const email = uniqueEmail('browser');
    const api = (path: string, key: string, init: RequestInit = {}) =>
      fetch(`${stage.origin}${API}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
      });

    await page.goto(`${stage.origin}/account`);
    expect(page.url()).toBe(`${stage.origin}/account/sign-in`);
    await shoot(page, 'account-sign-in');
    await page.click('a[href="/account/sign-up"]');
    await page.fill('#company', 'Maison Chromium');
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('form button[type=submit]');
    await expect.poll(() => page.textContent('main')).toContain(email);
    await shoot(page, 'account-signed-up');

    const link = stage.smtp.linkTo(email, '/account/verify');
    expect(link).toBeTruthy();
    await page.goto(onStage(stage, link!));
    await page.click('form button[type=submit]');
    await expect.poll(() => page.textContent('main')).toContain('confirmed');

    await signIn(page, stage, email);
    expect(await page.textContent('main')).toContain('Maison Chromium');
    await shoot(page, 'account-home');

    await page.click('nav a[href="/account/keys"]');
    await page.fill('#name', 'Shop front');
    await page.check('input[name=scopes][value="orders:read"]');
    await page.check('input[name=scopes][value="orders:write"]');
    await page.fill('#password', PASSWORD); // step-up
    await page.click('form[action="/account/keys"] button[type=submit]');
    const key = (await page.textContent('.secret code'))!.trim();
    expect(key).toMatch(/^dlv_[0-9a-f]{64}$/);
    expect(page.url()).toMatch(/\/account\/keys\/key_[0-9a-f]{16}\/new$/); // reached by a redirect
    await shoot(page, 'account-key-created');
    // A reload shows the key no more, and creates none.
    await page.reload();
    expect(await page.textContent('main')).toContain('already been shown');
    expect(await page.locator('.secret').count()).toBe(0);

    const created = await api('/orders', key, {
      method: 'POST',
      body: JSON.stringify({
        customer_email: 'jane@example.com',
        pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
        delivery_address: '12 rue Oberkampf 75011 Paris',
        delivery_recipient: 'Jane Doe',
        delivery_phone: '06 12 34 56 78',
        amount_eur: 49.9,
      }),
    });
    const body = (await created.json()) as { order: { tracking_ref: string; tracking_url: string } };
    expect(created.status, JSON.stringify(body)).toBe(200);
    const order = body.order;

    // The account area's orders page is built on another branch: checked only where it exists.
    const orders = await page.goto(`${stage.origin}/account/orders`);
    if (orders?.status() === 200) {
      expect(await page.textContent('main')).toContain(order.tracking_ref);
      await shoot(page, 'account-orders');
    }

    // The recipient opens the link from the e-mail or SMS: no account, a fresh browser.
    const recipient = await newPage(stage);
    const tracking = await recipient.goto(onStage(stage, order.tracking_url));
    expect(tracking?.status()).toBe(200);
    const text = (await recipient.textContent('body'))!;
    expect(text).toMatch(/Order received|Commande enregistrée/);
    for (const personal of ['Jane Doe', 'jane@example.com', '06 12 34 56 78', 'Oberkampf'])
      expect(text).not.toContain(personal);
    await shoot(recipient, 'tracking');

    await page.goto(`${stage.origin}/account/keys`);
    await shoot(page, 'account-keys');
    await page.click('a[href$="/roll"]');
    await page.check('input[name=grace][value=now]');
    await shoot(page, 'account-key-roll');
    await page.click('form[action$="/roll"] button[type=submit]');
    const rolled = (await page.textContent('.secret code'))!.trim();
    expect(rolled).toMatch(/^dlv_[0-9a-f]{64}$/);
    expect(rolled).not.toBe(key);
    expect((await api('/me', key)).status).toBe(401);
    expect((await api('/me', rolled)).status).toBe(200);
    expect((await api(`/orders/${order.tracking_ref}`, rolled)).status).toBe(200);

    await page.goto(`${stage.origin}/account/keys`);
    expect(await page.textContent('main')).toContain('Shop front (rolled)');
    await shoot(page, 'account-keys-rolled');
  });
});
