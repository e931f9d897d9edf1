import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, csrfOf, keyOf, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, type TestApp } from './support/app.ts';

/**
 * Key roll from the account area: a new key with the same scopes, the old one kept for a grace
 * period. The clock is the app's (injected): moving it ends the grace period. The authentication
 * cache is made longer than the grace period on purpose, to show a cached key stops at its expiry.
 */
let t: TestApp;
let offsetMs = 0;
let ipCounter = 0;

beforeAll(async () => {
  t = await buildTestApp({
    clock: () => new Date(Date.now() + offsetMs),
    config: { authCacheTtlMs: 2 * 3600_000 },
  });
});
afterAll(() => t.close());

const me = (key: string) =>
  t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key}` } }).then((r) => r.statusCode);

async function ownerWithKey() {
  const user = await createUser(t.deps, { role: 'developer' });
  const b = new Browser(t.app, `10.3.0.${++ipCounter}`);
  await b.signIn(user.email, PASSWORD);
  const created = await b.follow(
    b.submit('/account/keys', '/account/keys', {
      name: 'Shop',
      scopes: ['orders:read', 'orders:write'],
      password: PASSWORD,
    }),
  );
  const key = keyOf(created.body)!;
  const listed = await b.get('/account/keys');
  const keyId = listed.body.match(/\/account\/keys\/(key_[0-9a-f]{16})\/roll/)![1]!;
  return { b, key, keyId, user };
}

describe('rolling a key', () => {
  it('with grace "now": the old key is refused at once, the new one works with the same scopes', async () => {
    const { b, key, keyId } = await ownerWithKey();
    expect(await me(key)).toBe(200); // cached now
    const form = await b.get(`/account/keys/${keyId}/roll`);
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="grace" value="now"');
    expect(form.body).not.toContain('name="password"'); // stepped up a moment ago
    const rolled = await b.follow(
      b.post(`/account/keys/${keyId}/roll`, { _csrf: csrfOf(form.body), grace: 'now' }),
    );
    expect(rolled.status, rolled.body).toBe(200);
    const fresh = keyOf(rolled.body)!;
    expect(fresh).not.toBe(key);
    expect(await me(key)).toBe(401);
    const res = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${fresh}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().key.scopes).toEqual(['orders:read', 'orders:write']);

    const page = (await b.get('/account/keys')).body;
    expect(page).toContain('Shop (rolled)');
    expect(page).toMatch(/rolled — [^<]*10\.3\.0\.\d+/); // in the key history
    expect(page).toContain('expired');
  });

  it('with grace 1 h: the old key works, then stops once the clock passes the hour', async () => {
    const { b, key, keyId } = await ownerWithKey();
    const form = await b.get(`/account/keys/${keyId}/roll`);
    const rolled = await b.follow(
      b.post(`/account/keys/${keyId}/roll`, { _csrf: csrfOf(form.body), grace: '1h' }),
    );
    const fresh = keyOf(rolled.body)!;
    expect(await me(key)).toBe(200); // and now in the cache, whose entries live 2 h here
    expect((await b.get('/account/keys')).body).toContain('stops working on');
    offsetMs = 3600_000 + 1000;
    try {
      expect(await me(key)).toBe(401);
      expect(await me(fresh)).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });

  it('asks for the password again after 10 minutes, and rolls nothing when it is wrong', async () => {
    const { b, key, keyId } = await ownerWithKey();
    offsetMs = 11 * 60_000;
    try {
      const form = await b.get(`/account/keys/${keyId}/roll`);
      expect(form.body).toContain('name="password"');
      const refused = await b.post(`/account/keys/${keyId}/roll`, {
        _csrf: csrfOf(form.body),
        grace: 'now',
        password: 'not-the-password-1',
      });
      expect(refused.status).toBe(401);
      expect(keyOf(refused.body)).toBeNull();
      expect(await me(key)).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses an unknown grace period, a revoked key, and another brand’s key (404)', async () => {
    const { b, key, keyId } = await ownerWithKey();
    const form = await b.get(`/account/keys/${keyId}/roll`);
    const bad = await b.post(`/account/keys/${keyId}/roll`, { _csrf: csrfOf(form.body), grace: '1y' });
    expect(bad.status).toBe(400);
    expect(await me(key)).toBe(200);

    const other = await ownerWithKey();
    expect((await b.get(`/account/keys/${other.keyId}/roll`)).status).toBe(404);
    const cross = await b.post(`/account/keys/${other.keyId}/roll`, {
      _csrf: csrfOf(form.body),
      grace: 'now',
    });
    expect(cross.status).toBe(404);
    expect(await me(other.key)).toBe(200);

    await b.post(`/account/keys/${keyId}/revoke`, { _csrf: csrfOf(form.body) });
    const gone = await b.post(`/account/keys/${keyId}/roll`, { _csrf: csrfOf(form.body), grace: 'now' });
    expect(gone.status).toBe(400);
    const { rows } = await t.pool.query(
      "SELECT count(*)::int AS n FROM api_keys WHERE name = 'Shop (rolled)' AND brand_id = (SELECT brand_id FROM api_keys WHERE id = $1)",
      [keyId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('is not for finance people', async () => {
    const finance = await createUser(t.deps, { role: 'finance' });
    const b = new Browser(t.app, `10.3.1.${++ipCounter}`);
    await b.signIn(finance.email, PASSWORD);
    expect((await b.get('/account/keys/key_0123456789abcdef/roll')).status).toBe(403);
  });
});
