import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, csrfOf } from './support/account-browser.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { consoleOperator, firstSignIn, oneTimePasswordOf } from './support/console.ts';
import { codeFor, OPERATOR_PASSWORD } from './support/operators.ts';

/** The operator's console: sign-in with the second factor, the role's pages, actions audited. */
let t: TestApp;
let now = new Date();
const later = () => {
  now = new Date(now.getTime() + 31_000);
};

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
});
afterAll(() => t.close());

describe('signing in', () => {
  it('takes a new operator through password, QR enrolment and recovery codes, then signs in with TOTP', async () => {
    const admin = await consoleOperator(t.app, t.deps, 'admin', () => now, '10.91.0.1');
    const home = await admin.b.get('/console');
    expect(home.status).toBe(200);
    expect(home.body).toContain('id="board"');
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    expect(home.headers['content-security-policy']).not.toMatch(/https?:/);
    // Signed out, then in again with a code from the secret.
    const out = await admin.b.post('/console/sign-out', { _csrf: csrfOf(home.body) });
    expect(out.location).toBe('/console/sign-in?out=1');
    expect((await admin.b.get('/console')).location).toBe('/console/sign-in');
    later();
    const wrong = await admin.b.submit('/console/sign-in', '/console/sign-in', {
      email: admin.email,
      password: OPERATOR_PASSWORD,
      code: '000000',
    });
    expect(wrong.status).toBe(401);
    const right = await admin.b.submit('/console/sign-in', '/console/sign-in', {
      email: admin.email,
      password: OPERATOR_PASSWORD,
      code: codeFor(admin.secret, now),
    });
    expect(right.status).toBe(303);
    expect(right.location).toBe('/console');
  });

  it('shows the enrolment QR code and secret, and ten recovery codes once', async () => {
    const { operator, oneTimePassword } = await t.deps.operators.add(
      { email: `qr-${Date.now()}@ops.example`, name: 'QR', role: 'support' },
      { party: { kind: 'cli', label: 'cli@test' }, address: null },
    );
    const b = new Browser(t.app, '10.91.0.2');
    await b.submit('/console/sign-in', '/console/sign-in', {
      email: operator.email,
      password: oneTimePassword,
    });
    const setup = await b.get('/console/setup');
    await b.post('/console/setup/password', { _csrf: csrfOf(setup.body), password: OPERATOR_PASSWORD });
    const enrol = await b.get('/console/setup');
    expect(enrol.body).toMatch(/<img class="qr"[^>]+src="data:image\/svg\+xml;base64,/);
    const secret = enrol.body.match(/<code id="secret">([A-Z2-7]+)<\/code>/)![1]!;
    const done = await b.post('/console/setup/second-factor', {
      _csrf: csrfOf(enrol.body),
      code: codeFor(secret, now),
    });
    expect(done.status).toBe(200);
    expect(done.body.match(/<li><code>/g)?.length).toBe(10);
  });

  it('throttles wrong passwords (429 after ten)', async () => {
    const b = new Browser(t.app, '10.91.0.3');
    let last = 0;
    for (let i = 0; i < 12; i++) {
      last = (
        await b.submit('/console/sign-in', '/console/sign-in', {
          email: 'nobody@ops.example',
          password: 'wrong',
        })
      ).status;
    }
    expect(last).toBe(429);
  });
});

describe('People and roles', () => {
  it('an admin creates a dispatcher, who signs in and sees Today but not People; every action audited', async () => {
    const admin = await consoleOperator(t.app, t.deps, 'admin', () => now, '10.91.1.1');
    const email = `dispatcher-${Date.now()}@ops.example`;
    const created = await admin.b.submit('/console/people', '/console/people', {
      name: 'Dana Dispatch',
      email,
      role: 'dispatcher',
    });
    expect(created.status).toBe(201);
    const password = oneTimePasswordOf(created.body);
    const dispatcher = new Browser(t.app, '10.91.1.2');
    later();
    await firstSignIn(dispatcher, email, password, () => now);
    expect((await dispatcher.get('/console')).status).toBe(200);
    const people = await dispatcher.get('/console/people');
    expect(people.status).toBe(403);
    expect(people.body).toContain('Not for your role');
    const audit = await admin.b.get(`/console/audit?actor=${encodeURIComponent(admin.email)}`);
    expect(audit.status).toBe(200);
    expect(audit.body).toContain('operator.added');
    const csv = await admin.b.get(`/console/audit.csv?actor=${encodeURIComponent(admin.email)}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('operator.added');
  });

  it('a finance user gets 403 on Today and Exceptions, and reaches Finance', async () => {
    const finance = await consoleOperator(t.app, t.deps, 'finance', () => now, '10.91.2.1');
    expect((await finance.b.get('/console')).location).toBeUndefined();
    expect((await finance.b.get('/console')).status).toBe(403);
    expect((await finance.b.get('/console/exceptions')).status).toBe(403);
    const page = await finance.b.get('/console/finance');
    expect(page.status).toBe(200);
    const issued = await finance.b.post('/console/finance/issue', {
      _csrf: csrfOf(page.body),
      month: '2020-01',
    });
    expect(issued.status).toBe(200);
    const audit = await t.pool.query(
      "SELECT 1 FROM audit_events WHERE actor_id = $1 AND action = 'invoice.issued'",
      [finance.id],
    );
    expect(audit.rowCount).toBeGreaterThanOrEqual(0);
  });
});
