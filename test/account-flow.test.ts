import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_RESET_MAIL } from '../src/jobs/account-reset-mail.ts';
import { Browser, csrfOf, keyOf, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { API } from './support/app.ts';
import { runQueuedJobs } from './support/queued-jobs.ts';
import { buildMailingTestApp, type MailingTestApp } from './support/smtp-receiver.ts';

/**
 * The account area end to end, through its pages (app.inject), on the real PostgreSQL and with
 * the e-mails going to a real SMTP server on loopback.
 */
let t: MailingTestApp;
let ipCounter = 0;
const browser = () => new Browser(t.app, `10.1.0.${++ipCounter}`);
const linkPath = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');
/** Opens a verification link and presses its button, as the person does. */
const confirmEmail = async (b: Browser, link: string) => {
  const page = await b.get(linkPath(link));
  if (page.status !== 200) return page;
  return b.post('/account/verify', {
    _csrf: csrfOf(page.body),
    token: new URL(link).searchParams.get('token')!,
  });
};

beforeAll(async () => {
  t = await buildMailingTestApp();
});
afterAll(() => t.close());

async function signUp(b: Browser, email: string, company = 'Maison Dupont') {
  const res = await b.submit('/account/sign-up', '/account/sign-up', { company, email, password: PASSWORD });
  expect(res.status, res.body).toBe(200);
  return res;
}

describe('sign-up to a working API key', () => {
  it('signs up, verifies by e-mail, signs in, creates a key with step-up, uses it, revokes it', async () => {
    const b = browser();
    const email = uniqueEmail('owner');
    const signedUp = await signUp(b, email);
    expect(signedUp.body).toContain(email);

    const link = t.smtp.linkTo(email, '/account/verify');
    expect(link).toMatch(/^https:\/\/dlv\.example\.com\/account\/verify\?token=/);
    // Opening the link (as a mail scanner would) confirms nothing; the page's button does.
    expect((await b.get(linkPath(link!))).body).toContain('Confirm my e-mail address');
    expect((await b.get(linkPath(link!))).status).toBe(200);
    expect((await confirmEmail(b, link!)).body).toContain('confirmed');
    expect((await b.get(linkPath(link!))).status).toBe(404); // single use
    expect((await confirmEmail(b, link!)).status).toBe(404);

    const signIn = await b.signIn(email, PASSWORD);
    expect(signIn.status).toBe(303);
    expect(signIn.location).toBe('/account');
    const home = await b.get('/account');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Maison Dupont');
    expect(home.body).toContain('Owner');
    expect(home.body).toContain('https://dlv.example.com/public/v1/docs');
    expect(home.body).toContain('curl https://dlv.example.com/public/v1/me');

    const keysPage = await b.get('/account/keys');
    expect(keysPage.body).toContain('name="password"'); // step-up asked
    const created = await b.follow(
      b.post('/account/keys', {
        _csrf: csrfOf(keysPage.body),
        name: 'Shopify production',
        scopes: ['orders:read', 'orders:write'],
        password: PASSWORD,
      }),
    );
    expect(created.status, created.body).toBe(200);
    expect(created.body).toContain('shown only once');
    const key = keyOf(created.body)!;
    expect(key).toBeTruthy();

    const me = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().key.scopes).toEqual(['orders:read', 'orders:write']);

    const listed = await b.get('/account/keys');
    expect(listed.body).toContain('Shopify production');
    expect(listed.body).toContain(email); // created by
    expect(listed.body).not.toContain(key); // never shown again
    expect(listed.body).not.toContain('name="password"'); // stepped up for 10 minutes
    const keyId = listed.body.match(/\/account\/keys\/(key_[0-9a-f]{16})\/revoke/)![1]!;

    const confirm = await b.get(`/account/keys/${keyId}/revoke`);
    expect(confirm.status).toBe(200);
    const revoked = await b.post(`/account/keys/${keyId}/revoke`, { _csrf: csrfOf(confirm.body) });
    expect(revoked.status).toBe(303);
    const refused = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key}` } });
    expect(refused.statusCode).toBe(401);

    const history = (await b.get('/account/keys')).body;
    expect(history).toMatch(/created — [^<]*10\.1\.0\.\d+/);
    expect(history).toMatch(/revoked — [^<]*10\.1\.0\.\d+/);
  });

  it('answers a sign-up with a taken e-mail like any other (and tells the owner by e-mail)', async () => {
    const email = uniqueEmail('taken');
    await signUp(browser(), email);
    const again = await signUp(browser(), email.toUpperCase(), 'Other company');
    expect(again.body).toContain('we sent a link');
    expect(t.smtp.inbox.filter((m) => m.to.some((to) => to.toLowerCase() === email)).length).toBe(2);
    // The second sign-up's brand was rolled back with its user.
    const { rowCount } = await t.pool.query("SELECT 1 FROM brands WHERE name = 'Other company'");
    expect(rowCount).toBe(0);
  });

  it('refuses a weak password with a message on the form and creates nothing', async () => {
    const b = browser();
    const email = uniqueEmail('weak');
    for (const password of ['short', 'password1234', `${email.split('@')[0]}-xyz`]) {
      const res = await b.submit('/account/sign-up', '/account/sign-up', { company: 'X', email, password });
      expect(res.status).toBe(400);
      expect(res.body).toContain('class="error"');
      expect(res.body).toMatch(/Password: (must be 12 to 128 characters|is too common|must not contain)/);
    }
    const fr = await b.submit('/account/sign-up?lang=fr', '/account/sign-up', {
      company: 'X',
      email,
      password: 'x',
    });
    expect(fr.body).toContain('Mot de passe : doit compter de 12 à 128 caractères');
    const { rowCount } = await t.pool.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email]);
    expect(rowCount).toBe(0);
  });

  // #36 item 10: the company's name is the brand's, the default From name of its recipients' e-mails.
  it('refuses a company name that could not be a sender name (line break, < > "), creating nothing', async () => {
    const b = browser();
    const email = uniqueEmail('evil');
    for (const company of ['Evil\r\nBcc: victim@example.com', 'Shop <admin@evil.example>', 'Best "Shop"']) {
      const res = await b.submit('/account/sign-up', '/account/sign-up', {
        company,
        email,
        password: PASSWORD,
      });
      expect(res.status, company).toBe(400);
      expect(res.body).toContain(
        'Company name: must not contain line breaks, control characters or the characters &lt; &gt; &quot;',
      );
    }
    const fr = await b.submit('/account/sign-up?lang=fr', '/account/sign-up', {
      company: 'Evil\nX',
      email,
      password: PASSWORD,
    });
    expect(fr.body).toContain('Nom de la société : ne doit contenir ni retour à la ligne');
    const { rowCount } = await t.pool.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email]);
    expect(rowCount).toBe(0);
    expect(t.smtp.inbox.some((m) => m.to.includes(email))).toBe(false);
  });
});

describe('sessions', () => {
  async function verifiedOwner() {
    const email = uniqueEmail('session');
    await signUp(browser(), email);
    await confirmEmail(browser(), t.smtp.linkTo(email, '/account/verify')!);
    return email;
  }

  it('sets an HttpOnly, SameSite=Lax, Secure (https base URL) cookie, new at each sign-in', async () => {
    const email = await verifiedOwner();
    const b = browser();
    const first = await b.signIn(email, PASSWORD);
    const cookie = first.setCookies.find((c) => c.startsWith('dlv_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Path=\/account/);
    const before = b.cookies.get('dlv_session');
    const home = await b.get('/account');
    await b.post('/account/sign-in', { _csrf: csrfOf(home.body), email, password: PASSWORD });
    const after = b.cookies.get('dlv_session');
    expect(after).not.toBe(before);
    // The session the browser arrived with is gone: replaying it leads to sign-in.
    const stale = new Browser(t.app, '10.9.0.1');
    stale.cookies.set('dlv_session', before!);
    expect((await stale.get('/account')).location).toBe('/account/sign-in');
  });

  it('never adopts a session id the browser brings (fixation)', async () => {
    const email = await verifiedOwner();
    const b = browser();
    b.cookies.set('dlv_session', 'planted-by-an-attacker.x');
    await b.signIn(email, PASSWORD);
    expect(b.cookies.get('dlv_session')).not.toContain('planted');
    expect((await b.get('/account')).status).toBe(200);
  });

  it('ends the session at sign-out', async () => {
    const email = await verifiedOwner();
    const b = browser();
    await b.signIn(email, PASSWORD);
    const cookie = b.cookies.get('dlv_session')!;
    const home = await b.get('/account');
    const out = await b.post('/account/sign-out', { _csrf: csrfOf(home.body) });
    expect(out.status).toBe(303);
    const replay = new Browser(t.app, '10.9.0.2');
    replay.cookies.set('dlv_session', cookie);
    expect((await replay.get('/account')).status).toBe(303);
  });

  it('resets the password by a single-use e-mail link, ending every session', async () => {
    const email = await verifiedOwner();
    const laptop = browser();
    await laptop.signIn(email, PASSWORD);
    const b = browser();
    const asked = await b.submit('/account/forgot', '/account/forgot', { email });
    expect(asked.body).toContain('If an account uses this address');
    const unknown = await b.submit('/account/forgot', '/account/forgot', { email: uniqueEmail('nobody') });
    expect(unknown.body).toContain('If an account uses this address');
    // The e-mail goes out from a job (test/account-reset.test.ts): run it as the worker would.
    expect(await runQueuedJobs(t.deps, t.pool, ACCOUNT_RESET_MAIL.name, { email })).toBe(1);

    const link = linkPath(t.smtp.linkTo(email, '/account/reset')!);
    const form = await b.get(link);
    expect(form.status).toBe(200);
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const done = await b.post('/account/reset', {
      _csrf: csrfOf(form.body),
      token,
      password: 'a-new-long-passphrase-7',
    });
    expect(done.status, done.body).toBe(200);
    expect((await laptop.get('/account')).location).toBe('/account/sign-in');
    expect((await b.signIn(email, PASSWORD)).status).toBe(401);
    expect((await b.signIn(email, 'a-new-long-passphrase-7')).status).toBe(303);
    const other = browser();
    const reused = await other.submit('/account/forgot', '/account/reset', {
      token,
      password: 'yet-another-pass-99',
    });
    expect(reused.status).toBe(404);
  });

  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    const email = await verifiedOwner();
    const normalise = (body: string) => body.replace(/value="[^"]*"/g, '');
    const wrong = await browser().signIn(email, 'not-the-password-1');
    const unknown = await browser().signIn(email.replace('session', 'nobody'), 'not-the-password-1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(normalise(unknown.body)).toBe(normalise(wrong.body));
  });

  it('limits sign-in attempts per account, whatever the address', async () => {
    const email = await verifiedOwner();
    for (let i = 0; i < 10; i++)
      expect((await browser().signIn(email, 'wrong-password-xx')).status).toBe(401);
    const limited = await browser().signIn(email, PASSWORD);
    expect(limited.status).toBe(429);
  });

  it('limits sign-in attempts per address, whatever the account', async () => {
    const b = browser();
    for (let i = 0; i < 10; i++)
      expect((await b.signIn(uniqueEmail('spray'), 'wrong-password-xx')).status).toBe(401);
    expect((await b.signIn(uniqueEmail('spray'), 'wrong-password-xx')).status).toBe(429);
  });
});
