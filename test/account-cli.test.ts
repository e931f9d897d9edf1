import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, csrfOf, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { API, buildTestApp, type TestApp, testDatabaseUrl } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { runDlv } from './support/run-cli.ts';
import { startSmtpReceiver } from './support/smtp-receiver.ts';

/** The operator's side of accounts: `dlv users invite` and `dlv brands disable`. */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let env: Record<string, string>;
let ipCounter = 0;
const browser = () => new Browser(t.app, `10.3.0.${++ipCounter}`);
const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await buildTestApp({ config: { authCacheTtlMs: 0 } });
  env = { DATABASE_URL: testDatabaseUrl(), SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://dlv.example.com' };
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('dlv users invite', () => {
  it('e-mails a link that sets the password once and signs the person in, with the role given', async () => {
    const brand = await t.deps.brands.create({ name: 'Invited brand' }, testOperator);
    const email = uniqueEmail('invited');
    const res = await runDlv(
      ['users', 'invite', '--brand', brand.id, '--email', email, '--role', 'finance', '--json'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(json(res.stdout)).toMatchObject({ brand_id: brand.id, email, role: 'finance' });

    const link = smtp.linkTo(email, '/account/invite')!.replace('https://dlv.example.com', '');
    const b = browser();
    const form = await b.get(link);
    expect(form.status).toBe(200);
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const set = await b.post('/account/invite', { _csrf: csrfOf(form.body), token, password: PASSWORD });
    // #36 item 26: signed in at once, welcomed into the company named.
    expect(set.status, set.body).toBe(303);
    expect(set.location).toBe('/account?welcome=1');
    const home = await b.get(set.location!);
    expect(home.status).toBe(200);
    expect(home.body).toContain('Finance');
    expect(home.body).toContain('<p class="success" role="status">Welcome to Invited brand');
    // The password chosen is the account's.
    expect((await browser().signIn(email, PASSWORD)).status).toBe(303);
    const again = await browser().submit('/account/sign-in', '/account/invite', {
      token,
      password: 'another-pass-1234',
    });
    expect(again.status).toBe(404);
  });

  it('writes the invitation in the --lang asked (fr or en), French otherwise', async () => {
    const brand = await t.deps.brands.create({ name: 'Lang brand' }, testOperator);
    const subjectTo = async (lang: string[]) => {
      const email = uniqueEmail('lang');
      const res = await runDlv(['users', 'invite', '--brand', brand.id, '--email', email, ...lang], env);
      expect(res.code, res.stderr).toBe(0);
      return smtp.inbox.find((m) => m.to.includes(email))!.raw;
    };
    expect(await subjectTo(['--lang', 'en'])).toContain(
      'Subject: Lang brand invited you to its delivery account',
    );
    for (const lang of [[], ['--lang', 'de'], ['--lang', 'EN']])
      expect(await subjectTo(lang), lang.join(' ')).toContain(
        'Subject: Lang brand vous invite dans son espace',
      );
  });

  it('refuses an unknown brand, a taken e-mail and an unknown role (exit 1, nothing sent)', async () => {
    const { email, brandId } = await createUser(t.deps);
    const sent = smtp.inbox.length;
    for (const args of [
      ['--brand', 'brd_0000000000000000', '--email', uniqueEmail('x')],
      ['--brand', brandId, '--email', email.toUpperCase()],
      ['--brand', brandId, '--email', uniqueEmail('x'), '--role', 'admin'],
    ]) {
      const res = await runDlv(['users', 'invite', ...args], env);
      expect(res.code, res.stderr).toBe(1);
      expect(res.stdout).toBe('');
    }
    expect(smtp.inbox.length).toBe(sent);
  });
});

describe('dlv brands disable', () => {
  it('refuses the brand’s keys and sign-ins', async () => {
    const { email, brandId } = await createUser(t.deps);
    const key = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read'] }, testOperator);
    const res = await runDlv(['brands', 'disable', brandId, '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(json(res.stdout).disabled_at).toEqual(expect.any(String));
    const me = await t.app.inject({ url: `${API}/me`, headers: { authorization: `Bearer ${key.key}` } });
    expect(me.statusCode).toBe(401);
    expect((await browser().signIn(email, PASSWORD)).status).toBe(401);
    expect((await runDlv(['brands', 'disable', 'brd_0000000000000000'], env)).code).toBe(1);
  });
});
