import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_RESET_MAIL } from '../src/jobs/account-reset-mail.ts';
import { Browser, createUser, csrfOf, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { queuedJobs, runQueuedJobs } from './support/queued-jobs.ts';
import { buildMailingTestApp, type MailingTestApp } from './support/smtp-receiver.ts';

/**
 * Password reset: the e-mail goes out from a job (the form does the same work for any address),
 * reset e-mails are limited per address and per client, and a new password kills every link.
 */
let t: MailingTestApp;
let ipCounter = 0;
const browser = () => new Browser(t.app, `10.8.0.${++ipCounter}`);
const linkPath = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

beforeAll(async () => {
  t = await buildMailingTestApp();
});
afterAll(() => t.close());

const mailsTo = (email: string) => t.smtp.inbox.filter((m) => m.to.includes(email)).length;
const sendQueued = (email: string) => runQueuedJobs(t.deps, t.pool, ACCOUNT_RESET_MAIL.name, { email });

async function askReset(b: Browser, email: string) {
  const res = await b.submit('/account/forgot', '/account/forgot', { email });
  expect(res.status).toBe(200);
  expect(res.body).toContain('If an account uses this address');
  return res;
}

/** A reset link for `email`, asked from the form and sent by its job. */
async function resetLink(email: string): Promise<string> {
  const before = mailsTo(email);
  await askReset(browser(), email);
  expect(await sendQueued(email)).toBe(1);
  expect(mailsTo(email)).toBe(before + 1);
  return t.smtp.linkTo(email, '/account/reset')!;
}

async function setPassword(link: string, password: string) {
  const b = browser();
  const form = await b.get(linkPath(link));
  if (form.status !== 200) return form;
  return b.post('/account/reset', { _csrf: csrfOf(form.body), token: tokenOf(link), password });
}

describe('the forgotten-password form', () => {
  it('does the same work for a registered and an unknown address: one job queued, no mail sent during the request', async () => {
    const { email } = await createUser(t.deps);
    const unknown = uniqueEmail('nobody');
    const known = await askReset(browser(), email);
    const nobody = await askReset(browser(), unknown);
    const normalise = (body: string) => body.replace(/value="[^"]*"/g, '');
    expect(normalise(known.body)).toBe(normalise(nobody.body));
    // The answer went back before any e-mail: the job sends it.
    expect(mailsTo(email)).toBe(0);
    expect(await queuedJobs(t.pool, ACCOUNT_RESET_MAIL.name, { email })).toBe(1);
    expect(await queuedJobs(t.pool, ACCOUNT_RESET_MAIL.name, { email: unknown })).toBe(1);

    expect(await sendQueued(email)).toBe(1);
    expect(await sendQueued(unknown)).toBe(1);
    expect(mailsTo(email)).toBe(1);
    expect(mailsTo(unknown)).toBe(0);
    expect(t.smtp.linkTo(email, '/account/reset')).toMatch(
      /^https:\/\/dlv\.example\.com\/account\/reset\?token=/,
    );
  });

  it('queues nothing for a malformed address, with the same answer', async () => {
    await askReset(browser(), 'not an address');
    expect(await queuedJobs(t.pool, ACCOUNT_RESET_MAIL.name, { email: 'not an address' })).toBe(0);
  });

  it('limits reset e-mails per address, whatever the client, with the same answer', async () => {
    const { email } = await createUser(t.deps);
    for (let i = 0; i < 8; i++) await askReset(browser(), email);
    expect(await sendQueued(email)).toBe(5);
    expect(mailsTo(email)).toBe(5);
  });

  it('limits reset e-mails per client address, whatever the address, with the same answer', async () => {
    const b = browser();
    const emails = Array.from({ length: 8 }, () => uniqueEmail('spray'));
    for (const email of emails) await askReset(b, email);
    const queued = await Promise.all(
      emails.map((email) => queuedJobs(t.pool, ACCOUNT_RESET_MAIL.name, { email })),
    );
    expect(queued).toEqual([1, 1, 1, 1, 1, 0, 0, 0]);
    for (const email of emails) await sendQueued(email);
  });
});

describe('verification e-mails sent again', () => {
  /** Signs in an account whose address is not confirmed; its keys page has the "send again" form. */
  async function unverified(b: Browser) {
    const user = await createUser(t.deps, { verified: false });
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    return user;
  }
  async function resend(b: Browser) {
    const res = await b.submit('/account/keys', '/account/verify/resend', {});
    expect(res.status).toBe(200);
    expect(res.body).toContain('A new link is on its way.');
    return res;
  }

  it('are limited per account, whatever the client, with the same answer', async () => {
    const first = browser();
    const { email } = await unverified(first);
    const before = mailsTo(email);
    for (let i = 0; i < 4; i++) await resend(first);
    // Another client of the same account shares its limit.
    const second = browser();
    expect((await second.signIn(email, PASSWORD)).status).toBe(303);
    for (let i = 0; i < 4; i++) await resend(second);
    expect(mailsTo(email) - before).toBe(5);
  });

  it('are limited per client address, whatever the account, with the same answer', async () => {
    const ip = `10.8.9.${++ipCounter}`;
    const emails: string[] = [];
    for (let i = 0; i < 4; i++) {
      const b = new Browser(t.app, ip);
      emails.push((await unverified(b)).email);
      await resend(b);
      await resend(b);
    }
    // Two each for the first two accounts, one for the third (the address's fifth), none after.
    expect(emails.map(mailsTo)).toEqual([2, 2, 1, 0]);
  });
});

describe('reset links', () => {
  it('all die when one of them sets a new password (the older ones included)', async () => {
    const { email } = await createUser(t.deps);
    const older = await resetLink(email);
    const newer = await resetLink(email);
    expect(older).not.toBe(newer);
    expect((await setPassword(newer, 'a-new-long-passphrase-7')).status).toBe(200);
    const stale = await browser().get(linkPath(older));
    expect(stale.status).toBe(404);
    // Even posted straight away, without its form.
    const b = browser();
    const posted = await b.submit('/account/forgot', '/account/reset', {
      token: tokenOf(older),
      password: 'an-attacker-passphrase-9',
    });
    expect(posted.status).toBe(404);
    expect((await b.signIn(email, 'an-attacker-passphrase-9')).status).toBe(401);
    expect((await browser().signIn(email, 'a-new-long-passphrase-7')).status).toBe(303);
  });

  it('an older link also dies when a newer one is used the other way round', async () => {
    const { email } = await createUser(t.deps);
    const first = await resetLink(email);
    const second = await resetLink(email);
    expect((await setPassword(first, 'first-new-passphrase-3')).status).toBe(200);
    expect((await setPassword(second, 'second-new-passphrase-4')).status).toBe(404);
    expect((await browser().signIn(email, 'first-new-passphrase-3')).status).toBe(303);
    expect(PASSWORD).not.toBe('first-new-passphrase-3');
  });
});
