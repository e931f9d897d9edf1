import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../src/domain/api-keys/keys.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { createOrder } from './support/orders.ts';
import {
  authenticatedRoutes,
  courierRoutes,
  exampleUrl,
  sessionRoutes,
  trackingRoutes,
} from './support/security-fixtures.ts';

/**
 * The shared security suite: every route that needs a key is found in the app's route catalog
 * (a new route joins automatically) and sent without a key, with a malformed, unknown and
 * revoked key, and with a key lacking its scope.
 */
let t: TestApp;
let revoked: TestBrand;
let noScopeFor: Map<string, TestBrand>;

beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: 'test-ops-token' } });
  revoked = await createBrandWithKey(t.deps);
  await t.deps.apiKeys.revoke(revoked.keyId);
  noScopeFor = new Map();
  for (const scope of SCOPES) {
    noScopeFor.set(scope, await createBrandWithKey(t.deps, { scopes: SCOPES.filter((s) => s !== scope) }));
  }
});
afterAll(() => t.close());

const UNKNOWN_KEY = `dlv_${'ab'.repeat(32)}`;

describe('the operations API', () => {
  it('refuses a valid brand key: only OPS_TOKEN opens it', async () => {
    const brand = await createBrandWithKey(t.deps);
    for (const route of authenticatedRoutes(t.app).filter((r) => r.auth === 'ops')) {
      const res = await call(t.app, {
        method: route.method as 'GET',
        url: exampleUrl(route.url),
        headers: { ...brand.headers, 'content-type': 'application/json' },
        payload: route.method === 'GET' ? undefined : '{}',
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('is absent when OPS_TOKEN is unset', async () => {
    const plain = await buildTestApp();
    try {
      expect(plain.app.routeCatalog.some((r) => r.auth === 'ops')).toBe(false);
      const res = await call(plain.app, {
        method: 'GET',
        url: '/ops/v1/orders/DLV-0000000000',
        headers: { authorization: 'Bearer x' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('every authenticated route', () => {
  it('is found in the route catalog', () => {
    const routes = authenticatedRoutes(t.app).map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /public/v1/me',
        'POST /public/v1/rates',
        'POST /public/v1/orders',
        'GET /public/v1/orders',
        'GET /public/v1/orders/:trackingRef',
        'PATCH /public/v1/orders/:trackingRef',
        'POST /public/v1/orders/:trackingRef/cancel',
        'GET /ops/v1/orders/:trackingRef',
        'POST /ops/v1/orders/:trackingRef/status',
        'POST /ops/v1/scans',
      ]),
    );
  });

  const cases: [string, (headers: Record<string, string>) => Record<string, string>][] = [
    ['no key', (h) => h],
    ['an empty bearer', (h) => ({ ...h, authorization: 'Bearer ' })],
    ['a malformed key', (h) => ({ ...h, authorization: 'Bearer dlv_xyz' })],
    ['a non-bearer scheme', (h) => ({ ...h, authorization: `Basic ${UNKNOWN_KEY}` })],
    ['an unknown key', (h) => ({ ...h, authorization: `Bearer ${UNKNOWN_KEY}` })],
    ['a revoked key', (h) => ({ ...h, authorization: revoked.headers.authorization })],
  ];

  for (const [label, headersFor] of cases) {
    it(`answers 401 unauthorized with WWW-Authenticate for ${label}`, async () => {
      for (const route of authenticatedRoutes(t.app)) {
        const res = await call(t.app, {
          method: route.method as 'GET',
          url: exampleUrl(route.url),
          headers: headersFor({ 'content-type': 'application/json' }),
          payload: route.method === 'GET' ? undefined : '{}',
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(res.data.error).toBe('unauthorized');
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    });
  }

  it('answers 403 insufficient_scope naming the scope to a key without it', async () => {
    for (const route of authenticatedRoutes(t.app)) {
      if (route.auth === 'any' || route.auth === 'ops') continue;
      const brand = noScopeFor.get(route.auth)!;
      const res = await call(t.app, {
        method: route.method as 'GET',
        url: exampleUrl(route.url),
        headers: { ...brand.headers, 'content-type': 'application/json' },
        payload: route.method === 'GET' ? undefined : '{}',
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.data.error).toBe('insufficient_scope');
      expect(res.data.message).toContain(route.auth);
    }
  });
});

describe('every account route that needs a session', () => {
  it('exists (the account area is in the catalog)', () => {
    expect(sessionRoutes(t.app).map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /account',
        'GET /account/keys',
        'POST /account/keys',
        'GET /account/keys/:keyId/new',
        'GET /account/shops/:connectionId/prestashop/linked',
        'GET /account/shops/:connectionId/prestashop/secret/new',
        'POST /account/company/tracking',
      ]),
    );
  });

  const cases: [string, Record<string, string>][] = [
    ['no cookie', {}],
    ['a valid API key instead', {}],
    ['a forged session cookie', { cookie: `dlv_session=${'A'.repeat(43)}.forged` }],
    ['an unsigned session token', { cookie: `dlv_session=${'A'.repeat(43)}` }],
  ];
  for (const [label, headers] of cases) {
    it(`sends ${label} to sign-in, doing nothing`, async () => {
      const brand = await createBrandWithKey(t.deps);
      for (const route of sessionRoutes(t.app)) {
        const res = await call(t.app, {
          method: route.method as 'GET',
          url: exampleUrl(route.url),
          headers: {
            ...headers,
            ...(label.includes('API key') ? brand.headers : {}),
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: route.method === 'GET' ? undefined : 'name=x&scopes=orders:read',
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(303);
        expect(res.headers.location).toBe('/account/sign-in');
      }
      expect((await t.deps.apiKeys.list(brand.brandId)).length).toBe(1);
    });
  }
});

describe('proof-of-delivery files', () => {
  it('open only with their signed link: no key, session or operator token stands in for it', async () => {
    const brand = await createBrandWithKey(t.deps);
    const routes = t.app.routeCatalog.filter((r) => r.url.startsWith('/proofs/'));
    expect(routes.map((r) => `${r.method} ${r.url} ${r.auth}`)).toEqual([
      'GET /proofs/:attemptId/:kind none',
    ]);
    const expires = Math.floor(Date.now() / 1000) + 600;
    for (const headers of [{}, brand.headers, { authorization: 'Bearer test-ops-token' }]) {
      for (const url of [
        '/proofs/att_0000000000000000/photo',
        `/proofs/att_0000000000000000/signature?expires=${expires}&sig=${'A'.repeat(43)}`,
        `/proofs/att_0000000000000000/photo?expires=${expires}&sig=`,
      ]) {
        const res = await call(t.app, { method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(404);
        expect(res.data).toMatchObject({
          error: 'not_found',
          message: 'No such file, or its link has expired.',
        });
      }
    }
  });
});

describe('every courier route that needs a courier session', () => {
  it('exists (the courier surface is in the catalog)', () => {
    expect(courierRoutes(t.app).map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /courier/logout',
        'GET /courier/api/v1/me',
        'GET /courier/api/v1/day',
        'POST /courier/api/v1/scans',
        'POST /courier/api/v1/pickups/:pickupId/close',
      ]),
    );
  });

  const cases: [string, () => Promise<Record<string, string>>][] = [
    ['no cookie', async () => ({})],
    ['a valid API key', async () => (await createBrandWithKey(t.deps)).headers],
    ['the OPS_TOKEN', async () => ({ authorization: 'Bearer test-ops-token' })],
    ['a forged courier cookie', async () => ({ cookie: `dlv_courier_session=${'A'.repeat(43)}.forged` })],
    [
      'a brand user’s session',
      async () => {
        const user = await createUser(t.deps);
        const b = new Browser(t.app, '10.9.9.9');
        expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
        const value = b.cookies.get('dlv_session')!;
        return { cookie: `dlv_session=${value}; dlv_courier_session=${value}` };
      },
    ],
  ];
  for (const [label, headersOf] of cases) {
    it(`refuses ${label}: 401 for the app's JSON calls, the sign-in for pages`, async () => {
      const headers = await headersOf();
      for (const route of courierRoutes(t.app)) {
        const res = await call(t.app, {
          method: route.method as 'GET',
          url: exampleUrl(route.url),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: route.method === 'GET' ? undefined : '{}',
        });
        if (route.url.startsWith('/courier/api/')) {
          expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
          expect(res.data.error).toBe('unauthorized');
        } else {
          expect(res.statusCode, `${route.method} ${route.url}`).toBe(303);
          expect(res.headers.location).toBe('/courier/login');
        }
      }
    });
  }
});

describe('the tracking page’s self-service (decision 0007)', () => {
  const SELF_SERVICE = [
    'GET /track/:token/change',
    'GET /track/:token/code',
    'GET /track/:token/verify',
    'POST /track/:token/code',
    'POST /track/:token/verify',
    'POST /track/:token/change',
  ];
  let ip = 0;
  const from = () => `203.0.113.${++ip}`;

  it('is in the catalog, public: the token in the URL is the credential', () => {
    const routes = trackingRoutes(t.app).map((r) => `${r.method} ${r.url} ${r.auth}`);
    for (const route of SELF_SERVICE) expect(routes).toContain(`${route} none`);
  });

  async function orderToken() {
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.order.tracking_ref;
    await t.deps.orders.setStatus(ref, 'picked_up', null);
    const { rows } = await t.pool.query('SELECT id, tracking_token FROM orders WHERE tracking_ref = $1', [
      ref,
    ]);
    return { id: rows[0].id as string, token: rows[0].tracking_token as string };
  }
  const written = async (orderId: string) => {
    const { rows } = await t.pool.query(
      `SELECT (SELECT count(*)::int FROM recipient_codes WHERE order_id = $1)
            + (SELECT count(*)::int FROM recipient_choices WHERE order_id = $1)
            + (SELECT count(*)::int FROM recipient_notifications WHERE order_id = $1) AS n`,
      [orderId],
    );
    return rows[0].n as number;
  };

  it('refuses every form without its CSRF token, whatever stands in for it: 403, nothing written', async () => {
    const order = await orderToken();
    const brand = await createBrandWithKey(t.deps);
    const credentials: [string, Record<string, string>, string][] = [
      ['nothing', {}, ''],
      ['an API key', brand.headers, ''],
      ['the OPS_TOKEN', { authorization: 'Bearer test-ops-token' }, ''],
      [
        'a forged CSRF cookie',
        { cookie: `dlv_track_csrf=${'A'.repeat(32)}.forged` },
        `&_csrf=${'A'.repeat(32)}`,
      ],
      ['an unsigned CSRF cookie', { cookie: 'dlv_track_csrf=abc' }, '&_csrf=abc'],
      ['a forged recipient session', { cookie: `dlv_recipient=${'A'.repeat(80)}` }, ''],
    ];
    for (const [label, headers, csrf] of credentials) {
      for (const action of ['code', 'verify', 'change']) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/track/${order.token}/${action}`,
          remoteAddress: from(),
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: `channel=email&code=123456&instructions=x${csrf}`,
        });
        expect(res.statusCode, `${label}: ${action}`).toBe(403);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      }
      // JSON instead of a form carries no token either.
      const json = await t.app.inject({
        method: 'POST',
        url: `/track/${order.token}/code`,
        remoteAddress: from(),
        headers,
        payload: { channel: 'email' },
      });
      expect(json.statusCode, label).toBe(403);
    }
    expect(await written(order.id)).toBe(0);
  });

  it('answers an unknown, malformed or overlong token with the tracking 404, on every route', async () => {
    for (const token of ['AAAAAAAAAAAAAAAAAAAAAA', 'x', 'A'.repeat(101), '%E0%A4%A']) {
      for (const route of SELF_SERVICE) {
        const [method, path] = route.split(' ') as ['GET' | 'POST', string];
        const res = await t.app.inject({
          method,
          url: path.replace(':token', token),
          remoteAddress: from(),
          ...(method === 'POST' && {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: '_csrf=x',
          }),
        });
        expect(res.statusCode, `${route} ${token.slice(0, 10)}`).toBe(404);
        expect(res.body).not.toContain('name="_csrf"');
      }
    }
  });

  it('refuses inputs out of shape with a page, writing nothing', async () => {
    const order = await orderToken();
    const b = new Browser(t.app, from());
    const page = await b.get(`/track/${order.token}/change`);
    const csrf = page.body.match(/name="_csrf" value="([^"]+)"/)![1]!;
    const cases: [string, Record<string, string | string[]>, number][] = [
      ['code', { channel: 'fax' }, 400],
      ['code', { channel: ['email', 'sms'].join('') }, 400],
      ['code', { channel: 'sms' }, 400], // no SMS sender wired in this app
      ['verify', { code: 'x'.repeat(5000) }, 400],
      ['verify', { code: '123456' }, 400], // no code was asked for
      ['code', { channel: 'email\u0000' }, 400],
      ['code', { channel: 'email\u0007' }, 400],
      ['change', { instructions: 'nul \u0000 here' }, 400],
    ];
    for (const [action, fields, status] of cases) {
      const res = await b.post(`/track/${order.token}/${action}`, { _csrf: csrf, ...fields });
      expect(res.status, `${action} ${JSON.stringify(fields)}`).toBe(status);
    }
    // Without the recipient's session, a change is sent back to the code step.
    const change = await b.post(`/track/${order.token}/change`, {
      _csrf: csrf,
      instructions: 'x',
      date: '2030-01-01',
    });
    expect(change.status).toBe(303);
    expect(await written(order.id)).toBe(0);
  });
});
