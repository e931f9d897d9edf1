import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
