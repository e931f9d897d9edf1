import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { newShop, SHOPIFY_KEY, SHOPIFY_SECRET, shopifyConfig } from './support/shopify.ts';

/**
 * Installing from the account area: the install is bound to the signed-in person's brand and to
 * their browser; the callback's signature, shop, state and age are checked before any exchange.
 * (The full exchange with Shopify is covered with the fake Shopify.)
 */
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let ip = 0;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { ...shopifyConfig(), databaseUrl: scratch.url } });
});
afterAll(async () => {
  await t?.close();
  await scratch?.drop();
});

async function signedIn(role: 'owner' | 'developer' | 'finance' = 'owner') {
  const user = await createUser(t.deps, { role });
  const b = new Browser(t.app, `10.18.0.${++ip}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

/** The query Shopify's redirect carries, signed as Shopify signs it (hex HMAC of the sorted rest). */
function signedCallback(params: Record<string, string>, secret = SHOPIFY_SECRET) {
  const message = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const hmac = createHmac('sha256', secret).update(message).digest('hex');
  return `/connectors/shopify/callback?${new URLSearchParams({ ...params, hmac })}`;
}

const nowSeconds = () => String(Math.floor(Date.now() / 1000));

async function startInstall(b: Browser, shop: string) {
  const res = await b.get(`/account/connectors/shopify/install?shop=${shop}`);
  expect(res.status, res.body).toBe(302);
  const authorize = new URL(res.location!);
  return { authorize, state: authorize.searchParams.get('state')! };
}

async function connectionCount(shop: string) {
  const { rows } = await t.pool.query(
    'SELECT count(*)::int AS n FROM connector_connections WHERE shop = $1',
    [shop],
  );
  return rows[0].n as number;
}

describe('install', () => {
  it('sends a merchant arriving from Shopify to the account area, and to sign in without a session', async () => {
    const shop = newShop();
    const res = await t.app.inject({ url: `/connectors/shopify/install?shop=${shop}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/account/connectors/shopify/install?shop=${shop}`);
    const anonymous = await new Browser(t.app, '10.18.1.1').get(res.headers.location as string);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/account/sign-in');
  });

  it('refuses a shop that is not a myshopify.com domain', async () => {
    expect((await t.app.inject({ url: '/connectors/shopify/install?shop=evil.com' })).statusCode).toBe(400);
    const { b } = await signedIn();
    const res = await b.get('/account/connectors/shopify/install?shop=evil.example.com%2F.myshopify.com');
    expect(res.status).toBe(400);
  });

  it("redirects to the shop's authorization page with our scopes, callback and a state bound to the browser", async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { authorize, state } = await startInstall(b, shop);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(
      `http://127.0.0.1:9/${shop}/admin/oauth/authorize`,
    );
    expect(authorize.searchParams.get('client_id')).toBe(SHOPIFY_KEY);
    expect(authorize.searchParams.get('scope')).toBe(
      'read_orders,write_merchant_managed_fulfillment_orders,write_shipping',
    );
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/\/connectors\/shopify\/callback$/);
    expect(authorize.searchParams.has('grant_options[]')).toBe(false);
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.cookies.get('dlv_shopify_state')).toBe(state);
  });

  it('is not for the finance role', async () => {
    const { b } = await signedIn('finance');
    expect((await b.get(`/account/connectors/shopify/install?shop=${newShop()}`)).status).toBe(403);
  });
});

describe('callback', () => {
  it('refuses a bad or missing hmac, a foreign browser, a wrong shop and an old redirect; stores nothing', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { state } = await startInstall(b, shop);
    const params = { code: 'abc', host: 'YWRtaW4', shop, state, timestamp: nowSeconds() };

    const unsigned = await b.get(`/connectors/shopify/callback?${new URLSearchParams(params)}`);
    expect(unsigned.status).toBe(401);
    expect((await b.get(signedCallback(params, 'wrong-secret'))).status).toBe(401);
    // Another browser (no state cookie): the victim of a forwarded link.
    const stranger = new Browser(t.app, '10.18.2.1');
    expect((await stranger.get(signedCallback(params))).status).toBe(401);
    expect((await b.get(signedCallback({ ...params, timestamp: '1000000000' }))).status).toBe(401);
    expect(await connectionCount(shop)).toBe(0);
  });

  it('uses a state once: the code exchange failing (Shopify unreachable) leaves no link and no reusable state', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { state } = await startInstall(b, shop);
    const url = signedCallback({ code: 'abc', host: 'YWRtaW4', shop, state, timestamp: nowSeconds() });
    const first = await b.get(url);
    expect(first.status).toBe(503);
    expect(await connectionCount(shop)).toBe(0);
    b.cookies.set('dlv_shopify_state', state);
    expect((await b.get(url)).status).toBe(401);
  });

  it('answers the merchant’s browser with a page in their language and a way back, with the API’s status', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { state } = await startInstall(b, shop);
    const params = { code: 'abc', host: 'YWRtaW4', shop, state, timestamp: nowSeconds() };
    const page = (res: { body: string; headers: Record<string, unknown> }) => {
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.body).toContain('href="/account/shops"');
      expect(res.body).not.toContain('"ok":false');
      return res.body;
    };

    const forged = await b.get(signedCallback(params, 'wrong-secret'));
    expect(forged.status).toBe(401);
    expect(page(forged)).toContain('<h1>Your shop could not be connected</h1>');
    expect(forged.body).toContain('was not opened by Shopify');

    // A French merchant whose browser did not start this install.
    const french = await t.app.inject({
      url: signedCallback(params),
      headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
    });
    expect(french.statusCode).toBe(401);
    expect(page({ body: french.body, headers: french.headers })).toContain(
      '<h1>Votre boutique n’a pas pu être connectée</h1>',
    );
    expect(french.body).toContain('commencée dans un autre navigateur');
    expect(french.body).toContain('Retour aux boutiques');

    // The genuine callback (each refusal cleared the state cookie: put back as the browser had
    // it), but Shopify is out of reach (the code exchange fails): 503.
    b.cookies.set('dlv_shopify_state', state);
    const unreachable = await b.get(signedCallback(params));
    expect(unreachable.status).toBe(503);
    expect(page(unreachable)).toContain('Shopify could not be reached');
    // Used once: the same redirect again is an expired install.
    b.cookies.set('dlv_shopify_state', state);
    const replayed = await b.get(signedCallback(params));
    expect(replayed.status).toBe(401);
    expect(page(replayed)).toContain('expired or was already used');
    expect(await connectionCount(shop)).toBe(0);
  });

  it('refuses a state started for another shop', async () => {
    const { b } = await signedIn();
    const { state } = await startInstall(b, newShop());
    const other = newShop();
    const res = await b.get(signedCallback({ code: 'abc', shop: other, state, timestamp: nowSeconds() }));
    expect(res.status).toBe(401);
    expect(await connectionCount(other)).toBe(0);
  });
});
