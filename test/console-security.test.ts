import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, type OpsScope, ROLE_SCOPES } from '../src/domain/operators/scopes.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';
import { consoleRoutes, exampleUrl } from './support/security-fixtures.ts';

/**
 * The shared security suite for the console: every console route of the catalog (a new one joins
 * automatically) refused without a console session, with a brand's or a courier's session, with a
 * role that lacks its scope, and, for each form, without its CSRF token; nothing changes.
 */
let t: TestApp;
const now = new Date();
let people: Record<(typeof OPERATOR_ROLES)[number], ConsoleOperator>;
let ip = 0;

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
  people = {
    admin: await consoleOperator(t.app, t.deps, 'admin', () => now, '10.92.0.1'),
    dispatcher: await consoleOperator(t.app, t.deps, 'dispatcher', () => now, '10.92.0.2'),
    finance: await consoleOperator(t.app, t.deps, 'finance', () => now, '10.92.0.3'),
    support: await consoleOperator(t.app, t.deps, 'support', () => now, '10.92.0.4'),
  };
});
afterAll(() => t.close());

/** What this suite's requests recorded (its own client addresses: other files share the database). */
const auditRows = async () =>
  Number(
    (
      await t.pool.query(
        "SELECT count(*) FROM audit_events WHERE client_address LIKE ANY (ARRAY['10.92.%', '10.93.%'])",
      )
    ).rows[0].count,
  );
const send = (b: Browser, method: string, url: string, form: Record<string, string> = {}) =>
  method === 'GET' ? b.get(url) : b.post(url, form);

const gated = () => consoleRoutes(t.app).filter((r) => r.console !== undefined);

describe('every console route', () => {
  it('is in the catalog with what it requires', () => {
    const routes = gated().map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /console',
        'GET /console/today/events',
        'GET /console/map',
        'GET /console/map/data',
        'GET /console/map/stops',
        'GET /console/people',
        'POST /console/people',
        'GET /console/audit',
        'GET /console/audit.csv',
        'GET /console/exceptions',
        'GET /console/finance',
        'POST /console/finance/issue',
        'GET /console/search',
        'GET /console/brands',
        // Issue 39's actions: Exceptions, Brands (grid, webhooks on request), Finance (credit notes).
        'POST /console/notifications/:id/resend',
        'POST /console/shop-links/:id/resync',
        'POST /console/shop-links/:id/tell-brand',
        // A flagged address corrected, a missing parcel found or cancelled (through the status form).
        'POST /console/orders/:ref/address',
        'POST /console/orders/:ref/status',
        'GET /console/brands/:id/grid',
        'POST /console/brands/:id/grid/preview',
        'POST /console/brands/:id/grid',
        'GET /console/brands/:id/webhooks',
        'POST /console/brands/:id/webhook-requests/:requestId/set-up',
        'POST /console/brands/:id/webhook-requests/:requestId/decline',
        'POST /console/brands/:id/webhooks/:endpointId/enable',
        'POST /console/brands/:id/webhooks/:endpointId/disable',
        'POST /console/brands/:id/keys/:keyId/revoke',
        'POST /console/finance/invoices/:id/credit',
        'GET /console/planning',
        'POST /console/planning/plan',
        'POST /console/planning/rounds/:id/stops',
        'POST /console/planning/rounds/:id/assign',
      ]),
    );
    const open = consoleRoutes(t.app).filter((r) => r.console === undefined);
    expect(open).toEqual([]);
  });

  it('without a console session: a page redirects to sign-in, a form is refused (401); nothing changes', async () => {
    const brandUser = await createUser(t.deps);
    const brandBrowser = new Browser(t.app, `10.93.0.${++ip}`);
    await brandBrowser.signIn(brandUser.email, PASSWORD);
    const courierEmail = `console-suite-${Date.now()}@couriers.example`;
    await t.deps.couriers.add(
      { email: courierEmail, name: 'Suite', password: PASSWORD, locale: 'en' },
      testOperator,
    );
    const courierBrowser = new Browser(t.app, `10.93.0.${++ip}`);
    const courierIn = await courierBrowser.submit('/courier/login', '/courier/login', {
      email: courierEmail,
      password: PASSWORD,
    });
    expect(courierIn.status).toBe(303);
    const before = await auditRows();
    const visitors: [string, Browser][] = [
      ['no cookie', new Browser(t.app, `10.93.0.${++ip}`)],
      ["a brand's session", brandBrowser],
      ["a courier's session", courierBrowser],
      ['a forged console cookie', new Browser(t.app, `10.93.0.${++ip}`)],
    ];
    visitors[3]![1].cookies.set('dlv_console', `dlv_sess_${'a'.repeat(43)}.forged`);
    const anonymousPage = await visitors[0]![1].get('/console/sign-in');
    for (const [who, b] of visitors) {
      for (const route of gated()) {
        const url = exampleUrl(route.url);
        const res = await send(b, route.method, url, { _csrf: csrfOf(anonymousPage.body) });
        const label = `${route.method} ${route.url} with ${who}`;
        if (route.method === 'GET') {
          expect(res.status, label).toBe(303);
          expect(res.location, label).toBe('/console/sign-in');
        } else expect(res.status, label).toBe(401);
      }
    }
    expect(await auditRows()).toBe(before);
  });

  it("with a role that lacks the route's scope: 403 page; nothing changes", async () => {
    const before = await auditRows();
    let checked = 0;
    for (const route of gated()) {
      const need = route.console!;
      if (need === 'any' || need === 'setup') continue;
      for (const role of OPERATOR_ROLES) {
        if (ROLE_SCOPES[role].includes(need as OpsScope)) continue;
        const { b } = people[role];
        const page = await b.get('/console/search');
        const res = await send(b, route.method, exampleUrl(route.url), { _csrf: csrfOf(page.body) });
        expect(res.status, `${route.method} ${route.url} as ${role}`).toBe(403);
        expect(res.body).toContain(role === 'finance' ? 'Not for your role' : '');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(await auditRows()).toBe(before);
  });

  it('refuses every form without its CSRF token, or with another (403); nothing changes', async () => {
    const before = await auditRows();
    const admin = people.admin.b;
    for (const route of gated().filter((r) => r.method === 'POST')) {
      for (const csrf of [undefined, 'forged']) {
        const res = await admin.post(exampleUrl(route.url), {
          ...(csrf ? { _csrf: csrf } : {}),
          name: 'Forged',
          email: 'forged@ops.example',
          role: 'admin',
          month: '2020-01',
        });
        expect(res.status, `${route.method} ${route.url} with ${csrf ?? 'no token'}`).toBe(403);
      }
    }
    // The sign-in form too (its double-submit cookie).
    const b = new Browser(t.app, `10.93.1.${++ip}`);
    await b.get('/console/sign-in');
    expect((await b.post('/console/sign-in', { email: people.admin.email, password: PASSWORD })).status).toBe(
      403,
    );
    expect(await auditRows()).toBe(before);
  });

  it('answers with the console CSP: no third-party origin, no inline script or style', async () => {
    const res = await people.admin.b.get('/console');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|\*/);
    expect(res.body).not.toMatch(/<script>|style="/);
  });
});
