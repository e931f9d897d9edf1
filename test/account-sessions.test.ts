import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../src/db/stores.ts';
import { Browser, createUser, csrfOf, keyOf, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, type TestApp } from './support/app.ts';

/**
 * How long a session lives, how the step-up before a key change is throttled, and the new key
 * shown once after a redirect (a reload creates nothing). The clock is the app's, injected.
 */
let t: TestApp;
let offsetMs = 0;
let ipCounter = 0;
const browser = () => new Browser(t.app, `10.7.0.${++ipCounter}`);
const HOUR = 3600_000;

beforeAll(async () => {
  t = await buildTestApp({ clock: () => new Date(Date.now() + offsetMs) });
});
afterAll(() => t.close());

async function signedIn(role: 'owner' | 'developer' = 'owner') {
  const user = await createUser(t.deps, { role });
  const b = browser();
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const countKeys = async (brandId: string) =>
  (
    await t.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE brand_id = $1', [
      brandId,
    ])
  ).rows[0]!.n;

/** A key created for the user through the service (no page, no step-up): its id. */
async function existingKey(userId: string): Promise<string> {
  const found = await storesOn(t.pool).users.findById(userId);
  const { passwordHash: _, ...user } = found!;
  return (
    await t.deps.accountKeys.create(
      { user, ip: null, origin: null },
      { name: 'To roll', scopes: ['orders:read'] },
    )
  ).id;
}

/** The keys page's form posted: a read-only key named `name`, with `password` for the step-up. */
const postNewKey = (b: Browser, csrf: string, name: string, password: string) =>
  b.post('/account/keys', { _csrf: csrf, name, scopes: 'orders:read', password });

describe('session lifetime', () => {
  it('ends a session used every few hours once it is 7 days old (absolute lifetime)', async () => {
    const { b } = await signedIn();
    const start = offsetMs;
    try {
      // Never idle for 12 h: used every 11 hours for 6 days and 22 hours, it stays open.
      for (let hours = 11; hours < 7 * 24; hours += 11) {
        offsetMs = start + hours * HOUR;
        expect((await b.get('/account')).status, `after ${hours} h`).toBe(200);
      }
      offsetMs = start + 7 * 24 * HOUR + 60_000;
      const expired = await b.get('/account');
      expect(expired.status).toBe(303);
      expect(expired.location).toBe('/account/sign-in');
    } finally {
      offsetMs = start;
    }
  });

  it('still ends a session idle for 12 hours', async () => {
    const { b } = await signedIn();
    const start = offsetMs;
    try {
      offsetMs = start + 12 * HOUR + 60_000;
      expect((await b.get('/account')).location).toBe('/account/sign-in');
    } finally {
      offsetMs = start;
    }
  });

  it('the hourly cleanup deletes sessions past their absolute lifetime, even recently used', async () => {
    const { userId } = await createUser(t.deps);
    const fresh = Buffer.alloc(32, 1);
    fresh.write(userId.slice(4), 'hex');
    const old = Buffer.alloc(32, 2);
    old.write(userId.slice(4), 'hex');
    await t.pool.query(
      `INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at) VALUES
         ($1, $3, 'x', now() - interval '1 day', now()), ($2, $3, 'x', now() - interval '8 days', now())`,
      [fresh, old, userId],
    );
    await t.deps.accounts.deleteExpired();
    const { rows } = await t.pool.query('SELECT id FROM sessions WHERE user_id = $1', [userId]);
    expect(rows.map((r) => Buffer.from(r.id).equals(fresh))).toEqual([true]);
  });
});

describe('sign-in limits count failures (issue 36: colleagues behind one office address)', () => {
  it('lets twelve people behind one address sign in; failures from it are still limited', async () => {
    const ip = `10.9.0.${++ipCounter}`;
    for (let i = 0; i < 12; i++) {
      const user = await createUser(t.deps);
      expect((await new Browser(t.app, ip).signIn(user.email, PASSWORD)).status, `person ${i + 1}`).toBe(303);
    }
    const target = await createUser(t.deps);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await new Browser(t.app, ip).signIn(target.email, 'wrong-password-x')).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });
});

describe('step-up before a key change', () => {
  it('counts wrong passwords with sign-in attempts and ends the session at the limit: no key, even with the right one after', async () => {
    const { b, brandId } = await signedIn();
    const page = await b.get('/account/keys');
    const csrf = csrfOf(page.body);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await postNewKey(b, csrf, 'Guessed', `wrong-guess-number-${i}`);
      statuses.push(res.status);
    }
    // A sign-in that succeeded is given back: ten wrong guesses of the 10 per 15 minutes, then the limit.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const right = await postNewKey(b, csrf, 'Guessed', PASSWORD);
    expect(right.status).toBe(303);
    expect(right.location).toBe('/account/sign-in');
    expect(keyOf(right.body)).toBeNull();
    expect(await countKeys(brandId)).toBe(0);
    expect((await b.get('/account')).location).toBe('/account/sign-in');
  });

  it('counts step-up guesses per account: another address signing in is refused after them', async () => {
    const { b, email } = await signedIn();
    const csrf = csrfOf((await b.get('/account/keys')).body);
    for (let i = 0; i < 10; i++) {
      const res = await postNewKey(b, csrf, 'Guessed', `wrong-guess-number-${i}`);
      expect(res.status).toBe(401);
    }
    expect((await browser().signIn(email, PASSWORD)).status).toBe(429);
  });

  it('throttles the step-up of a key roll the same way', async () => {
    const { b, brandId, userId } = await signedIn();
    const keyId = await existingKey(userId);
    const csrf = csrfOf((await b.get(`/account/keys/${keyId}/roll`)).body);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await b.post(`/account/keys/${keyId}/roll`, {
        _csrf: csrf,
        grace: '1h',
        password: `wrong-guess-number-${i}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    expect((await b.get('/account')).location).toBe('/account/sign-in');
    expect(await countKeys(brandId)).toBe(1);
  });
});

describe('a new key, shown once (post/redirect/get)', () => {
  /** Creates a key on the keys page, with the right step-up password: the POST's answer. */
  async function createKeyOnPage(b: Browser, name: string) {
    const page = await b.get('/account/keys');
    return postNewKey(b, csrfOf(page.body), name, PASSWORD);
  }

  it('creating answers with a redirect; the page shows the key once, a reload shows none and creates none', async () => {
    const { b, brandId } = await signedIn();
    const created = await createKeyOnPage(b, 'Shown once');
    expect(created.status).toBe(303);
    expect(keyOf(created.body)).toBeNull();
    expect(created.location).toMatch(/^\/account\/keys\/key_[0-9a-f]{16}\/new$/);
    expect(await countKeys(brandId)).toBe(1);

    const shown = await b.get(created.location!);
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    const key = keyOf(shown.body)!;
    expect(key).toBeTruthy();
    expect(shown.body).toContain('Shown once');
    const me = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key}` } });
    expect(me.statusCode).toBe(200);

    const reloaded = await b.get(created.location!);
    expect(reloaded.status).toBe(410);
    expect(keyOf(reloaded.body)).toBeNull();
    expect(reloaded.body).toContain('already been shown');
    expect(await countKeys(brandId)).toBe(1);
  });

  it('the reveal cookie holds no key in clear and works only for its session and its key', async () => {
    const { b, brandId } = await signedIn();
    const created = await createKeyOnPage(b, 'Sealed');
    const sealed = created.setCookies.find((c) => c.startsWith('dlv_new_key='))!;
    expect(sealed).toMatch(/; HttpOnly/);
    expect(sealed).toMatch(/; Path=\/account\/keys/);
    expect(sealed).not.toMatch(/dlv_[0-9a-f]{8}/);
    // Another person of the same brand, given the cookie, sees nothing.
    const other = new Browser(t.app, `10.7.1.${++ipCounter}`);
    const colleague = await createUser(t.deps, { brandId, role: 'developer' });
    await other.signIn(colleague.email, PASSWORD);
    const cookie = b.cookies.get('dlv_new_key')!;
    other.cookies.set('dlv_new_key', cookie);
    const stolen = await other.get(created.location!);
    expect(stolen.status).toBe(410);
    expect(keyOf(stolen.body)).toBeNull();
    // Nor does the right session for another of its brand's keys.
    const otherKey = await existingKey(colleague.userId);
    const elsewhere = await b.get(`/account/keys/${otherKey}/new`);
    expect(elsewhere.status).toBe(410);
    expect(keyOf(elsewhere.body)).toBeNull();
    // A cookie that is not a sealed key (garbage, truncated) is no key either.
    for (const garbage of ['x', 'A'.repeat(60), cookie.slice(0, -4)]) {
      b.cookies.set('dlv_new_key', garbage);
      expect((await b.get(created.location!)).status).toBe(410);
    }
  });

  it('another brand’s key id is the 404 page', async () => {
    const { b } = await signedIn();
    const stranger = await createUser(t.deps);
    const keyId = await existingKey(stranger.userId);
    expect((await b.get(`/account/keys/${keyId}/new`)).status).toBe(404);
  });

  it('rolling answers with a redirect too: the new key once, a reload rolls nothing', async () => {
    const { b, brandId, userId } = await signedIn();
    const keyId = await existingKey(userId);
    const form = await b.get(`/account/keys/${keyId}/roll`);
    const rolled = await b.post(`/account/keys/${keyId}/roll`, {
      _csrf: csrfOf(form.body),
      grace: '1h',
      password: PASSWORD,
    });
    expect(rolled.status).toBe(303);
    expect(keyOf(rolled.body)).toBeNull();
    expect(await countKeys(brandId)).toBe(2);
    const shown = await b.get(rolled.location!);
    expect(shown.status).toBe(200);
    expect(keyOf(shown.body)).toBeTruthy();
    const reloaded = await b.get(rolled.location!);
    expect(reloaded.status).toBe(410);
    expect(keyOf(reloaded.body)).toBeNull();
    expect(await countKeys(brandId)).toBe(2);
  });
});
