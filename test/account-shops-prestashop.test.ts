import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialCipher } from '../src/connectors/credentials.ts';
import { openCredentials } from '../src/connectors/prestashop/shop-credentials.ts';
import { storesOn } from '../src/db/stores.ts';
import { newSecret } from '../src/domain/accounts/secrets.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type FakePrestaShop, startFakePrestaShop } from './support/fake-prestashop.ts';
import { runDlv } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { CONNECTOR_KEY, linkShop } from './support/shopify.ts';

/**
 * The Shops page's PrestaShop part, against the fake PrestaShop on loopback (CONNECTORS_ALLOW_INSECURE):
 * linking through the page (connection id and secret shown once; a refused address or key stores
 * nothing), the link's poll and pushes on its card, a Webservice key added or replaced, a new secret
 * (the old one refused at the next push); roles, CSRF, another brand's link, French; and
 * `dlv connectors resync`.
 */
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let fake: FakePrestaShop;
let t: TestApp;
let pushUrl: string;
let ip = 0;
let slugs = 0;
/** What the app seals shops' credentials with (CONNECTOR_SECRET_KEY), to read them back here. */
const cipher = credentialCipher(async () => CONNECTOR_KEY);

beforeAll(async () => {
  scratch = await createScratchDatabase();
  fake = await startFakePrestaShop();
  t = await buildTestApp({
    config: { databaseUrl: scratch.url, connectorsAllowInsecure: true, connectorSecretKey: CONNECTOR_KEY },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  pushUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/connectors/prestashop/orders`;
}, 30_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await scratch?.drop();
});

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const brandId =
    options.brandId ??
    (await t.deps.brands.create({ name: 'Maison Lumière', pickupAddress: TEST_PICKUP_ADDRESS }, testOperator))
      .id;
  const user = await createUser(t.deps, { ...options, brandId });
  const b = new Browser(t.app, `10.21.0.${++ip}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

/** A shop of the fake with a key that may do everything the bridge does. */
function newShop() {
  const slug = `ps-page-${process.pid}-${++slugs}`;
  fake.addShop(slug);
  return { slug, url: fake.url(slug), key: fake.createKey(slug).key };
}

const stored = async () =>
  (
    await t.pool.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM connector_connections) + (SELECT count(*) FROM prestashop_shops) AS n',
    )
  ).rows[0]!.n;

/** The module's push of a new paid order, signed with `secret`. */
function pushWith(slug: string, connectionId: string, secret: string) {
  const order = fake.createOrder(slug);
  return fake.pushOrder(pushUrl, { connectionId, secret }, fake.pushPayload(slug, order.id));
}

/** Links through the page; returns the page, the connection id and the secret it showed. */
async function linkThroughPage(b: Browser, url: string, key = '') {
  const page = await b.follow(
    b.submit('/account/shops', '/account/shops/prestashop/connect', { ps_url: url, ps_key: key }),
  );
  expect(page.status, page.body).toBe(200);
  const id = page.body.match(/<code data-connection-id>(con_[0-9a-f]{16})<\/code>/)![1]!;
  const secret = page.body.match(/<code data-secret>([A-Za-z0-9_-]{43})<\/code>/)![1]!;
  return { page: page.body, id, secret };
}

const card = (body: string, id: string) =>
  body.slice(body.indexOf(`data-connection="${id}"`)).split('</section>')[0]!;

describe('connecting a PrestaShop shop from the Shops page', () => {
  it('links it, shows the connection id and the secret once with the module’s settings, and lists it', async () => {
    const { b, brandId } = await signedIn();
    const empty = await b.get('/account/shops');
    expect(empty.body).toContain('Connect a PrestaShop shop');
    const shop = newShop();
    const { page, id, secret } = await linkThroughPage(b, `${shop.url}/`, ` ${shop.key} `);
    expect(page).toContain(`<h1>${shop.url} is connected</h1>`);
    expect(page).toContain('it is shown only on this page');
    for (const field of ['API key', 'API base URL', 'Connection id', 'Shop secret'])
      expect(page).toContain(`<dt>${field}</dt>`);
    expect(page).toContain('<code>http://127.0.0.1:3000</code>');
    expect(page).toContain('npm run package:connectors');
    expect(page).toContain('data-poll="on"');
    expect(page).not.toContain(shop.key);
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret, key: shop.key });

    // The secret is never shown again; the card shows the poll, and the push once one came.
    const listed = await b.get('/account/shops');
    expect(listed.body).not.toContain(secret);
    expect(card(listed.body, id)).toContain('PrestaShop — Syncing.');
    expect(card(listed.body, id)).toContain('data-poll="on"');
    expect(card(listed.body, id)).toMatch(/Orders read up to<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d <small/);
    expect(card(listed.body, id)).toMatch(/Last push received<\/dt><dd>none yet/);
    expect((await pushWith(shop.slug, id, secret)).status).toBe(200);
    expect(card((await b.get('/account/shops')).body, id)).toMatch(/Last push received<\/dt><dd><time/);
    expect((await t.deps.connections.list(brandId)).map((l) => l.connection.id)).toEqual([id]);

    // The same shop again: said under the address, nothing more stored.
    const before = await stored();
    const again = await b.submit('/account/shops', '/account/shops/prestashop/connect', {
      ps_url: shop.url,
      ps_key: '',
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatch(
      /id="ps_url-error">Shop address: The shop http:\/\/127\.0\.0\.1:\d+\/ps-page-\d+-\d+ is already linked/,
    );
    expect(await stored()).toBe(before);
  });

  it('refuses a bad address, a malformed, refused or too narrow key and an unreachable shop, storing nothing', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const narrow = fake.createKey(shop.slug, { orders: ['GET'] }).key;
    const before = await stored();
    const cases: [Record<string, string>, number, string, RegExp][] = [
      [{ ps_url: '' }, 400, 'ps_url', /Shop address: is required/],
      [{ ps_url: 'ftp://shop.example.fr' }, 400, 'ps_url', /Shop address: must use http or https/],
      [
        { ps_url: 'http://10.1.2.3/boutique' },
        400,
        'ps_url',
        /10\.1\.2\.3 is not an allowed address; the shop must be reachable at a public address$/,
      ],
      [{ ps_url: `${shop.url}?id_lang=1` }, 400, 'ps_url', /must not have a query or fragment/],
      [{ ps_url: shop.url, ps_key: 'short' }, 400, 'ps_key', /must be the 32-character Webservice key/],
      [{ ps_url: shop.url, ps_key: 'A'.repeat(32) }, 400, 'ps_key', /The shop refused the Webservice key/],
      [{ ps_url: shop.url, ps_key: narrow }, 400, 'ps_key', /The key needs: GET on orders/],
    ];
    for (const [form, status, field, message] of cases) {
      const res = await b.submit('/account/shops', '/account/shops/prestashop/connect', form);
      expect(res.status, JSON.stringify(form)).toBe(status);
      const error = res.body.match(new RegExp(`id="${field}-error">([^<]*)<`))?.[1];
      expect(error, JSON.stringify(form)).toMatch(message);
      expect(res.body).toContain(`aria-describedby="${field}-error"`);
      if (form.ps_key)
        expect(res.body).not.toContain(form.ps_key === 'short' ? 'value="short"' : form.ps_key);
    }
    fake.setMode(shop.slug, 'down');
    try {
      const down = await b.submit('/account/shops', '/account/shops/prestashop/connect', {
        ps_url: shop.url,
        ps_key: shop.key,
      });
      expect(down.status).toBe(502);
      expect(down.body).toMatch(/id="ps_url-error">Shop address: could not be reached; try again later/);
    } finally {
      fake.setMode(shop.slug, 'up');
    }
    // In French.
    const fr = await b.submit('/account/shops?lang=fr', '/account/shops/prestashop/connect', {
      ps_url: shop.url,
      ps_key: 'short',
    });
    expect(fr.body).toContain('Clé Webservice (facultative) : doit être la clé Webservice de 32 caractères');
    const frPrivate = await b.submit('/account/shops', '/account/shops/prestashop/connect', {
      ps_url: 'http://10.1.2.3/',
    });
    expect(frPrivate.body).toContain('Adresse de la boutique : n’est pas une adresse publique');
    expect(frPrivate.body).toContain('(10.1.2.3) : la boutique doit être joignable depuis internet');
    // A key that reads orders but may not write statuses back: the missing permissions are named.
    const readOnly = fake.createKey(shop.slug, {
      ...Object.fromEntries(
        ['orders', 'addresses', 'customers', 'countries', 'currencies', 'products', 'carriers'].map((r) => [
          r,
          ['GET'],
        ]),
      ),
      order_states: ['GET'],
      configurations: ['GET'],
      order_carriers: ['GET'],
    }).key;
    const frMissing = await b.submit('/account/shops', '/account/shops/prestashop/connect', {
      ps_url: shop.url,
      ps_key: readOnly,
    });
    expect(frMissing.status).toBe(400);
    expect(frMissing.body).toContain(
      'Clé Webservice (facultative) : il manque des droits à la clé Webservice (PUT order_carriers, POST order_histories)',
    );
    const enMissing = await b.submit('/account/shops?lang=en', '/account/shops/prestashop/connect', {
      ps_url: shop.url,
      ps_key: readOnly,
    });
    expect(enMissing.body).toMatch(
      /id="ps_key-error">[^<]*The Webservice key lacks permissions \(PUT order_carriers, POST order_histories\)/,
    );
    expect(await stored()).toBe(before);
  });

  it('refuses a form without its CSRF token and stores nothing', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const before = await stored();
    expect((await b.post('/account/shops/prestashop/connect', { ps_url: shop.url })).status).toBe(403);
    expect(await stored()).toBe(before);
  });
});

describe('a linked PrestaShop shop', () => {
  it('takes a Webservice key after the link (tried first), which turns the poll on and mends a broken link', async () => {
    const { b, brandId } = await signedIn({ role: 'developer' });
    const shop = newShop();
    const { id, secret } = await linkThroughPage(b, shop.url);
    let page = (await b.get('/account/shops')).body;
    expect(card(page, id)).toContain('data-poll="off"');
    expect(card(page, id)).toContain('Off (no Webservice key)');
    // Its status updates ask the shop to e-mail the customer as the link says: the choice is shown.
    expect(card(page, id)).toContain('Tracking e-mail to the customer');

    // A refused key: said under that card's field; nothing changes.
    const refused = await b.submit('/account/shops', `/account/shops/${id}/prestashop/key`, {
      ps_new_key: 'B'.repeat(32),
    });
    expect(refused.status).toBe(400);
    expect(card(refused.body, id)).toContain(
      `id="ps_new_key_${id}-error">New Webservice key: The shop refused the Webservice key`,
    );
    expect(await storesOn(t.pool).prestashopShops.find(id)).toMatchObject({
      pollEnabled: false,
      polledThrough: null,
    });

    const saved = await b.submit('/account/shops', `/account/shops/${id}/prestashop/key`, {
      ps_new_key: shop.key,
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/account/shops?saved=${id}`);
    const row = await storesOn(t.pool).prestashopShops.find(id);
    expect(row).toMatchObject({ pollEnabled: true, timeZone: 'Europe/Paris', deliveredStateId: 5 });
    expect(row!.polledThrough).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret, key: shop.key });
    page = (await b.get(saved.location!)).body;
    expect(page).toContain(`Settings saved for ${shop.url}.`);
    expect(card(page, id)).toContain('data-poll="on"');

    // The shop revokes the key: the link breaks; a new key mends it, the poll's mark kept.
    await t.deps.connections.markBroken(id, 'PrestaShop refused the Webservice key (401)');
    page = (await b.get('/account/shops')).body;
    expect(card(page, id)).toContain(
      'The shop refused the Webservice key: nothing is polled or written back',
    );
    const second = fake.createKey(shop.slug).key;
    expect(
      (await b.submit('/account/shops', `/account/shops/${id}/prestashop/key`, { ps_new_key: second }))
        .status,
    ).toBe(303);
    expect(await t.deps.connections.get(brandId, id)).toMatchObject({ status: 'active', statusReason: null });
    expect((await storesOn(t.pool).prestashopShops.find(id))!.polledThrough).toBe(row!.polledThrough);
    expect((await openCredentials(storesOn(t.pool), cipher, id))!.key).toBe(second);
  });

  it('rotates the shop secret after a confirmation: shown once, the old one refused at the next push', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { id, secret } = await linkThroughPage(b, shop.url, shop.key);
    expect((await pushWith(shop.slug, id, secret)).status).toBe(200);

    const confirm = await b.get(`/account/shops/${id}/prestashop/secret`);
    expect(confirm.body).toContain(`A new shop secret for ${shop.url}?`);
    expect(confirm.body).toContain('The current secret stops working at once');
    expect((await b.post(`/account/shops/${id}/prestashop/secret`, {})).status).toBe(403);
    expect((await pushWith(shop.slug, id, secret)).status).toBe(200);

    const done = await b.follow(
      b.post(`/account/shops/${id}/prestashop/secret`, { _csrf: csrfOf(confirm.body) }),
    );
    expect(done.status).toBe(200);
    expect(done.body).toContain('The old secret no longer works.');
    const fresh = done.body.match(/<code data-secret>([A-Za-z0-9_-]{43})<\/code>/)![1]!;
    expect(fresh).not.toBe(secret);
    expect((await pushWith(shop.slug, id, secret)).status).toBe(401);
    expect((await pushWith(shop.slug, id, fresh)).status).toBe(200);
    // The key is kept: the poll still runs.
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({
      secret: fresh,
      key: shop.key,
    });
    expect((await b.get('/account/shops')).body).not.toContain(fresh);
  });

  it('is disconnected with PrestaShop’s own words: the module to uninstall, its pushes refused', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { id, secret } = await linkThroughPage(b, shop.url);
    const confirm = await b.get(`/account/shops/${id}/disconnect`);
    expect(confirm.body).toContain('the module’s pushes are refused');
    const done = await b.post(`/account/shops/${id}/disconnect`, { _csrf: csrfOf(confirm.body) });
    expect(done.body).toContain('Uninstall the dlvshipping module');
    expect(done.body).not.toContain('Shopify');
    expect((await pushWith(shop.slug, id, secret)).status).toBe(401);
    // Nothing more to change on a disconnected link.
    expect(
      (await b.submit('/account/shops', `/account/shops/${id}/prestashop/key`, { ps_new_key: shop.key }))
        .status,
    ).toBe(400);
    expect((await b.get(`/account/shops/${id}/prestashop/secret`)).status).toBe(303);
  });

  it('lets finance people read the card but not link, add a key or rotate the secret', async () => {
    const owner = await signedIn();
    const shop = newShop();
    const { id, secret } = await linkThroughPage(owner.b, shop.url);
    const { b } = await signedIn({ role: 'finance', brandId: owner.brandId });
    const page = await b.get('/account/shops');
    expect(card(page.body, id)).toContain('data-poll="off"');
    expect(page.body).not.toContain('action="/account/shops/prestashop/connect"');
    expect(page.body).not.toContain('/prestashop/key');
    expect(page.body).not.toContain('/prestashop/secret');
    const csrf = csrfOf(page.body);
    const other = newShop();
    const before = await stored();
    expect(
      (await b.post('/account/shops/prestashop/connect', { _csrf: csrf, ps_url: other.url })).status,
    ).toBe(403);
    expect(
      (await b.post(`/account/shops/${id}/prestashop/key`, { _csrf: csrf, ps_new_key: shop.key })).status,
    ).toBe(403);
    expect((await b.get(`/account/shops/${id}/prestashop/secret`)).status).toBe(403);
    expect((await b.post(`/account/shops/${id}/prestashop/secret`, { _csrf: csrf })).status).toBe(403);
    expect(await stored()).toBe(before);
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret, key: null });
  });

  it('is the 404 page to another brand, and changes nothing', async () => {
    const theirs = await signedIn();
    const shop = newShop();
    const { id, secret } = await linkThroughPage(theirs.b, shop.url);
    const mine = await signedIn();
    const page = await mine.b.get('/account/shops');
    expect(page.body).not.toContain(shop.url);
    const csrf = csrfOf(page.body);
    expect(
      (await mine.b.post(`/account/shops/${id}/prestashop/key`, { _csrf: csrf, ps_new_key: shop.key }))
        .status,
    ).toBe(404);
    expect((await mine.b.get(`/account/shops/${id}/prestashop/secret`)).status).toBe(404);
    expect((await mine.b.post(`/account/shops/${id}/prestashop/secret`, { _csrf: csrf })).status).toBe(404);
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret, key: null });
  });

  it('shows its card in French', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { id } = await linkThroughPage(b, shop.url, shop.key);
    const fr = (await b.get('/account/shops?lang=fr')).body;
    expect(fr).toContain('Connecter une boutique PrestaShop');
    expect(card(fr, id)).toContain('PrestaShop — Synchronisation en cours.');
    expect(card(fr, id)).toContain('Dernier envoi reçu du module');
    expect(card(fr, id)).toContain('Commandes lues jusqu’au');
    const linked = await b.follow(
      b.submit('/account/shops', '/account/shops/prestashop/connect', { ps_url: newShop().url }),
    );
    expect(linked.body).toContain('Copiez le secret de la boutique maintenant');
  });
});

describe('a shop secret, shown once (post/redirect/get)', () => {
  const secretOf = (body: string) => body.match(/<code data-secret>([A-Za-z0-9_-]{43})<\/code>/)?.[1] ?? null;
  const links = async (brandId: string) => (await t.deps.connections.list(brandId)).length;

  it('linking answers with a redirect; the page shows the secret once, a reload shows none and links nothing more', async () => {
    const { b, brandId } = await signedIn();
    const shop = newShop();
    const posted = await b.submit('/account/shops', '/account/shops/prestashop/connect', {
      ps_url: shop.url,
      ps_key: shop.key,
    });
    expect(posted.status).toBe(303);
    expect(posted.location).toMatch(/^\/account\/shops\/con_[0-9a-f]{16}\/prestashop\/linked$/);
    expect(secretOf(posted.body)).toBeNull();
    const sealed = posted.setCookies.find((c) => c.startsWith('dlv_new_shop_secret='))!;
    expect(sealed).toMatch(/; HttpOnly/);
    expect(sealed).toMatch(/; Path=\/account\/shops/);

    const shown = await b.get(posted.location!);
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    const secret = secretOf(shown.body)!;
    const id = posted.location!.split('/')[3]!;
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret, key: shop.key });
    // The cookie held it sealed, never in clear.
    expect(sealed).not.toContain(secret);
    expect(shown.body).toContain('data-poll="on"');

    const reloaded = await b.get(posted.location!);
    expect(reloaded.status).toBe(410);
    expect(secretOf(reloaded.body)).toBeNull();
    expect(reloaded.body).toContain('already been shown');
    expect(await links(brandId)).toBe(1);
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret, key: shop.key });
  });

  it('a new secret answers with a redirect too: shown once, a reload makes no other', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { id, secret } = await linkThroughPage(b, shop.url);
    const confirm = await b.get(`/account/shops/${id}/prestashop/secret`);
    const posted = await b.post(`/account/shops/${id}/prestashop/secret`, { _csrf: csrfOf(confirm.body) });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/account/shops/${id}/prestashop/secret/new`);
    expect(secretOf(posted.body)).toBeNull();
    const shown = await b.get(posted.location!);
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    const fresh = secretOf(shown.body)!;
    expect(fresh).not.toBe(secret);
    const sealed = posted.setCookies.find((c) => c.startsWith('dlv_new_shop_secret='))!;
    expect(sealed).not.toContain(fresh);

    const reloaded = await b.get(posted.location!);
    expect(reloaded.status).toBe(410);
    expect(secretOf(reloaded.body)).toBeNull();
    expect(await openCredentials(storesOn(t.pool), cipher, id)).toEqual({ secret: fresh, key: null });
    // In French too.
    expect((await b.get(`${posted.location!}?lang=fr`)).body).toContain('déjà été affiché');
  });

  it('the reveal cookie works only for its session, its link and its page', async () => {
    const owner = await signedIn();
    const shop = newShop();
    const posted = await owner.b.submit('/account/shops', '/account/shops/prestashop/connect', {
      ps_url: shop.url,
    });
    const cookie = owner.b.cookies.get('dlv_new_shop_secret')!;
    const id = posted.location!.split('/')[3]!;
    // A colleague given the cookie sees nothing.
    const colleague = await signedIn({ brandId: owner.brandId });
    colleague.b.cookies.set('dlv_new_shop_secret', cookie);
    const stolen = await colleague.b.get(posted.location!);
    expect(stolen.status).toBe(410);
    expect(secretOf(stolen.body)).toBeNull();
    // The same session, on the new-secret page of the same link, sees nothing either.
    const other = await owner.b.get(`/account/shops/${id}/prestashop/secret/new`);
    expect(other.status).toBe(410);
    expect(secretOf(other.body)).toBeNull();
    // Another brand's link is the 404 page.
    const stranger = await signedIn();
    expect((await stranger.b.get(posted.location!)).status).toBe(404);
    expect((await stranger.b.get(`/account/shops/${id}/prestashop/secret/new`)).status).toBe(404);
  });
});

describe('an account whose e-mail address is not confirmed', () => {
  /** A brand made by sign-up in someone else's name: its only owner never confirmed the address. */
  async function unconfirmedBrand() {
    const brandId = (
      await t.deps.brands.create({ name: 'Squat SARL', pickupAddress: TEST_PICKUP_ADDRESS }, testOperator)
    ).id;
    return signedIn({ brandId, verified: false });
  }
  const lastInbox = async (connectionId: string) =>
    (
      await t.pool.query<{ id: number }>(
        "SELECT id FROM connector_inbox WHERE delivery_id LIKE $1 || ':%' ORDER BY id DESC LIMIT 1",
        [connectionId],
      )
    ).rows[0]!.id;
  const ordersOf = async (connectionId: string) =>
    (await t.pool.query('SELECT 1 FROM connector_orders WHERE connection_id = $1', [connectionId])).rowCount;
  /** A new shop of the fake, linked to the brand by the operator (no page, no owner involved). */
  async function operatorLink(brandId: string) {
    const shop = newShop();
    return { shop, ...(await t.deps.prestashop.linking.link({ brandId, url: shop.url })) };
  }
  /** The address's owner choosing a new password through the e-mailed reset link. */
  async function resetByLink(userId: string, password: string) {
    const reset = newSecret();
    await storesOn(t.pool).sessions.insertToken({
      hash: reset.hash,
      userId,
      purpose: 'reset_password',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await t.deps.accounts.resetPassword(reset.token, password);
  }
  const me = (key: string) =>
    t.app.inject({ url: '/public/v1/me', headers: { authorization: `Bearer ${key}` } });

  it('links no shop: the Shops page asks to confirm it first, and the form is refused, storing nothing', async () => {
    const { b } = await unconfirmedBrand();
    const page = await b.get('/account/shops');
    expect(page.body).toContain(
      'Confirm your e-mail address (see the link we sent) before connecting a shop',
    );
    expect(page.body).not.toContain('action="/account/shops/prestashop/connect"');
    const before = await stored();
    const shop = newShop();
    const res = await b.post('/account/shops/prestashop/connect', {
      _csrf: csrfOf(page.body),
      ps_url: shop.url,
      ps_key: shop.key,
    });
    expect(res.status).toBe(403);
    expect(await stored()).toBe(before);
    // In French too.
    expect((await b.get('/account/shops?lang=fr')).body).toContain(
      'Confirmez votre adresse e-mail (lien envoyé) avant de connecter une boutique',
    );
  });

  it('creates no delivery order from its shops’ signed pushes until an owner confirms', async () => {
    const { brandId, userId } = await unconfirmedBrand();
    // A link made before confirmation was required (here, by the operator).
    const { shop, connection, secret } = await operatorLink(brandId);
    expect((await pushWith(shop.slug, connection.id, secret)).status).toBe(200);
    const refused = await t.deps.prestashop.inbox.process(await lastInbox(connection.id));
    expect(refused).toMatch(/^problem invalid_order: No owner of this brand has confirmed/);
    expect(await ordersOf(connection.id)).toBe(0);
    const [problem] = await t.deps.connections.problems({ brandId, connectionId: connection.id });
    expect(problem!.details).toEqual({ code: 'owner_unconfirmed' });

    await storesOn(t.pool).users.markVerified(userId);
    expect((await pushWith(shop.slug, connection.id, secret)).status).toBe(200);
    expect(await t.deps.prestashop.inbox.process(await lastInbox(connection.id))).toMatch(/^created /);
    expect(await ordersOf(connection.id)).toBe(1);
  });

  it('loses its keys and shop secrets when the address’s real owner resets the password', async () => {
    const { brandId, userId, email } = await unconfirmedBrand();
    const { shop, connection, secret } = await operatorLink(brandId);
    const key = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read'] }, testOperator);
    expect((await me(key.key)).statusCode).toBe(200);

    // The real owner asks for a reset and opens the link in their inbox.
    await resetByLink(userId, `a-new-passphrase-${email.length}-ok`);

    expect((await me(key.key)).statusCode).toBe(401);
    expect(await t.deps.connections.get(null, connection.id)).toMatchObject({ status: 'disconnected' });
    expect((await pushWith(shop.slug, connection.id, secret)).status).toBe(401);
    const { rows } = await t.pool.query('SELECT action FROM key_events WHERE key_id = $1', [key.id]);
    expect(rows.map((r) => r.action)).toContain('revoked');

    // A confirmed owner's reset takes nothing away.
    const kept = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read'] }, testOperator);
    await resetByLink(userId, `another-passphrase-${email.length}-ok`);
    expect((await me(kept.key)).statusCode).toBe(200);
  });
  it('leaves alone what the operator made before the brand’s first owner arrived', async () => {
    const brandId = (
      await t.deps.brands.create({ name: 'Opéré SAS', pickupAddress: TEST_PICKUP_ADDRESS }, testOperator)
    ).id;
    const { shop, connection, secret } = await operatorLink(brandId);
    const key = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read'] }, testOperator);
    // The owner is invited afterwards and has not accepted yet.
    const { userId } = await createUser(t.deps, { brandId, verified: false });
    expect((await pushWith(shop.slug, connection.id, secret)).status).toBe(200);
    expect(await t.deps.prestashop.inbox.process(await lastInbox(connection.id))).toMatch(/^created /);
    // They choose a password through "forgot password" rather than the invitation: nothing is lost.
    await resetByLink(userId, 'an-owner-passphrase-77');
    expect((await me(key.key)).statusCode).toBe(200);
    expect((await t.deps.connections.get(null, connection.id)).status).toBe('active');
  });
});

describe('dlv connectors resync', () => {
  it('reads a PrestaShop shop’s orders again from --since, once each; refuses what it cannot resync', async () => {
    const { b, brandId } = await signedIn();
    const shop = newShop();
    // Paid three days before the link: the poll starts at the link and does not see it.
    const old = fake.createOrder(shop.slug, { at: new Date(Date.now() - 3 * 86400_000) });
    const { id } = await linkThroughPage(b, shop.url, shop.key);
    await t.deps.prestashop.poll.poll(id);
    const linked = () => storesOn(t.pool).connectorSync.findLink(id, String(old.id));
    expect(await linked()).toBeNull();

    const env = {
      DATABASE_URL: scratch.url,
      PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      CONNECTORS_ALLOW_INSECURE: '1',
      CONNECTOR_SECRET_KEY: CONNECTOR_KEY.toString('hex'),
    };
    const since = new Date(Date.now() - 4 * 86400_000).toISOString();
    const run = await runDlv(['connectors', 'resync', id, '--since', since, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      id,
      since,
      outcome: expect.stringMatching(/^1 orders seen/),
    });
    expect(await linked()).not.toBeNull();
    await t.deps.resync.resync(null, id, new Date(since));
    const { rows } = await t.pool.query('SELECT 1 FROM connector_orders WHERE connection_id = $1', [id]);
    expect(rows).toHaveLength(1);

    const future = await runDlv(['connectors', 'resync', id, '--since', '2999-01-01T00:00:00Z'], env);
    expect(future.code).not.toBe(0);
    expect(future.stderr).toContain('since: must not be in the future');
    expect((await runDlv(['connectors', 'resync', id, '--since', 'yesterday'], env)).stderr).toContain(
      'ISO 8601',
    );
    const pushOnly = await linkThroughPage(b, newShop().url);
    await expect(t.deps.resync.resync(null, pushOnly.id)).rejects.toThrow(/no Webservice key/);
    const shopify = await linkShop(t.deps, brandId);
    await expect(t.deps.resync.resync(null, shopify.id)).rejects.toThrow(/not available for shopify links/);
  });
});
