import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { buildScratchTestApp } from './support/scratch-database.ts';

/** Courier accounts and their sign-in (`/courier`): sessions, CSRF, and isolation from `/account`. */
let t: TestApp;
let now = new Date();
let ipCounter = 0;
const browser = () => new Browser(t.app, `10.7.0.${++ipCounter}`);

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now, config: { opsToken: 'ops-courier-auth-token-0123456789ab' } });
});
afterAll(() => t.close());

async function newCourier(options: { password?: string | null; locale?: string } = {}) {
  const email = uniqueEmail('courier');
  const { courier, oneTimePassword } = await t.deps.couriers.add(
    {
      email,
      name: `Courier ${ipCounter}`,
      password: options.password === undefined ? PASSWORD : options.password,
      locale: options.locale ?? 'fr',
    },
    testOperator,
  );
  return { ...courier, password: oneTimePassword ?? PASSWORD };
}

const signIn = (b: Browser, email: string, password: string) =>
  b.submit('/courier/login', '/courier/login', { email, password });

async function signedInCourier(options: Parameters<typeof newCourier>[0] = {}) {
  const courier = await newCourier(options);
  const b = browser();
  const res = await signIn(b, courier.email, courier.password);
  expect(res.status).toBe(303);
  expect(res.location).toBe('/courier/');
  return { courier, b };
}

const me = (b: Browser) => b.get('/courier/api/v1/me');

describe('courier sign-in', () => {
  it('shows the form in French by default, in English when asked', async () => {
    const b = browser();
    const fr = await t.app.inject({ method: 'GET', url: '/courier/login' });
    expect(fr.statusCode).toBe(200);
    expect(fr.body).toContain('Connexion livreur');
    expect(fr.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(fr.headers['x-frame-options']).toBe('DENY');
    const en = await b.get('/courier/login?lang=en');
    expect(en.body).toContain('Courier sign-in');
    // It wears the app's stylesheet (this release's, served under the page's CSP).
    const sheet = /<link rel="stylesheet" href="(\/courier\/assets\/[0-9a-f]{12}\/courier\.css)">/.exec(
      fr.body,
    );
    expect(sheet).not.toBeNull();
    const css = await t.app.inject({ method: 'GET', url: sheet![1]! });
    expect([css.statusCode, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    expect(css.body).toContain('.stack label');
  });

  it('opens a session with the right password: cookie on /courier, HttpOnly, SameSite=Lax', async () => {
    const courier = await newCourier();
    const b = browser();
    const res = await signIn(b, courier.email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(303);
    const cookie = res.setCookies.find((c) => c.startsWith('dlv_courier_session='))!;
    expect(cookie).toMatch(/Path=\/courier/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const answer = await me(b);
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body.courier).toEqual({ id: courier.id, name: courier.name, locale: 'fr' });
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.pool.query('SELECT 1 FROM courier_sessions WHERE courier_id = $1', [courier.id]);
    expect(stored.rowCount).toBe(1);
  });

  it('refuses a wrong password or an unknown e-mail with 401 and no session', async () => {
    const courier = await newCourier();
    const b = browser();
    const wrong = await signIn(b, courier.email, 'not-the-password-at-all');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('the password is wrong');
    expect(wrong.setCookies.some((c) => c.startsWith('dlv_courier_session='))).toBe(false);
    const unknown = await signIn(b, uniqueEmail('nobody'), PASSWORD);
    expect(unknown.status).toBe(401);
    const stored = await t.pool.query('SELECT 1 FROM courier_sessions WHERE courier_id = $1', [courier.id]);
    expect(stored.rowCount).toBe(0);
  });

  it('refuses the form without its CSRF token (403) and opens nothing', async () => {
    const courier = await newCourier();
    const b = browser();
    await b.get('/courier/login');
    const res = await b.post('/courier/login', { email: courier.email, password: PASSWORD });
    expect(res.status).toBe(403);
    const wrongToken = await b.post('/courier/login', {
      _csrf: 'x'.repeat(43),
      email: courier.email,
      password: PASSWORD,
    });
    expect(wrongToken.status).toBe(403);
    const stored = await t.pool.query('SELECT 1 FROM courier_sessions WHERE courier_id = $1', [courier.id]);
    expect(stored.rowCount).toBe(0);
  });

  it('limits sign-in attempts per address (429 once past the limit)', async () => {
    const courier = await newCourier();
    const b = browser();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signIn(b, courier.email, 'wrong-password-x')).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('gives a generated one-time password once, which signs in to choose a password', async () => {
    const courier = await newCourier({ password: null });
    expect(courier.password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const b = browser();
    const res = await signIn(b, courier.email, courier.password);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/courier/password');
  });

  it('checks a given password as the account area does, and a taken e-mail', async () => {
    await expect(
      t.deps.couriers.add({ email: uniqueEmail('c'), name: 'Short', password: 'short' }, testOperator),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'password' }] });
    const courier = await newCourier();
    await expect(
      t.deps.couriers.add(
        { email: courier.email.toUpperCase(), name: 'Again', password: PASSWORD },
        testOperator,
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'email' }] });
    await expect(
      t.deps.couriers.add({ email: 'nope', name: '', phone: 'abc', locale: 'de' }, testOperator),
    ).rejects.toMatchObject({
      details: expect.arrayContaining([expect.objectContaining({ field: 'locale' })]),
    });
  });
});

/** Signs in with a one-time password: the session that may only choose the courier's own. */
async function firstSignIn() {
  const courier = await newCourier({ password: null, locale: 'en' });
  const b = browser();
  const res = await signIn(b, courier.email, courier.password);
  expect(res.status).toBe(303);
  expect(res.location).toBe('/courier/password');
  return { courier, b };
}

const choose = (b: Browser, fields: Record<string, string>) =>
  b.submit('/courier/password', '/courier/password', fields);

describe('the one-time password (ASVS 2.3.1)', () => {
  it('opens one session that can only choose a password; the chosen one signs in, the one-time one never again', async () => {
    const { courier, b } = await firstSignIn();
    expect((await t.deps.couriers.get(courier.id)).mustChoosePassword).toBe(true);
    // Nothing else opens: the app's calls answer 401 (the app goes to the sign-in, which leads
    // here), the pages lead to the password form, a scan is not taken.
    expect((await me(b)).status).toBe(401);
    expect(JSON.parse((await me(b)).body).message).toContain('/courier/password');
    expect((await b.get('/courier/api/v1/day')).status).toBe(401);
    const login = await b.get('/courier/login');
    expect([login.status, login.location]).toEqual([303, '/courier/password']);
    const form = await b.get('/courier/password');
    expect(form.status).toBe(200);
    expect(form.body).toContain('Choose your password');
    expect(form.body).toContain('works only once');
    expect(form.body).not.toContain('name="current_password"');
    expect(form.body).toMatch(/rel="stylesheet" href="\/courier\/assets\/[0-9a-f]{12}\/courier\.css"/);

    const mine = 'my own courier passphrase 7';
    const chosen = await choose(b, { password: mine, password_confirm: mine });
    expect([chosen.status, chosen.location]).toEqual([303, '/courier/']);
    // A new session (the one-time one is gone), a full one.
    expect(chosen.setCookies.some((c) => c.startsWith('dlv_courier_session='))).toBe(true);
    expect((await me(b)).status).toBe(200);
    expect((await t.deps.couriers.get(courier.id)).mustChoosePassword).toBe(false);

    expect((await signIn(browser(), courier.email, courier.password)).status).toBe(401);
    const again = await signIn(browser(), courier.email, mine);
    expect([again.status, again.location]).toEqual([303, '/courier/']);
  });

  it('works once: a second sign-in with it is refused, even before a password is chosen', async () => {
    const { courier, b } = await firstSignIn();
    expect((await signIn(browser(), courier.email, courier.password)).status).toBe(401);
    // The first session still chooses.
    const mine = 'another own passphrase 8';
    expect((await choose(b, { password: mine, password_confirm: mine })).status).toBe(303);
  });

  it('two sign-ins with it at once: one session, one refusal', async () => {
    const courier = await newCourier({ password: null });
    const statuses = await Promise.all(
      [browser(), browser()].map(async (b) => (await signIn(b, courier.email, courier.password)).status),
    );
    expect(statuses.sort()).toEqual([303, 401]);
    const stored = await t.pool.query('SELECT 1 FROM courier_sessions WHERE courier_id = $1', [courier.id]);
    expect(stored.rowCount).toBe(1);
  });

  it('expires after 72 hours unused', async () => {
    const courier = await newCourier({ password: null });
    now = new Date(now.getTime() + 72 * 3600_000 + 1000);
    try {
      expect((await signIn(browser(), courier.email, courier.password)).status).toBe(401);
    } finally {
      now = new Date();
    }
  });

  it('refuses a password that breaks the rules, the one-time password itself, or a mismatch: nothing changes', async () => {
    const { courier, b } = await firstSignIn();
    const cases: [Record<string, string>, string][] = [
      [{ password: 'short', password_confirm: 'short' }, 'New password: must be 12 to 128 characters'],
      [
        { password: courier.password, password_confirm: courier.password },
        'must not be the password it replaces',
      ],
      [{ password: 'one long passphrase', password_confirm: 'one long passphrasf' }, 'does not match'],
    ];
    for (const [fields, message] of cases) {
      const res = await choose(b, fields);
      expect(res.status, message).toBe(400);
      expect(res.body).toContain(message);
    }
    expect((await t.deps.couriers.get(courier.id)).mustChoosePassword).toBe(true);
    // Still the one-time session: it may try again.
    expect((await b.get('/courier/password')).status).toBe(200);
  });

  it('in French too', async () => {
    const courier = await newCourier({ password: null, locale: 'fr' });
    const b = browser();
    await signIn(b, courier.email, courier.password);
    const form = await t.app.inject({
      method: 'GET',
      url: '/courier/password',
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'accept-language': 'fr' },
    });
    expect(form.body).toContain('Choisissez votre mot de passe');
    expect(form.body).toContain('ne sert qu’une fois');
  });

  it('a signed-in courier changes its password with the current one; its other sessions end', async () => {
    const { courier, b } = await signedInCourier({ locale: 'en' });
    const other = browser();
    expect((await signIn(other, courier.email, PASSWORD)).status).toBe(303);
    const form = await b.get('/courier/password');
    expect(form.body).toContain('name="current_password"');
    const next = 'a brand new passphrase 9';
    const wrong = await choose(b, {
      current_password: 'not it at all',
      password: next,
      password_confirm: next,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('Current password: is wrong');
    const done = await choose(b, { current_password: PASSWORD, password: next, password_confirm: next });
    expect([done.status, done.location]).toEqual([303, '/courier/']);
    expect((await me(b)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await signIn(browser(), courier.email, PASSWORD)).status).toBe(401);
    expect((await signIn(browser(), courier.email, next)).status).toBe(303);
  });

  it('the operator gives a new one-time password: sessions end, the old password stops, the next sign-in chooses', async () => {
    const { courier, b } = await signedInCourier();
    const res = await t.app.inject({
      method: 'POST',
      url: `/ops/v1/couriers/${courier.id}/password`,
      headers: { authorization: 'Bearer ops-courier-auth-token-0123456789ab' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.courier).toMatchObject({ id: courier.id, must_choose_password: true });
    expect(body.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect((await me(b)).status).toBe(401);
    expect((await signIn(browser(), courier.email, PASSWORD)).status).toBe(401);
    const first = await signIn(browser(), courier.email, body.one_time_password);
    expect([first.status, first.location]).toEqual([303, '/courier/password']);
    // A disabled courier gets none.
    await t.deps.couriers.disable(courier.id, testOperator);
    const disabled = await t.app.inject({
      method: 'POST',
      url: `/ops/v1/couriers/${courier.email}/password`,
      headers: { authorization: 'Bearer ops-courier-auth-token-0123456789ab' },
    });
    expect(disabled.statusCode).toBe(422);
    expect(disabled.json().error).toBe('courier_disabled');
  });
});

describe('sign-in limits count failures (issue 36, item 6)', () => {
  it('many couriers behind one address all sign in; failures from it are still limited', async () => {
    const ip = `10.8.0.${++ipCounter}`;
    for (let i = 0; i < 12; i++) {
      const courier = await newCourier();
      const b = new Browser(t.app, ip);
      const res = await signIn(b, courier.email, PASSWORD);
      expect(res.status, `courier ${i + 1}`).toBe(303);
    }
    const target = await newCourier();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await signIn(new Browser(t.app, ip), target.email, 'wrong-password-x')).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });

  it('counts one account’s failures from every address', async () => {
    const courier = await newCourier();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await signIn(browser(), courier.email, 'wrong-password-x')).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    // Even the right password, from yet another address, waits now.
    expect((await signIn(browser(), courier.email, PASSWORD)).status).toBe(429);
  });
});

describe('a courier session', () => {
  it('sends a JSON call without a session a 401 in the error model, a page to the sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/courier/api/v1/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ ok: false, error: 'unauthorized' });
    // The app's shell is public (no data in it; the service worker keeps it for offline starts):
    // its scripts meet this 401 and go to the sign-in.
    const page = await t.app.inject({ method: 'GET', url: '/courier/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="courier-config"');
  });

  it('signs out only with the CSRF token (header or field), and the session is gone', async () => {
    const { b } = await signedInCourier();
    expect((await b.post('/courier/logout', {})).status).toBe(403);
    expect((await me(b)).status).toBe(200);
    const token = JSON.parse((await me(b)).body).csrf_token as string;
    const out = await t.app.inject({
      method: 'POST',
      url: '/courier/logout',
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': token },
    });
    expect(out.statusCode).toBe(303);
    expect((await me(b)).status).toBe(401);
  });

  it('ends after 12 idle hours', async () => {
    const { b } = await signedInCourier();
    now = new Date(now.getTime() + 12 * 3600_000 + 1000);
    try {
      expect((await me(b)).status).toBe(401);
    } finally {
      now = new Date();
    }
  });

  it('ends at once when the courier is disabled, and it cannot sign in again', async () => {
    const { courier, b } = await signedInCourier();
    await t.deps.couriers.disable(courier.email, testOperator);
    expect((await me(b)).status).toBe(401);
    const again = await signIn(browser(), courier.email, PASSWORD);
    expect(again.status).toBe(401);
    expect(again.setCookies.some((c) => c.startsWith('dlv_courier_session='))).toBe(false);
  });

  it('refuses a disabled courier the same way whether the password is right or wrong', async () => {
    const courier = await newCourier();
    await t.deps.couriers.disable(courier.email, testOperator);
    const right = await signIn(browser(), courier.email, PASSWORD);
    const wrong = await signIn(browser(), courier.email, 'not-the-password-at-all');
    const unknown = await signIn(browser(), uniqueEmail('nobody'), PASSWORD);
    expect([right.status, wrong.status, unknown.status]).toEqual([401, 401, 401]);
    // The pages differ only by the e-mail typed back and the form's token.
    const same = (body: string, email: string) =>
      body.replace(email, 'EMAIL').replace(/name="_csrf" value="[^"]*"/, '');
    expect(same(right.body, courier.email)).toBe(same(wrong.body, courier.email));
    expect(same(right.body, courier.email)).toBe(
      same(unknown.body, unknown.body.match(/value="([^"]+@[^"]+)"/)![1]!),
    );
    expect(right.body).not.toContain('has been disabled');
  });
});

describe('the hourly cleanup', () => {
  // The job deletes every expired session of its database (account and courier sessions): on a
  // database of its own, since other test files' sessions, made on their own clocks days before
  // today, would look expired to it. Expired here means aged in place, on the real clock.
  let shared: TestApp;
  beforeAll(async () => {
    shared = t;
    now = new Date();
    t = await buildScratchTestApp({ clock: () => now });
  });
  afterAll(async () => {
    await t.close();
    t = shared;
  });

  it('deletes a courier session once expired, and keeps a live one', async () => {
    const { courier: old } = await signedInCourier();
    const { courier: live } = await signedInCourier();
    await t.pool.query(
      `UPDATE courier_sessions SET last_seen_at = last_seen_at - interval '13 hours',
         created_at = created_at - interval '13 hours' WHERE courier_id = $1`,
      [old.id],
    );
    const { CLEANUP_ACCOUNTS } = await import('../src/jobs/cleanup-accounts.ts');
    await CLEANUP_ACCOUNTS.run(t.deps, {}, { logger: { info: () => {} } } as never);
    const left = await t.pool.query('SELECT courier_id FROM courier_sessions WHERE courier_id = ANY($1)', [
      [old.id, live.id],
    ]);
    expect(left.rows).toEqual([{ courier_id: live.id }]);
  });
});

describe('isolation from the account area', () => {
  it('a courier’s cookie does not open /account, even under the account’s cookie name', async () => {
    const { b } = await signedInCourier();
    const value = b.cookies.get('dlv_courier_session')!;
    for (const cookie of [`dlv_courier_session=${value}`, `dlv_session=${value}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/account', headers: { cookie } });
      expect(res.statusCode, cookie).toBe(303);
      expect(res.headers.location).toBe('/account/sign-in');
    }
  });

  it('a brand user’s cookie does not open /courier, even under the courier’s cookie name', async () => {
    const user = await createUser(t.deps);
    const b = browser();
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    expect((await b.get('/account')).status).toBe(200);
    const value = b.cookies.get('dlv_session')!;
    for (const cookie of [`dlv_session=${value}`, `dlv_courier_session=${value}`]) {
      const api = await t.app.inject({ method: 'GET', url: '/courier/api/v1/me', headers: { cookie } });
      expect(api.statusCode, cookie).toBe(401);
    }
    // A brand user's credentials are not a courier's either.
    expect((await signIn(browser(), user.email, PASSWORD)).status).toBe(401);
  });
});
