import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemDetails, ProblemKind } from '../src/connectors/connection.ts';
import { shopDomainFromForm } from '../src/connectors/shopify/account/routes.ts';
import { storesOn } from '../src/db/stores.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { type FakeShopify, startFakeShopify } from './support/fake-shopify.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import {
  authorizeHref,
  CONNECTOR_KEY,
  linkShop,
  newShop,
  SHOPIFY_KEY,
  SHOPIFY_SECRET,
  shopifyConfig,
} from './support/shopify.ts';

/**
 * The account area's Shops page: connecting a store (through Shopify's OAuth, here the fake),
 * the brand's links with their health and settings, disconnecting (with or without Shopify in
 * reach), the sync problems; roles, CSRF and other brands' links.
 */
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let fake: FakeShopify;
let t: TestApp;
let ip = 0;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  fake = await startFakeShopify({ apiKey: SHOPIFY_KEY, apiSecret: SHOPIFY_SECRET });
  t = await buildTestApp({
    config: {
      ...shopifyConfig({ adminOriginTemplate: fake.adminOriginTemplate }),
      databaseUrl: scratch.url,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await scratch?.drop();
});

async function signedIn(app: TestApp, options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(app.deps, options);
  const b = new Browser(app.app, `10.19.0.${++ip}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const statusOf = async (id: string) =>
  (
    await t.pool.query(
      'SELECT status, credentials IS NULL AS erased FROM connector_connections WHERE id = $1',
      [id],
    )
  ).rows[0] as { status: string; erased: boolean };

/** The merchant's whole trip: the form (which starts the install), Shopify's approval, the callback. */
async function connectThroughPage(b: Browser, typed: string, shop: string) {
  fake.addShop(shop);
  const sent = await b.submit('/account/shops', '/account/shops/connect', { shop: typed });
  expect(sent.status, sent.body).toBe(200);
  expect(sent.body).toContain(`<h1>Connect ${shop}</h1>`);
  const authorize = new URL(authorizeHref(sent.body));
  expect(authorize.pathname).toBe(`/${shop}/admin/oauth/authorize`);
  const callback = new URL(fake.approve(authorize.toString()));
  const landed = await b.get(`${callback.pathname}${callback.search}`);
  expect(landed.status, landed.body).toBe(303);
  return landed.location!;
}

const record = (
  connectionId: string,
  brandId: string,
  kind: ProblemKind,
  name: string,
  at: Date,
  details?: ProblemDetails,
) =>
  storesOn(t.pool).connectorSync.recordProblem({
    connectionId,
    brandId,
    kind,
    externalId: `gid://shopify/Order/${name.slice(1)}`,
    externalName: name,
    message: `${kind} for ${name}`,
    details,
    at,
  });

describe('the shop field', () => {
  it('takes a store name, its myshopify.com address or its admin address; refuses anything else', () => {
    expect(shopDomainFromForm('  Acme-Paris ')).toBe('acme-paris.myshopify.com');
    expect(shopDomainFromForm('https://acme.myshopify.com/admin')).toBe('acme.myshopify.com');
    expect(shopDomainFromForm('admin.shopify.com/store/acme/orders')).toBe('acme.myshopify.com');
    for (const bad of [
      '',
      'acme.com',
      'evil.com/.myshopify.com',
      'acme shop',
      '-acme',
      'a.myshopify.com.evil',
    ])
      expect(() => shopDomainFromForm(bad), bad).toThrow(/must be your store’s name/);
  });
});

describe('/account/shops', () => {
  it('connects a store through Shopify, lands on the page with a notice, and disconnects it there', async () => {
    const { b, brandId, userId } = await signedIn(t);
    const empty = await b.get('/account/shops');
    expect(empty.body).toContain('Connect a Shopify store');
    expect(empty.body).toContain('No shop connected yet.');
    expect(empty.body).toContain('href="/account/shops">Shops</a>');

    const shop = newShop();
    const landing = await connectThroughPage(b, shop.replace('.myshopify.com', '').toUpperCase(), shop);
    expect(landing).toBe(`/account/shops?connected=${shop}`);
    const page = await b.get(landing);
    expect(page.body).toContain(`${shop} is connected: its paid orders will now reach us.`);
    const [link] = await t.deps.connections.list(brandId);
    expect(link!.connection).toMatchObject({ shop, status: 'active' });
    expect(page.body).toContain(`data-connection="${link!.connection.id}" data-status="active"`);
    expect(fake.shop(shop).webhookSubscriptions.length).toBeGreaterThan(0);
    expect(fake.shop(shop).carrierServices).toHaveLength(1);

    // Connecting it again is refused on the form, before any trip to Shopify.
    const again = await b.submit('/account/shops', '/account/shops/connect', { shop });
    expect(again.status).toBe(409);
    expect(again.body).toContain('This store is already connected');
    // Through Shopify all the same (an install started in an old tab): the callback says so as a
    // page, and links nothing.
    const { state, authorizeUrl } = await t.deps.shopify!.linking.beginInstall({ brandId, userId, shop });
    b.cookies.set('dlv_shopify_state', state);
    const callback = new URL(fake.approve(authorizeUrl));
    const refused = await b.get(`${callback.pathname}${callback.search}`);
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toContain('This store is already connected. Disconnect it first');
    expect(refused.body).toContain('href="/account/shops"');
    expect(await t.deps.connections.list(brandId)).toHaveLength(1);

    // Disconnect: a confirmation page, a CSRF-checked POST; our registrations leave the shop.
    const id = link!.connection.id;
    const confirm = await b.get(`/account/shops/${id}/disconnect`);
    expect(confirm.body).toContain(`Disconnect ${shop}?`);
    expect((await b.post(`/account/shops/${id}/disconnect`, {})).status).toBe(403);
    expect((await statusOf(id)).status).toBe('active');
    const done = await b.post(`/account/shops/${id}/disconnect`, { _csrf: csrfOf(confirm.body) });
    expect(done.status).toBe(200);
    expect(done.body).toContain(`${shop} is disconnected and its access token is erased.`);
    expect(done.body).toContain('data-remote="removed"');
    expect(await statusOf(id)).toEqual({ status: 'disconnected', erased: true });
    expect(fake.shop(shop).webhookSubscriptions).toEqual([]);
    expect(fake.shop(shop).carrierServices).toEqual([]);
    const after = await b.get(`/account/shops?connected=${shop}`);
    expect(after.body).not.toContain('is connected');
    expect(after.body).toContain('Past connections');
    expect(after.body).not.toContain(`action="/account/shops/${id}/settings"`);
  });

  it('disconnects locally and says so when Shopify cannot be reached', async () => {
    const { b, brandId } = await signedIn(t);
    const shop = newShop();
    await connectThroughPage(b, shop, shop);
    const { connection } = (await t.deps.connections.list(brandId))[0]!;
    const subscriptions = fake.shop(shop).webhookSubscriptions.length;
    fake.setMode('down');
    try {
      const res = await b.submit(
        `/account/shops/${connection.id}/disconnect`,
        `/account/shops/${connection.id}/disconnect`,
        {},
      );
      expect(res.status).toBe(200);
      expect(res.body).toContain('data-remote="failed"');
      expect(res.body).toContain('Shopify could not be reached');
    } finally {
      fake.setMode('up');
    }
    expect(await statusOf(connection.id)).toEqual({ status: 'disconnected', erased: true });
    expect(fake.shop(shop).webhookSubscriptions).toHaveLength(subscriptions);
  });

  it('refuses a bad store name on the form, in English and in French, and starts nothing', async () => {
    const { b, brandId } = await signedIn(t);
    for (const typed of ['evil.com', 'evil.com/.myshopify.com', '']) {
      const res = await b.submit('/account/shops', '/account/shops/connect', { shop: typed });
      expect(res.status, typed).toBe(400);
      expect(res.body).toContain(
        'Your store: must be your store’s name (acme) or its myshopify.com address (acme.myshopify.com)',
      );
      expect(res.body).toContain('aria-invalid="true"');
    }
    const fr = await b.submit('/account/shops?lang=fr', '/account/shops/connect', { shop: 'acme.fr' });
    expect(fr.body).toContain('Votre boutique : doit être le nom de votre boutique (acme)');
    const installs = await t.pool.query('SELECT 1 FROM connector_installs WHERE brand_id = $1', [brandId]);
    expect(installs.rowCount).toBe(0);
  });

  it('shows each link’s health, the sync problems newest first, and saves the settings', async () => {
    const { b, brandId } = await signedIn(t, { role: 'developer' });
    const healthy = await linkShop(t.deps, brandId);
    const broken = await linkShop(t.deps, brandId);
    await t.deps.connections.markBroken(broken.id, 'Shopify refused the access token (401)');
    const day = (d: number) => new Date(Date.UTC(2026, 2, d, 9, 30));
    await record(healthy.id, brandId, 'out_of_zone', '#1001', day(2));
    await record(healthy.id, brandId, 'unpriceable', '#1002', day(4));
    await record(broken.id, brandId, 'invalid_address', '#2001', day(3));
    // The shop's last processed webhook is its last sync; one from before the link does not count.
    await t.pool.query(
      `INSERT INTO connector_inbox (platform, delivery_id, shop, topic, payload, received_at, processed_at)
       VALUES ('shopify', $1, $2, 'orders/paid', '{}', $3, $3), ('shopify', $4, $2, 'orders/paid', '{}', $5, $5)`,
      [`d-${healthy.id}-1`, healthy.shop, new Date(), `d-${healthy.id}-0`, day(1)],
    );

    const page = await b.get('/account/shops');
    const card = (id: string) =>
      page.body.slice(page.body.indexOf(`data-connection="${id}"`)).split('</section>')[0]!;
    expect(card(healthy.id)).toContain('Shopify — Syncing.');
    expect(card(healthy.id)).toContain('>2</a>');
    expect(card(healthy.id)).toContain('No price for this load');
    expect(card(healthy.id)).toContain('(#1002)');
    expect(card(healthy.id)).not.toContain('none yet');
    expect(card(broken.id)).toContain('data-status="broken"');
    expect(card(broken.id)).toContain('Shopify refused the access token (401)');
    expect(card(broken.id)).toContain('none yet');
    const problems = page.body.slice(page.body.indexOf('id="problems"'));
    const order = ['#1002', '#2001', '#1001'].map((n) =>
      problems.search(new RegExp(`data-label="Order"[^>]*>${n}<`)),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    // Worded from the kind (these carry no details), never the connector's English sentence.
    expect(page.body).toContain('The delivery address is outside the area we deliver.');
    expect(page.body).not.toContain('out_of_zone for #1001');

    // Settings: persisted, the notice names the shop; a tampered value changes nothing.
    const saved = await b.submit('/account/shops', `/account/shops/${healthy.id}/settings`, {
      order_filter: 'all',
      notify_customer: 'no',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/account/shops?saved=${healthy.id}`);
    expect(await t.deps.connections.get(brandId, healthy.id)).toMatchObject({
      orderFilter: 'all',
      notifyCustomer: false,
    });
    const shown = (await b.get(saved.location!)).body;
    expect(shown).toContain(`Settings saved for ${healthy.shop}.`);
    expect(shown).toMatch(/name="order_filter" value="all" checked/);
    expect(shown).toMatch(/name="notify_customer" value="no" checked/);
    const tampered = await b.submit('/account/shops', `/account/shops/${healthy.id}/settings`, {
      order_filter: 'everything',
      notify_customer: 'yes',
    });
    expect(tampered.status).toBe(400);
    expect(tampered.body).toContain('Orders to import: must be ours or all');
    expect((await t.deps.connections.get(brandId, healthy.id)).notifyCustomer).toBe(false);

    // The same page in French.
    const fr = await b.get('/account/shops?lang=fr');
    expect(fr.body).toContain('<h1>Boutiques</h1>');
    expect(fr.body).toContain('Synchronisation en cours.');
    expect(fr.body).toContain('Adresse hors de notre zone');
    expect(fr.body).toContain('Toutes les commandes payées avec une adresse de livraison');
  });

  it('words the sync problems in the brand’s language from their kind and details', async () => {
    const { b, brandId } = await signedIn(t);
    const link = await linkShop(t.deps, brandId);
    const at = new Date(Date.UTC(2026, 2, 5, 9, 30));
    await record(link.id, brandId, 'out_of_zone', '#3001', at, {
      code: 'invalid_field',
      field: 'delivery_address',
      problem: 'must be in Île-de-France',
    });
    await record(link.id, brandId, 'sync_failed', '#3002', at, {
      code: 'update_not_sent',
      tracking_ref: 'DLV-7K3M9Q2XHP',
      status: 'in_transit',
    });
    await record(link.id, brandId, 'invalid_address', '#3003', at, { code: 'outside_france', country: 'BE' });
    await record(link.id, brandId, 'unpriceable', '#3004', at);
    // A case this page has no words for (a newer connector's): its own sentence rather than nothing.
    await record(link.id, brandId, 'invalid_order', '#3005', at, { code: 'not_worded_yet' });

    const fr = (await b.get('/account/shops?lang=fr')).body;
    expect(fr).toContain(
      'L’adresse de livraison est hors de la zone que nous livrons. delivery_address : doit être en Île-de-France',
    );
    expect(fr).toContain(
      'Shopify n’a pas pris la mise à jour de DLV-7K3M9Q2XHP (En transit), malgré nos nouvelles tentatives.',
    );
    expect(fr).toContain('L’adresse de livraison est hors de France (BE).');
    expect(fr).toContain('Votre grille tarifaire n’a pas de prix');
    expect(fr).toContain('invalid_order for #3005');
    for (const english of ['out_of_zone for', 'sync_failed for', 'unpriceable for'])
      expect(fr).not.toContain(english);

    const en = (await b.get('/account/shops?lang=en')).body;
    expect(en).toContain(
      'Shopify did not take the update of DLV-7K3M9Q2XHP (In transit), despite our retries.',
    );
    expect(en).toContain('The shipping address is outside France (BE).');
  });

  it('lets the finance role read but not connect, change or disconnect', async () => {
    const owner = await signedIn(t);
    const link = await linkShop(t.deps, owner.brandId);
    const { b } = await signedIn(t, { role: 'finance', brandId: owner.brandId });
    const page = await b.get('/account/shops');
    expect(page.body).toContain(link.shop);
    expect(page.body).toContain('Owners and developers of your company connect and disconnect shops.');
    expect(page.body).toContain('Only orders shipped with our service');
    expect(page.body).not.toContain('action="/account/shops/connect"');
    expect(page.body).not.toContain('/disconnect');
    const csrf = csrfOf(page.body);
    expect((await b.post('/account/shops/connect', { _csrf: csrf, shop: newShop() })).status).toBe(403);
    const settings = { _csrf: csrf, order_filter: 'all', notify_customer: 'no' };
    expect((await b.post(`/account/shops/${link.id}/settings`, settings)).status).toBe(403);
    expect((await b.get(`/account/shops/${link.id}/disconnect`)).status).toBe(403);
    expect((await b.post(`/account/shops/${link.id}/disconnect`, { _csrf: csrf })).status).toBe(403);
    expect(await t.deps.connections.get(null, link.id)).toMatchObject({
      status: 'active',
      orderFilter: 'ours',
    });
  });

  it('never shows nor touches another brand’s link or problems', async () => {
    const mine = await signedIn(t);
    const theirs = await signedIn(t);
    const link = await linkShop(t.deps, theirs.brandId);
    await record(link.id, theirs.brandId, 'out_of_zone', '#9001', new Date());
    const page = await mine.b.get('/account/shops');
    expect(page.body).not.toContain(link.shop);
    expect(page.body).not.toContain('#9001');
    const csrf = csrfOf(page.body);
    expect((await mine.b.get(`/account/shops/${link.id}/disconnect`)).status).toBe(404);
    expect((await mine.b.post(`/account/shops/${link.id}/disconnect`, { _csrf: csrf })).status).toBe(404);
    const settings = { _csrf: csrf, order_filter: 'all', notify_customer: 'no' };
    expect((await mine.b.post(`/account/shops/${link.id}/settings`, settings)).status).toBe(404);
    // Nor does a forged notice name it.
    expect((await mine.b.get(`/account/shops?connected=${link.shop}`)).body).not.toContain('is connected');
    expect(await t.deps.connections.get(null, link.id)).toMatchObject({
      status: 'active',
      orderFilter: 'ours',
    });
  });
});

describe('without the Shopify app configured', () => {
  it('says the operator has not enabled it, and a disconnect says our registrations may remain', async () => {
    const off = await buildTestApp({
      config: { databaseUrl: scratch.url, connectorSecretKey: CONNECTOR_KEY },
    });
    try {
      const { b, brandId } = await signedIn(off);
      const link = await linkShop(off.deps, brandId);
      const page = await b.get('/account/shops');
      expect(page.body).toContain('the operator has not enabled the Shopify app');
      expect(page.body).not.toContain('action="/account/shops/connect"');
      expect(page.body).toContain(link.shop);
      expect(
        (await b.post('/account/shops/connect', { _csrf: csrfOf(page.body), shop: 'acme' })).status,
      ).toBe(404);
      const done = await b.submit('/account/shops', `/account/shops/${link.id}/disconnect`, {});
      expect(done.body).toContain('data-remote="failed"');
      expect(await statusOf(link.id)).toEqual({ status: 'disconnected', erased: true });
    } finally {
      await off.close();
    }
  });
});
