/**
 * A control character (NUL, which PostgreSQL cannot store, and the other C0 controls but tab and
 * line breaks) in an account form's field or search box is the form's own error (#23 item 16):
 * the form again, the field marked in the page's language, the other fields as typed, nothing stored.
 */
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_RESET_MAIL } from '../src/jobs/account-reset-mail.ts';
import { Browser, createUser, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { queuedJobs } from './support/queued-jobs.ts';

let t: TestApp;
let ip = 0;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const visitor = () => new Browser(t.app, `10.23.16.${++ip}`);

async function owner() {
  const user = await createUser(t.deps);
  const b = visitor();
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const SAID = {
  en: 'must not contain control characters (such as NUL)',
  fr: 'ne doit contenir aucun caractère de contrôle (comme NUL)',
} as const;
const LANGS = ['en', 'fr'] as const;

/** The page is `action`'s form again (not the error page), without a control character anywhere. */
function expectForm(page: { status: number; body: string }, action: string) {
  expect(page.status).toBe(400);
  expect(page.body).toContain(`action="${action}"`);
  expect(page.body).not.toContain('Back to your account');
  expect(page.body).not.toContain('Retour à votre compte');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  expect(page.body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
}

const fieldValue = (body: string, name: string) =>
  body.match(new RegExp(`name="${name}"[^>]*value="([^"]*)"`))?.[1] ??
  body.match(new RegExp(`value="([^"]*)"[^>]*name="${name}"`))?.[1];

describe('a control character in an account form is the form’s own error', () => {
  for (const lang of LANGS) {
    it(`sign-in (${lang}): the form again with the e-mail marked, no session`, async () => {
      const b = visitor();
      const page = await b.submit(`/account/sign-in?lang=${lang}`, '/account/sign-in', {
        email: 'a\u0000@example.com',
        password: 'x',
      });
      expectForm(page, '/account/sign-in');
      expect(page.body).toContain(lang === 'fr' ? `E-mail : ${SAID.fr}` : `E-mail: ${SAID.en}`);
      expect(fieldValue(page.body, 'email')).toBe('a@example.com');
      expect(page.setCookies.some((c) => c.startsWith('dlv_session='))).toBe(false);
    });

    it(`sign-up (${lang}): the form again with the company marked, the e-mail kept, no account`, async () => {
      const b = visitor();
      const email = uniqueEmail('nul');
      const page = await b.submit(`/account/sign-up?lang=${lang}`, '/account/sign-up', {
        company: 'Acme\u0000 SAS',
        email,
        password: PASSWORD,
      });
      expectForm(page, '/account/sign-up');
      expect(page.body).toContain(
        lang === 'fr' ? `Nom de la société : ${SAID.fr}` : `Company name: ${SAID.en}`,
      );
      expect(fieldValue(page.body, 'company')).toBe('Acme SAS');
      expect(fieldValue(page.body, 'email')).toBe(email);
      expect((await t.pool.query('SELECT 1 FROM users WHERE email = $1', [email])).rowCount).toBe(0);
    });

    it(`forgot (${lang}): the form again with the e-mail marked, no e-mail queued`, async () => {
      const b = visitor();
      const user = await createUser(t.deps);
      const typed = `${user.email}\u0001`;
      const page = await b.submit(`/account/forgot?lang=${lang}`, '/account/forgot', { email: typed });
      expectForm(page, '/account/forgot');
      expect(page.body).toContain(lang === 'fr' ? `E-mail : ${SAID.fr}` : `E-mail: ${SAID.en}`);
      expect(fieldValue(page.body, 'email')).toBe(user.email);
      expect(await queuedJobs(t.pool, ACCOUNT_RESET_MAIL.name, { email: typed })).toBe(0);
      expect(await queuedJobs(t.pool, ACCOUNT_RESET_MAIL.name, { email: user.email })).toBe(0);
    });

    it(`company (${lang}): the form again with the legal name marked, the other fields kept, nothing saved`, async () => {
      const { b, brandId } = await owner();
      const before = (await t.pool.query('SELECT * FROM brands WHERE id = $1', [brandId])).rows[0];
      const page = await b.submit(`/account/company?lang=${lang}`, '/account/company', {
        legal_name: 'Acme\u0000 SAS',
        billing_address: '1 rue de Rivoli\n75001 Paris',
        siren: '',
        vat_number: '',
        pickup_address: '',
      });
      expectForm(page, '/account/company');
      const label = lang === 'fr' ? 'Raison sociale' : 'Legal name';
      expect(page.body).toContain(lang === 'fr' ? `${label} : ${SAID.fr}` : `${label}: ${SAID.en}`);
      expect(page.body).toMatch(
        /name="legal_name"[^>]*aria-invalid="true" aria-describedby="legal_name-error"/,
      );
      expect(fieldValue(page.body, 'legal_name')).toBe('Acme SAS');
      expect(page.body).toContain('1 rue de Rivoli\n75001 Paris');
      expect((await t.pool.query('SELECT * FROM brands WHERE id = $1', [brandId])).rows[0]).toEqual(before);
    });

    it(`orders search (${lang}): the list page with its search box marked`, async () => {
      const { b } = await owner();
      await b.get(`/account?lang=${lang}`);
      const page = await b.get('/account/orders?q=ab%00c&status=');
      expectForm(page, '/account/orders');
      const label = lang === 'fr' ? 'Rechercher' : 'Search';
      expect(page.body).toContain(lang === 'fr' ? `${label} : ${SAID.fr}` : `${label}: ${SAID.en}`);
      expect(fieldValue(page.body, 'q')).toBe('abc');
    });
  }

  it('a parameter no form shows (a hidden token, a cursor) is the area’s 400 page', async () => {
    const { b } = await owner();
    const cursor = await b.get('/account/orders?cursor=a%00b');
    expect(cursor.status).toBe(400);
    expect(cursor.body).toContain('A field contains a character that cannot be used');
    const token = await visitor().get('/account/reset?token=a%01b&lang=fr');
    expect(token.status).toBe(400);
    expect(token.body).toContain('Un champ contient un caractère inutilisable');
  });

  // The area's hook leaves control characters to the helpers of form.ts, which refuse them where the
  // route reads them: a route reading the body or the query itself would get them as they came.
  it('every account route reads its fields and query parameters through form.ts', async () => {
    const dir = new URL('../src/http/account/', import.meta.url);
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
    const readers: string[] = [];
    for (const file of files) {
      if (file === 'form.ts') continue;
      const source = await readFile(new URL(file, dir), 'utf8');
      for (const line of source.split('\n'))
        if (/request\.(body|query)\b/.test(line)) readers.push(`${file}: ${line.trim()}`);
    }
    // The language, read before any handler, is only compared with the known locales.
    expect(readers).toEqual([
      'index.ts: const asked = (request.query as Record<string, unknown> | undefined)?.lang;',
    ]);
  });
});
