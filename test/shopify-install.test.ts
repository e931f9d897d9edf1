import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';
import { authorizeHref, newShop, SHOPIFY_KEY, SHOPIFY_SECRET, shopifyConfig } from './support/shopify.ts';

/**
 * Installing from the account area: the install is bound to the signed-in person's brand and to
 * their browser; the callback's signature, shop, state and age are checked before any exchange.
 * (The full exchange with Shopify is covered with the fake Shopify.)
 */
let t: ScratchTestApp;
let ip = 0;

beforeAll(async () => {
  t = await buildScratchTestApp({ config: shopifyConfig() });
});
afterAll(async () => {
  await t?.close();
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

/** The Shops page's form (a POST with its CSRF token), then the link it shows to Shopify. */
async function startInstall(b: Browser, shop: string) {
  const res = await b.submit('/account/shops', '/account/shops/connect', { shop });
  expect(res.status, res.body).toBe(200);
  const authorize = new URL(authorizeHref(res.body));
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

  it('starts nothing from a link (a cross-site GET): it asks to confirm with the Shops page’s form', async () => {
    const { b, brandId } = await signedIn();
    const shop = newShop();
    const page = await b.get(`/account/connectors/shopify/install?shop=${shop}`);
    expect(page.status, page.body).toBe(200);
    expect(page.body).toContain(`<h1>Connect ${shop}</h1>`);
    expect(page.body).toContain('form method="post" action="/account/shops/connect"');
    expect(page.body).toContain(`<input type="hidden" name="shop" value="${shop}">`);
    expect(page.setCookies.join()).not.toContain('dlv_shopify_state');
    const installs = () => t.pool.query('SELECT 1 FROM connector_installs WHERE brand_id = $1', [brandId]);
    expect((await installs()).rowCount).toBe(0);
    // Posted without the session's token (another site's form), or with another person's: refused.
    expect((await b.post('/account/shops/connect', { shop })).status).toBe(403);
    const other = await signedIn();
    const theirs = csrfOf((await other.b.get('/account/shops')).body);
    expect((await b.post('/account/shops/connect', { _csrf: theirs, shop })).status).toBe(403);
    expect((await installs()).rowCount).toBe(0);
    // The confirmation's own form starts it, bound to this browser.
    const started = await b.post('/account/shops/connect', { _csrf: csrfOf(page.body), shop });
    expect(started.status).toBe(200);
    const state = new URL(authorizeHref(started.body)).searchParams.get('state');
    expect(b.cookies.get('dlv_shopify_state')).toBe(state);
    expect((await installs()).rowCount).toBe(1);
  });

  it('is not for an unconfirmed e-mail address: neither the confirmation nor the form starts anything', async () => {
    const user = await createUser(t.deps, { verified: false });
    const b = new Browser(t.app, `10.18.3.${++ip}`);
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const shop = newShop();
    expect((await b.get(`/account/connectors/shopify/install?shop=${shop}`)).status).toBe(403);
    const res = await b.submit('/account/shops', '/account/shops/connect', { shop });
    expect(res.status).toBe(403);
    expect(b.cookies.has('dlv_shopify_state')).toBe(false);
    const installs = await t.pool.query('SELECT 1 FROM connector_installs WHERE brand_id = $1', [
      user.brandId,
    ]);
    expect(installs.rowCount).toBe(0);
  });

  it('is not for the finance role', async () => {
    const { b } = await signedIn('finance');
    expect((await b.get(`/account/connectors/shopify/install?shop=${newShop()}`)).status).toBe(403);
    expect((await b.submit('/account/shops', '/account/shops/connect', { shop: newShop() })).status).toBe(
      403,
    );
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

  it('binds the state to the person who started it: removed or demoted since, nothing is exchanged', async () => {
    for (const change of ['demoted', 'removed', 'unconfirmed'] as const) {
      const { b, userId } = await signedIn();
      const shop = newShop();
      const { state } = await startInstall(b, shop);
      if (change === 'demoted')
        await t.pool.query("UPDATE users SET role = 'finance' WHERE id = $1", [userId]);
      else if (change === 'unconfirmed')
        await t.pool.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [userId]);
      else {
        // Another owner keeps the brand; the starter's pending install goes with them.
        await t.pool.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
        await t.pool.query('DELETE FROM users WHERE id = $1', [userId]);
      }
      const res = await b.get(signedCallback({ code: 'abc', shop, state, timestamp: nowSeconds() }));
      // 401 before any code exchange (which, Shopify being out of reach here, would be a 503).
      expect(res.status, change).toBe(401);
      expect(await connectionCount(shop)).toBe(0);
    }
  });

  it('refuses an expired state', async () => {
    const { b } = await signedIn();
    const shop = newShop();
    const { state } = await startInstall(b, shop);
    await t.pool.query(
      "UPDATE connector_installs SET expires_at = now() - interval '1 second' WHERE state = $1",
      [state],
    );
    const res = await b.get(signedCallback({ code: 'abc', shop, state, timestamp: nowSeconds() }));
    expect(res.status).toBe(401);
    expect(res.body).toContain('expired or was already used');
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
