import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../src/db/stores.ts';
import { Browser, createUser, csrfOf, keyOf, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { API, buildTestApp, type TestApp } from './support/app.ts';
import { startSmtpReceiver } from './support/smtp-receiver.ts';

/** The team page: owners list, invite, re-role and remove the brand's people. */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let ipCounter = 0;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await buildTestApp({ config: { smtpUrl: smtp.url, publicBaseUrl: 'https://dlv.example.com' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function signedIn(user: { email: string }) {
  const b = new Browser(t.app, `10.4.0.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return b;
}

async function brandWithTeam() {
  const owner = await createUser(t.deps, { role: 'owner' });
  const dev = await createUser(t.deps, { role: 'developer', brandId: owner.brandId });
  return { owner, dev, b: await signedIn(owner) };
}

const roleOf = async (userId: string) =>
  (await t.pool.query('SELECT role FROM users WHERE id = $1', [userId])).rows[0]?.role ?? null;

describe('team page', () => {
  it('lists the brand’s people for owners only, with a Team link in the nav (FR: Équipe)', async () => {
    const { owner, dev, b } = await brandWithTeam();
    const page = await b.get('/account/team');
    expect(page.status).toBe(200);
    expect(page.body).toContain(owner.email);
    expect(page.body).toContain(dev.email);
    expect(page.body).toContain('Developer');
    expect((await b.get('/account')).body).toContain('href="/account/team"');
    expect((await b.get('/account?lang=fr')).body).toContain('>Équipe</a>');

    const devBrowser = await signedIn(dev);
    expect((await devBrowser.get('/account')).body).not.toContain('href="/account/team"');
    expect((await devBrowser.get('/account/team')).status).toBe(403);
    const home = await devBrowser.get('/account');
    const invite = await devBrowser.post('/account/team/invite', {
      _csrf: csrfOf(home.body),
      email: uniqueEmail('sneaky'),
      role: 'owner',
    });
    expect(invite.status).toBe(403);
  });

  it('invites by e-mail with a role: the link sets the password and opens the account', async () => {
    const { b } = await brandWithTeam();
    const email = uniqueEmail('invited');
    const sent = await b.submit('/account/team', '/account/team/invite', { email, role: 'finance' });
    expect(sent.status, sent.body).toBe(303);
    expect((await b.get(sent.location!)).body).toContain('Invitation sent');
    const listed = (await b.get('/account/team')).body;
    expect(listed).toContain(email);
    expect(listed).toContain('not yet');

    const link = smtp.linkTo(email, '/account/invite')!;
    expect(link).toMatch(/^https:\/\/dlv\.example\.com\/account\/invite\?token=/);
    const invited = new Browser(t.app, `10.4.1.${++ipCounter}`);
    const path = link.replace(/^https?:\/\/[^/]+/, '');
    const token = new URL(link).searchParams.get('token')!;
    const set = await invited.submit(path, '/account/invite', { token, password: 'a-fine-passphrase-31' });
    expect(set.status, set.body).toBe(200);
    expect((await invited.signIn(email, 'a-fine-passphrase-31')).status).toBe(303);
    expect((await invited.get('/account')).body).toContain('Finance');
  });

  it('refuses a bad or taken e-mail and an unknown role, inviting nobody', async () => {
    const { owner, b } = await brandWithTeam();
    const bad = await b.submit('/account/team', '/account/team/invite', { email: 'nope', role: 'developer' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('E-mail: is not a valid e-mail address');
    const taken = await b.submit('/account/team', '/account/team/invite', {
      email: owner.email,
      role: 'owner',
    });
    expect(taken.status).toBe(400);
    expect(taken.body).toContain('already has an account');
    const email = uniqueEmail('role');
    const role = await b.submit('/account/team', '/account/team/invite', { email, role: 'admin' });
    expect(role.status).toBe(400);
    const { rowCount } = await t.pool.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email]);
    expect(rowCount).toBe(0);
  });

  it('answers an invitation of another brand’s person exactly as one of an unknown address, and tells only the invitee', async () => {
    const { b } = await brandWithTeam();
    const elsewhere = await createUser(t.deps, { role: 'developer' });
    const unknown = uniqueEmail('nobody');
    const answers = [];
    for (const email of [unknown, elsewhere.email]) {
      const sent = await b.submit('/account/team', '/account/team/invite', { email, role: 'developer' });
      answers.push({ status: sent.status, location: sent.location });
      expect((await b.get(sent.location!)).body).toContain('Invitation sent');
    }
    expect(answers[1]).toEqual(answers[0]);
    // The other brand's person stays where they are, with their account untouched.
    const { rows } = await t.pool.query('SELECT brand_id, role FROM users WHERE lower(email) = lower($1)', [
      elsewhere.email,
    ]);
    expect(rows).toEqual([{ brand_id: elsewhere.brandId, role: 'developer' }]);
    // The invitee is told what happens (no link that would move their account), in the inviter's language.
    const mail = [...smtp.inbox].reverse().find((m) => m.to.includes(elsewhere.email))!;
    const body = mail.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('already has an account with another company');
    expect(body).toContain('cannot join');
    expect(smtp.linkTo(elsewhere.email, '/account/invite')).toBeNull();
  });

  it('changes a member’s role, which their next request sees', async () => {
    const { dev, b } = await brandWithTeam();
    const devBrowser = await signedIn(dev);
    expect((await devBrowser.get('/account/keys')).status).toBe(200);
    const changed = await b.submit('/account/team', `/account/team/${dev.userId}/role`, { role: 'finance' });
    expect(changed.status).toBe(303);
    expect(await roleOf(dev.userId)).toBe('finance');
    expect((await devBrowser.get('/account/keys')).status).toBe(403);
    const bad = await b.submit('/account/team', `/account/team/${dev.userId}/role`, { role: 'root' });
    expect(bad.status).toBe(400);
    expect(await roleOf(dev.userId)).toBe('finance');
  });

  it('removes a member after a confirmation: their sessions end, the keys they made keep working', async () => {
    const { dev, b } = await brandWithTeam();
    const devBrowser = await signedIn(dev);
    const created = await devBrowser.follow(
      devBrowser.submit('/account/keys', '/account/keys', {
        name: 'CI',
        scopes: ['orders:read'],
        password: PASSWORD,
      }),
    );
    const key = keyOf(created.body)!;
    const confirm = await b.get(`/account/team/${dev.userId}/remove`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(dev.email);
    expect(await roleOf(dev.userId)).toBe('developer'); // the page alone changes nothing
    const removed = await b.post(`/account/team/${dev.userId}/remove`, { _csrf: csrfOf(confirm.body) });
    expect(removed.status).toBe(303);
    expect(await roleOf(dev.userId)).toBeNull();
    expect((await devBrowser.get('/account')).location).toBe('/account/sign-in');
    const me = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key}` } });
    expect(me.statusCode).toBe(200);
    expect((await b.get('/account/keys')).body).toContain('CI');
  });

  it('never leaves a brand without an owner: not oneself, and two owners demoting each other at once', async () => {
    const owner = await createUser(t.deps, { role: 'owner' });
    const b = await signedIn(owner);
    const self = await b.submit('/account/team', `/account/team/${owner.userId}/role`, { role: 'developer' });
    expect(self.status).toBe(409);
    expect(self.body).toContain('You cannot remove yourself');
    const gone = await b.submit('/account/team', `/account/team/${owner.userId}/remove`, {});
    expect(gone.status).toBe(409);
    expect(await roleOf(owner.userId)).toBe('owner');

    const second = await createUser(t.deps, { role: 'owner', brandId: owner.brandId });
    // Both act from pages loaded while both were owners: the brand's people are locked per change.
    const users = await Promise.all([owner, second].map((u) => storesOn(t.pool).users.findById(u.userId)));
    const results = await Promise.allSettled([
      t.deps.team.changeRole(users[0]!, second.userId, 'developer'),
      t.deps.team.changeRole(users[1]!, owner.userId, 'developer'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const { rows } = await t.pool.query(
      "SELECT count(*)::int AS n FROM users WHERE brand_id = $1 AND role = 'owner'",
      [owner.brandId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('answers another brand’s person with the 404 page and changes nothing', async () => {
    const { b } = await brandWithTeam();
    const other = await brandWithTeam();
    const page = await b.get('/account/team');
    expect((await b.get(`/account/team/${other.dev.userId}/remove`)).status).toBe(404);
    const role = await b.post(`/account/team/${other.dev.userId}/role`, {
      _csrf: csrfOf(page.body),
      role: 'owner',
    });
    expect(role.status).toBe(404);
    const removed = await b.post(`/account/team/${other.dev.userId}/remove`, { _csrf: csrfOf(page.body) });
    expect(removed.status).toBe(404);
    expect((await b.get('/account/team/usr_nothex/remove')).status).toBe(404);
    expect(await roleOf(other.dev.userId)).toBe('developer');
  });

  it('refuses a change without the form’s CSRF token', async () => {
    const { dev, b } = await brandWithTeam();
    const res = await b.post(`/account/team/${dev.userId}/remove`, {});
    expect(res.status).toBe(403);
    const role = await b.post(`/account/team/${dev.userId}/role`, { _csrf: 'forged', role: 'owner' });
    expect(role.status).toBe(403);
    expect(await roleOf(dev.userId)).toBe('developer');
  });
});
