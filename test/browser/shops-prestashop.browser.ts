import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/account-browser.ts';
import { TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { type FakePrestaShop, startFakePrestaShop } from '../support/fake-prestashop.ts';
import { CONNECTOR_KEY } from '../support/shopify.ts';
import { hasChromium, newPage, openStage, type Stage, shoot, signIn } from './support.ts';

/**
 * The Shops page's PrestaShop part in a real Chromium, against the fake PrestaShop on loopback: an
 * address refused under its field, a shop linked with its Webservice key (the connection id and the
 * secret shown once, with the module's settings), a push from the module on its card, a new secret.
 */
let stage: Stage;
let fake: FakePrestaShop;

describe.skipIf(!hasChromium)('the Shops page with a PrestaShop shop (Chromium)', () => {
  beforeAll(async () => {
    fake = await startFakePrestaShop();
    stage = await openStage({ config: { connectorsAllowInsecure: true, connectorSecretKey: CONNECTOR_KEY } });
  });
  afterAll(async () => {
    await stage?.close();
    await fake?.close();
  });

  it('links a shop, shows its secret once, its poll and pushes, and makes a new secret', async () => {
    const { deps } = stage.t;
    const brand = await deps.brands.create(
      { name: 'Maison Lumière', pickupAddress: TEST_PICKUP_ADDRESS },
      testOperator,
    );
    const user = await createUser(deps, { brandId: brand.id });
    fake.addShop('maison-lumiere');
    const key = fake.createKey('maison-lumiere').key;

    const page = await newPage(stage);
    await signIn(page, stage, user.email);
    await page.click('nav a[href="/account/shops"]');
    const form = 'form[action="/account/shops/prestashop/connect"]';

    await page.fill('#ps_url', 'http://10.0.0.12/boutique');
    await page.click(`${form} button[type=submit]`);
    expect(await page.textContent('#ps_url-error')).toContain('10.0.0.12 is not an allowed address');
    await shoot(page, 'account-shops-prestashop-error');

    await page.fill('#ps_url', fake.url('maison-lumiere'));
    await page.fill('#ps_key', key);
    await page.click(`${form} button[type=submit]`);
    expect(await page.textContent('h1')).toBe(`${fake.url('maison-lumiere')} is connected`);
    const id = (await page.textContent('[data-connection-id]'))!;
    const secret = (await page.textContent('[data-secret]'))!;
    await shoot(page, 'account-shops-prestashop-linked');

    // The module pushes a paid order; the card shows it, and the poll.
    const order = fake.createOrder('maison-lumiere');
    const pushed = await fake.pushOrder(
      `${stage.origin}/connectors/prestashop/orders`,
      { connectionId: id, secret },
      fake.pushPayload('maison-lumiere', order.id),
    );
    expect(pushed.status).toBe(200);
    await page.click('main a[href="/account/shops"]');
    const card = `section[data-connection="${id}"]`;
    expect(await page.textContent(card)).toContain('Last push received');
    expect(await page.getAttribute(`${card} [data-poll]`, 'data-poll')).toBe('on');
    await page.locator(card).scrollIntoViewIfNeeded();
    await shoot(page, 'account-shops-prestashop');

    await page.click(`${card} a[href$="/prestashop/secret"]`);
    expect(await page.textContent('main')).toContain('The current secret stops working at once');
    await page.click('button.danger');
    expect(await page.textContent('main')).toContain('The old secret no longer works.');
    expect(await page.textContent('[data-secret]')).not.toBe(secret);
    await shoot(page, 'account-shops-prestashop-rotated');

    await page.goto(`${stage.origin}/account/shops?lang=fr`);
    expect(await page.textContent(card)).toContain('Dernier envoi reçu du module');
    await shoot(page, 'account-shops-prestashop-fr');
  });
});
