import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../src/db/stores.ts';
import { Browser, createUser, csrfOf, keyOf, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { API } from './support/app.ts';
import { buildMailingTestApp, type MailingTestApp } from './support/smtp-receiver.ts';

/** The team page: owners list, invite, re-role and remove the brand's people. */
let t: MailingTestApp;
let ipCounter = 0;

beforeAll(async () => {
  t = await buildMailingTestApp();
});
afterAll(() => t.close());

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

  it('invites by e-mail with a role, naming the company: the link sets the password and signs in', async () => {
    const { b, owner } = await brandWithTeam();
    const brandName = (await t.deps.brands.get(owner.brandId)).name;
    const email = uniqueEmail('invited');
    const sent = await b.submit('/account/team', '/account/team/invite', { email, role: 'finance' });
    expect(sent.status, sent.body).toBe(303);
    // #36 item 26: a done action is said in the success style, not the warning's.
    expect((await b.get(sent.location!)).body).toMatch(/<p class="success" role="status">Invitation sent/);
    const listed = (await b.get('/account/team')).body;
    expect(listed).toContain(email);
    expect(listed).toContain('not yet');

    const link = t.smtp.linkTo(email, '/account/invite')!;
    expect(link).toMatch(/^https:\/\/dlv\.example\.com\/account\/invite\?token=/);
    // #36 item 26: the e-mail said "your company"; it names the company now.
    const mail = t.smtp.inbox.find((m) => m.to.includes(email))!;
    expect(mail.raw).toContain(`Subject: ${brandName} invited you to its delivery account`);
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain(`delivery account of ${brandName}.`);
    const invited = new Browser(t.app, `10.4.1.${++ipCounter}`);
    const path = link.replace(/^https?:\/\/[^/]+/, '');
    const token = new URL(link).searchParams.get('token')!;
    const set = await invited.submit(path, '/account/invite', { token, password: 'a-fine-passphrase-31' });
    // #36 item 26: accepting signed nobody in (the person had to type the new password again).
    expect(set.status, set.body).toBe(303);
    expect(set.location).toBe('/account?welcome=1');
    expect(set.setCookies.some((c) => c.startsWith('dlv_session='))).toBe(true);
    const home = await invited.get('/account?welcome=1');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Finance');
    expect(home.body).toContain(`<p class="success" role="status">Welcome to ${brandName}`);
    expect(
      (await new Browser(t.app, `10.4.1.${++ipCounter}`).signIn(email, 'a-fine-passphrase-31')).status,
    ).toBe(303);
    // Accepted: a member (confirmed: the link reached the inbox), no longer a pending invitation.
    const team = (await b.get('/account/team')).body;
    expect(team).not.toContain('Pending invitations');
    expect(team).toContain(email);
    expect(
      (await invited.submit(path, '/account/invite', { token, password: 'another-passphrase-31' })).status,
    ).toBe(404);
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
    const pending = await t.pool.query('SELECT 1 FROM team_invitations WHERE brand_id = $1', [owner.brandId]);
    expect(pending.rowCount).toBe(0);
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
    const mail = [...t.smtp.inbox].reverse().find((m) => m.to.includes(elsewhere.email))!;
    const body = mail.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('already has an account with another company');
    expect(body).toContain('cannot join');
    expect(t.smtp.linkTo(elsewhere.email, '/account/invite')).toBeNull();
  });

  it('lists, re-sends and cancels an invitation of another brand’s person exactly as one of a new address', async () => {
    const elsewhere = await createUser(t.deps, { role: 'developer' });
    const sides = [
      { ...(await brandWithTeam()), email: uniqueEmail('nobody') },
      { ...(await brandWithTeam()), email: elsewhere.email },
    ];
    /** The team page with what differs by construction (addresses, ids, token) replaced. */
    const page = async (side: (typeof sides)[number], url: string) => {
      const body = (await side.b.get(url)).body;
      return body
        .replaceAll(side.email, 'INVITEE')
        .replaceAll(side.owner.email, 'OWNER')
        .replaceAll(side.dev.email, 'DEV')
        .replace(/(usr|ivt)_[0-9a-f]{16}/g, '$1_ID')
        .replace(/name="_csrf" value="[^"]+"/g, 'name="_csrf" value="TOKEN"');
    };
    const both = async (
      act: (side: (typeof sides)[number]) => Promise<{ status: number; location?: string }>,
    ) => {
      const answers = [];
      for (const side of sides) {
        const res = await act(side);
        answers.push({ status: res.status, location: res.location });
      }
      expect(answers[1]).toEqual(answers[0]);
      // The page each answer leads to, as the browser shows it after the redirect.
      const pages = [
        await page(sides[0]!, answers[0]!.location!),
        await page(sides[1]!, answers[1]!.location!),
      ];
      expect(pages[1]).toBe(pages[0]);
      return { answer: answers[0]!, page: pages[0]! };
    };
    const invite = (side: (typeof sides)[number], role: string) =>
      side.b.submit('/account/team', '/account/team/invite', { email: side.email, role });

    const invited = await both((side) => invite(side, 'developer'));
    expect(invited.answer).toEqual({ status: 303, location: '/account/team?done=invited' });
    expect(invited.page).toContain('INVITEE');
    expect(invited.page).toContain('Pending invitations');
    // No account for the new address until its invitee accepts.
    const { rowCount } = await t.pool.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [
      sides[0]!.email,
    ]);
    expect(rowCount).toBe(0);

    // Sent again (with another role): the same answer, one invitation each, with the new role.
    const again = await both((side) => invite(side, 'finance'));
    expect(again.answer).toEqual(invited.answer);
    for (const side of sides) {
      const { rows } = await t.pool.query('SELECT role FROM team_invitations WHERE brand_id = $1', [
        side.owner.brandId,
      ]);
      expect(rows).toEqual([{ role: 'finance' }]);
    }

    // Cancelled: the same answer, and both pages without it.
    const cancelled = await both(async (side) => {
      const body = (await side.b.get('/account/team')).body;
      const id = body.match(/\/account\/team\/invitations\/(ivt_[0-9a-f]{16})\/cancel/)![1]!;
      return side.b.post(`/account/team/invitations/${id}/cancel`, { _csrf: csrfOf(body) });
    });
    expect(cancelled.answer).toEqual({ status: 303, location: '/account/team?done=cancelled' });
    expect(cancelled.page).not.toContain('INVITEE');
    expect(cancelled.page).toContain('Invitation cancelled');
    // The other brand's person is where they were, untouched.
    const { rows } = await t.pool.query('SELECT brand_id, role FROM users WHERE lower(email) = lower($1)', [
      elsewhere.email,
    ]);
    expect(rows).toEqual([{ brand_id: elsewhere.brandId, role: 'developer' }]);
  });

  // #36 item 7: an owner could send invitation e-mails without end, to one address or to many.
  it('limits invitations per invited address and per brand, saying so on the form and sending nothing more', async () => {
    const { owner, b } = await brandWithTeam();
    const invite = (email: string) =>
      b.submit('/account/team', '/account/team/invite', { email, role: 'developer' });
    const mailsTo = (email: string) => t.smtp.inbox.filter((m) => m.to.includes(email)).length;
    const email = uniqueEmail('again');
    for (let i = 0; i < 3; i++) expect((await invite(email)).status).toBe(303);
    const fourth = await invite(email);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toContain(
      'This address has been invited several times in the last hour: nothing was sent.',
    );
    expect(fourth.body).toContain(`value="${email}"`);
    expect(mailsTo(email)).toBe(3);
    // 20 at once per brand: 4 asked so far; 16 more pass, the next is refused.
    const others = Array.from({ length: 17 }, (_, i) => uniqueEmail(`many${i}`));
    for (const other of others.slice(0, 16)) expect((await invite(other)).status, other).toBe(303);
    const past = await invite(others[16]!);
    expect(past.status).toBe(429);
    expect(past.body).toContain('Too many invitations sent lately: nothing was sent.');
    expect(mailsTo(others[16]!)).toBe(0);
    const { rowCount } = await t.pool.query('SELECT 1 FROM team_invitations WHERE lower(email) = lower($1)', [
      others[16],
    ]);
    expect(rowCount).toBe(0);
    // Another brand's owner is not held back by this one.
    const other = await brandWithTeam();
    expect(
      (await other.b.submit('/account/team', '/account/team/invite', { email, role: 'finance' })).status,
    ).toBe(303);
    expect(owner.brandId).not.toBe(other.owner.brandId);
  });

  it('stops listing an invitation once it has expired, and the hourly clean-up deletes it', async () => {
    const { owner, b } = await brandWithTeam();
    const email = uniqueEmail('expiring');
    expect((await b.submit('/account/team', '/account/team/invite', { email, role: 'finance' })).status).toBe(
      303,
    );
    expect((await b.get('/account/team')).body).toContain(email);
    await t.pool.query(
      `UPDATE team_invitations SET expires_at = now() - interval '2 hours' WHERE brand_id = $1`,
      [owner.brandId],
    );
    const page = (await b.get('/account/team')).body;
    expect(page).not.toContain(email);
    expect(page).not.toContain('Pending invitations');
    const deleted = await t.deps.accounts.deleteExpired();
    expect(deleted.invitations).toBeGreaterThanOrEqual(1);
    const { rowCount } = await t.pool.query('SELECT 1 FROM team_invitations WHERE brand_id = $1', [
      owner.brandId,
    ]);
    expect(rowCount).toBe(0);
    // Invited again, it is listed again with a fresh link.
    expect((await b.submit('/account/team', '/account/team/invite', { email, role: 'finance' })).status).toBe(
      303,
    );
    expect((await b.get('/account/team')).body).toContain(email);
  });

  it('tells an invitee whose address has an account elsewhere by then that they cannot join, leaving it untouched', async () => {
    const { b } = await brandWithTeam();
    const email = uniqueEmail('late');
    expect((await b.submit('/account/team', '/account/team/invite', { email, role: 'owner' })).status).toBe(
      303,
    );
    const link = t.smtp.linkTo(email, '/account/invite')!;
    const path = link.replace(/^https?:\/\/[^/]+/, '');
    const token = new URL(link).searchParams.get('token')!;
    // Before accepting, the address joins another company (signs up there, say).
    const other = await createUser(t.deps, { role: 'finance' });
    await t.pool.query('UPDATE users SET email = $2 WHERE id = $1', [other.userId, email]);

    const invitee = new Browser(t.app, `10.4.2.${++ipCounter}`);
    const opened = await invitee.get(path);
    expect(opened.status).toBe(409);
    expect(opened.body).toContain('already has an account with another company');
    expect(opened.body).toContain('cannot join');
    expect(opened.body).not.toContain('name="password"');
    const posted = await invitee.submit('/account/sign-in', '/account/invite', {
      token,
      password: 'a-fine-passphrase-32',
    });
    expect(posted.status).toBe(409);
    expect(posted.body).toContain('cannot join');
    // In French too.
    expect((await invitee.get(`${path}&lang=fr`)).body).toContain('ne pouvez pas rejoindre');
    // Their account is untouched: same brand, role and password.
    const { rows } = await t.pool.query('SELECT brand_id, role FROM users WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows).toEqual([{ brand_id: other.brandId, role: 'finance' }]);
    expect((await invitee.signIn(email, PASSWORD)).status).toBe(303);
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
