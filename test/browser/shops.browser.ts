import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../../src/db/stores.ts';
import { createUser } from '../support/account-browser.ts';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify.ts';
import { linkShop, SHOPIFY_KEY, SHOPIFY_SECRET, shopifyConfig } from '../support/shopify.ts';
import { hasChromium, newPage, openStage, type Stage, shoot, signIn } from './support.ts';

/**
 * The Shops page in a real Chromium: a store connected through Shopify's OAuth (the fake Shopify on
 * loopback: authorize, then the redirect back to the app), its health and the sync problems, a bad
 * store name, and a disconnect confirmed on its own page.
 */
let stage: Stage;
let fake: FakeShopify;

describe.skipIf(!hasChromium)('the Shops page (Chromium)', () => {
  beforeAll(async () => {
    fake = await startFakeShopify({ apiKey: SHOPIFY_KEY, apiSecret: SHOPIFY_SECRET });
    // Shopify sends the browser back to the app's public address: the app must know its port.
    stage = await openStage({
      configForOrigin: (origin) => ({
        ...shopifyConfig({ adminOriginTemplate: fake.adminOriginTemplate }),
        publicBaseUrl: origin,
      }),
    });
  });
  afterAll(async () => {
    await stage?.close();
    await fake?.close();
  });

  it('connects a store through Shopify, shows its health and problems, and disconnects it', async () => {
    const { deps, pool } = stage.t;
    const user = await createUser(deps);
    // A link whose token the shop revoked, with what it could not sync.
    const broken = await linkShop(deps, user.brandId, 'atelier-nord.myshopify.com');
    // It synced this morning (a processed webhook), then the shop refused our token.
    const morning = new Date();
    await pool.query(
      `INSERT INTO connector_inbox (platform, delivery_id, shop, topic, payload, received_at, processed_at)
       VALUES ('shopify', 'browser-1', $1, 'orders/paid', '{}', $2, $2)`,
      [broken.shop, morning],
    );
    await deps.connections.markBroken(broken.id, 'Shopify refused the access token (401).');
    const problem = (
      name: string,
      kind: 'out_of_zone' | 'invalid_order',
      message: string,
      hoursAgo: number,
    ) =>
      storesOn(pool).connectorSync.recordProblem({
        connectionId: broken.id,
        brandId: user.brandId,
        kind,
        externalId: `gid://shopify/Order/82098291194615${name.slice(1)}`,
        externalName: name,
        message,
        at: new Date(Date.now() - hoursAgo * 3600_000),
      });
    await problem('#1041', 'out_of_zone', 'The shipping address is outside France (BE).', 30);
    await problem('#1052', 'invalid_order', 'The order has no usable customer e-mail.', 5);

    const page = await newPage(stage);
    await signIn(page, stage, user.email);
    await page.click('nav a[href="/account/shops"]');
    expect(await page.textContent('h1')).toBe('Shops');

    // A custom domain is not a store name Shopify knows: said on the form.
    await page.fill('#shop', 'maison-lumiere.fr');
    await page.click('form[action="/account/shops/connect"] button[type=submit]');
    expect(await page.textContent('.field-error')).toContain('must be your store’s name');
    await shoot(page, 'account-shops-error');

    // The real trip: the form (its POST starts the install), the link to Shopify's approval page,
    // the callback.
    fake.addShop('maison-lumiere.myshopify.com');
    await page.fill('#shop', 'maison-lumiere');
    await page.click('form[action="/account/shops/connect"] button[type=submit]');
    expect(await page.textContent('h1')).toBe('Connect maison-lumiere.myshopify.com');
    await shoot(page, 'account-shop-continue');
    await Promise.all([
      page.waitForURL(`${stage.origin}/account/shops?connected=maison-lumiere.myshopify.com`),
      page.click('main a.button'),
    ]);
    expect(await page.textContent('[role=status]')).toContain('maison-lumiere.myshopify.com is connected');
    expect(fake.shop('maison-lumiere.myshopify.com').carrierServices).toHaveLength(1);
    const [live] = (await deps.connections.list(user.brandId)).filter(
      (l) => l.connection.shop === 'maison-lumiere.myshopify.com',
    );
    const card = `section[data-connection="${live!.connection.id}"]`;
    expect(await page.textContent(card)).toContain('Syncing.');
    expect(await page.textContent(`section[data-connection="${broken.id}"]`)).toContain('refused our access');
    expect(await page.textContent('#problems')).toContain('#1052');
    await shoot(page, 'account-shops');

    // Settings, then the disconnect on its own confirmation page.
    await page.check(`${card} input[name=order_filter][value=all]`);
    await Promise.all([page.waitForURL(/saved=/), page.click(`${card} form.settings button[type=submit]`)]);
    expect(await page.textContent('[role=status]')).toContain('Settings saved');
    await page.click(`${card} a[href$="/disconnect"]`);
    await shoot(page, 'account-shop-disconnect');
    await page.click('button.danger');
    expect(await page.textContent('main')).toContain('Our webhooks and our rates were removed from the shop');
    expect(fake.shop('maison-lumiere.myshopify.com').carrierServices).toEqual([]);

    await page.goto(`${stage.origin}/account/shops?lang=fr`);
    expect(await page.textContent('h1')).toBe('Boutiques');
    await shoot(page, 'account-shops-fr');
  });
});
