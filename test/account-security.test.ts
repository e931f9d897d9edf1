import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../src/db/stores.ts';
import { Browser, createUser, csrfOf, keyOf, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { buildScratchTestApp } from './support/scratch-database.ts';
import { linkShop } from './support/shopify.ts';
import { startSmtpReceiver } from './support/smtp-receiver.ts';

/** What a signed-in person may and may not do in the account area, and the forms' CSRF checks. */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let now = new Date();
let ipCounter = 0;
const browser = () => new Browser(t.app, `10.2.0.${++ipCounter}`);

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  // No key cache: a disabled brand's key is refused on the next request (else within 5 s).
  t = await buildTestApp({ config: { smtpUrl: smtp.url, authCacheTtlMs: 0 }, clock: () => now });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = browser();
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const countKeys = async (brandId: string) =>
  (await t.pool.query('SELECT 1 FROM api_keys WHERE brand_id = $1', [brandId])).rowCount;

describe('CSRF', () => {
  it('refuses an anonymous form without the token or with a wrong one (403), creating nothing', async () => {
    const b = browser();
    await b.get('/account/sign-up');
    for (const csrf of [undefined, 'wrong', `${b.cookies.get('dlv_csrf')}`]) {
      const company = `CSRF victim ${csrf ?? 'none'}`;
      const res = await b.post('/account/sign-up', {
        ...(csrf === undefined ? {} : { _csrf: csrf }),
        company,
        email: `csrf.${ipCounter}.${company.length}@shop.example.com`,
        password: PASSWORD,
      });
      expect(res.status).toBe(403);
      const { rowCount } = await t.pool.query('SELECT 1 FROM brands WHERE name = $1', [company]);
      expect(rowCount).toBe(0);
    }
  });

  it('refuses a signed-in form with another token (the anonymous one, or none): no key, no revocation', async () => {
    const { b, brandId } = await signedIn();
    const keysPage = await b.get('/account/keys');
    const fields = { name: 'Forged', scopes: 'orders:read', password: PASSWORD };
    expect((await b.post('/account/keys', fields)).status).toBe(403);
    expect((await b.post('/account/keys', { ...fields, _csrf: `${csrfOf(keysPage.body)}x` })).status).toBe(
      403,
    );
    expect(await countKeys(brandId)).toBe(0);
    const key = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read'] }, testOperator);
    expect((await b.post(`/account/keys/${key.id}/revoke`, { _csrf: 'nope' })).status).toBe(403);
    const me = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key.key}` } });
    expect(me.statusCode).toBe(200);
  });
});

describe('the recipient settings forms (/account/notifications)', () => {
  const SETTINGS = { locale: 'en', colour: '#112233', colour_shown: '', email_steps: 'delivered' };
  const stored = async (brandId: string) =>
    (await t.pool.query('SELECT 1 FROM brand_recipient_settings WHERE brand_id = $1', [brandId])).rowCount;

  it('refuses each form without the session’s token (403), storing nothing', async () => {
    const { b, brandId } = await signedIn();
    const anonymous = browser();
    await anonymous.get('/account/sign-in');
    for (const csrf of [undefined, 'forged', `${anonymous.cookies.get('dlv_csrf')}`]) {
      const token: Record<string, string> = csrf === undefined ? {} : { _csrf: csrf };
      expect((await b.post('/account/notifications', { ...SETTINGS, ...token })).status).toBe(403);
      expect((await b.post('/account/notifications/logo/remove', token)).status).toBe(403);
      expect((await b.post('/account/notifications/logo', token)).status).toBe(403);
    }
    expect(await stored(brandId)).toBe(0);
  });

  it('is the owner’s: developers and finance people get 403 pages and change nothing', async () => {
    for (const role of ['developer', 'finance'] as const) {
      const { b, brandId } = await signedIn({ role });
      const csrf = csrfOf((await b.get('/account')).body);
      expect((await b.get('/account/notifications')).status).toBe(403);
      expect((await b.post('/account/notifications', { ...SETTINGS, _csrf: csrf })).status).toBe(403);
      expect((await b.post('/account/notifications/logo/remove', { _csrf: csrf })).status).toBe(403);
      expect((await b.post('/account/notifications/logo', { _csrf: csrf })).status).toBe(403);
      expect(await stored(brandId)).toBe(0);
    }
    const owner = await signedIn();
    expect((await owner.b.submit('/account/notifications', '/account/notifications', SETTINGS)).status).toBe(
      303,
    );
    expect(await stored(owner.brandId)).toBe(1);
  });
});

describe('roles and brands', () => {
  it('shows finance people a 403 page for the keys, and no link to them', async () => {
    const { b } = await signedIn({ role: 'finance' });
    const home = await b.get('/account');
    expect(home.body).toContain('Finance');
    expect(home.body).not.toContain('href="/account/keys"');
    expect((await b.get('/account/keys')).status).toBe(403);
    const res = await b.post('/account/keys', {
      _csrf: csrfOf(home.body),
      name: 'x',
      scopes: 'orders:read',
      password: PASSWORD,
    });
    expect(res.status).toBe(403);
  });

  it('lets developers create keys', async () => {
    const { b, brandId } = await signedIn({ role: 'developer' });
    const page = await b.get('/account/keys');
    const res = await b.follow(
      b.post('/account/keys', {
        _csrf: csrfOf(page.body),
        name: 'CI',
        scopes: 'orders:read',
        password: PASSWORD,
      }),
    );
    expect(keyOf(res.body)).toBeTruthy();
    expect(await countKeys(brandId)).toBe(1);
  });

  it('answers 404 for another brand’s key, and leaves it working', async () => {
    const { b } = await signedIn();
    const other = await createBrandWithKey(t.deps);
    const confirm = await b.get(`/account/keys/${other.keyId}/revoke`);
    expect(confirm.status).toBe(404);
    const home = await b.get('/account');
    expect((await b.post(`/account/keys/${other.keyId}/revoke`, { _csrf: csrfOf(home.body) })).status).toBe(
      404,
    );
    const me = await t.app.inject({ url: `${API}/me`, headers: other.headers });
    expect(me.statusCode).toBe(200);
  });

  it('answers 404 on every account route with an object in its path, given another brand’s', async () => {
    const { b } = await signedIn();
    const other = await createBrandWithKey(t.deps);
    const otherUser = await createUser(t.deps, { brandId: other.brandId, role: 'developer' });
    // A month (:period) names no object: its statement is the signed-in brand's own, another brand's
    // figures never in it (test/account-emissions.test.ts).
    const routes = t.app.routeCatalog.filter(
      (r) => r.auth === 'session' && r.url.includes(':') && !r.url.includes(':period'),
    );
    expect(routes.length).toBeGreaterThan(0);
    // The other brand's objects, one per kind of path parameter.
    const order = await t.deps.orders.create(
      { id: other.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
      { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
    );
    const invoice = (await t.deps.invoices.list(other.brandId, {})).invoices[0]!;
    const { subscription } = await t.deps.subscriptions.create(other.brandId, {
      url: 'https://93.184.216.34/hooks/other',
      event_types: ['order.created'],
    });
    const shop = await linkShop(t.deps, other.brandId);
    const otherOwner = await createUser(t.deps, { brandId: other.brandId, role: 'owner' });
    const inviter = (await storesOn(t.pool).users.findById(otherOwner.userId))!;
    await t.deps.team.invite(inviter, {
      email: `pending-${other.brandId}@example.com`,
      role: 'finance',
      locale: 'en',
      ip: '127.0.0.1',
    });
    const [invitation] = await t.deps.team.invitations(inviter);
    const fixtures: Record<string, string> = {
      invitationId: invitation!.id,
      connectionId: shop.id,
      endpointId: subscription.id,
      keyId: other.keyId,
      trackingRef: order.trackingRef,
      id: invoice.id,
      userId: otherUser.userId,
    };
    for (const route of routes) {
      const url = route.url.replace(/:(\w+)/g, (_, name: string) => {
        expect(fixtures[name], `a fixture for :${name} (${route.url})`).toBeDefined();
        return fixtures[name]!;
      });
      const home = await b.get('/account');
      const res = route.method === 'GET' ? await b.get(url) : await b.post(url, { _csrf: csrfOf(home.body) });
      expect(res.status, `${route.method} ${route.url}`).toBe(404);
    }
    expect((await t.app.inject({ url: `${API}/me`, headers: other.headers })).statusCode).toBe(200);
    expect((await t.deps.subscriptions.get(other.brandId, subscription.id)).status).toBe('active');
    expect((await t.deps.connections.get(other.brandId, shop.id)).status).toBe('active');
    expect(await t.deps.team.invitations(inviter)).toHaveLength(1);
  });

  it('asks an unverified e-mail to verify before any key', async () => {
    const { b, brandId } = await signedIn({ verified: false });
    const page = await b.get('/account/keys');
    expect(page.body).toContain('Confirm your e-mail address');
    expect(page.body).not.toContain('name="scopes"');
    const res = await b.post('/account/keys', {
      _csrf: csrfOf(page.body),
      name: 'x',
      scopes: 'orders:read',
      password: PASSWORD,
    });
    expect(res.status).toBe(403);
    expect(await countKeys(brandId)).toBe(0);
  });

  it('refuses key creation with a wrong step-up password', async () => {
    const { b, brandId } = await signedIn();
    const page = await b.get('/account/keys');
    const res = await b.post('/account/keys', {
      _csrf: csrfOf(page.body),
      name: 'x',
      scopes: 'orders:read',
      password: 'wrong-password-zz',
    });
    expect(res.status).toBe(401);
    expect(await countKeys(brandId)).toBe(0);
  });

  it('locks a disabled brand out: no sign-in, sessions ended, keys refused', async () => {
    const { b, brandId, email } = await signedIn();
    const key = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read'] }, testOperator);
    await t.deps.brands.disable(brandId, testOperator);
    expect((await b.get('/account')).location).toBe('/account/sign-in');
    const again = await browser().signIn(email, PASSWORD);
    expect(again.status).toBe(401);
    expect(again.body).toContain('disabled');
    const me = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key.key}` } });
    expect(me.statusCode).toBe(401);
  });
});

describe('idle sessions and step-up', () => {
  it('ends a session idle for 12 hours, and asks the password again after 10 minutes', async () => {
    const { b } = await signedIn();
    let page = await b.get('/account/keys');
    await b.post('/account/keys', {
      _csrf: csrfOf(page.body),
      name: 'first',
      scopes: 'orders:read',
      password: PASSWORD,
    });
    page = await b.get('/account/keys');
    expect(page.body).not.toContain('name="password"');
    now = new Date(now.getTime() + 11 * 60_000);
    page = await b.get('/account/keys');
    expect(page.body).toContain('name="password"');
    now = new Date(now.getTime() + 12 * 3600_000 + 1000);
    expect((await b.get('/account')).location).toBe('/account/sign-in');
  });
});

describe('the hourly account cleanup', () => {
  // The job deletes every idle session of its database: on a database of its own, since other test
  // files' sessions, made on their own clocks days before today, would look idle to it. Idle here
  // means aged in place, on the real clock.
  let shared: TestApp;
  beforeAll(async () => {
    shared = t;
    t = await buildScratchTestApp({ config: { smtpUrl: smtp.url, authCacheTtlMs: 0 }, clock: () => now });
  });
  afterAll(async () => {
    await t.close();
    t = shared;
  });

  it('deletes idle sessions and dead tokens, and keeps live ones', async () => {
    now = new Date();
    const { b, userId } = await signedIn();
    const idle = await signedIn();
    await t.pool.query(
      `UPDATE sessions SET last_seen_at = last_seen_at - interval '13 hours' WHERE user_id = $1`,
      [idle.userId],
    );
    await t.pool.query(
      `UPDATE sessions SET last_seen_at = last_seen_at - interval '11 hours' WHERE user_id = $1`,
      [userId],
    );
    await b.get('/account'); // still in use
    const { CLEANUP_ACCOUNTS } = await import('../src/jobs/cleanup-accounts.ts');
    await CLEANUP_ACCOUNTS.run(t.deps, {}, { logger: { info: () => {} } } as never);
    const left = await t.pool.query('SELECT user_id FROM sessions WHERE user_id = ANY($1)', [
      [userId, idle.userId],
    ]);
    expect(left.rows.map((r) => r.user_id)).toEqual([userId]);
    expect((await b.get('/account')).status).toBe(200);
  });
});
