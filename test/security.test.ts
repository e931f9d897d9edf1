import { randomUUID } from 'node:crypto';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecretsRepository } from '../src/db/repositories/server-secrets-repository.ts';
import { SCOPES } from '../src/domain/api-keys/keys.ts';
import {
  OPERATOR_ROLES,
  type OperatorRole,
  type OpsScope,
  ROLE_SCOPES,
  TOKEN_SCOPES,
} from '../src/domain/operators/scopes.ts';
import { addressKeys } from '../src/domain/recipients/address-key.ts';
import { unsubscribeTokens } from '../src/domain/recipients/unsubscribe-token.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { logoImage } from './support/logos.ts';
import {
  bearer,
  enrolledOperator,
  operatorEmail,
  type SignedInOperator,
  TEST_ACTOR,
} from './support/operators.ts';
import { createOrder } from './support/orders.ts';
import { listKeyOf, optOutSource } from './support/recipients.ts';
import {
  authenticatedRoutes,
  courierRoutes,
  exampleUrl,
  opsRoutes,
  providerSignedRoutes,
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
  t = await buildTestApp({ config: { opsToken: 'test-ops-token-0123456789abcdefgh' } });
  revoked = await createBrandWithKey(t.deps);
  await t.deps.apiKeys.revoke(revoked.keyId, testOperator);
  noScopeFor = new Map();
  for (const scope of SCOPES) {
    noScopeFor.set(scope, await createBrandWithKey(t.deps, { scopes: SCOPES.filter((s) => s !== scope) }));
  }
});
afterAll(() => t.close());

const UNKNOWN_KEY = `dlv_${'ab'.repeat(32)}`;

/**
 * Each refused request from an address of its own: an address sending more wrong operator tokens
 * than the limit allows is answered 429 (test/rate-limit.test.ts), and these walks send one per route.
 */
let addresses = 0;
const anotherAddress = () => `10.81.${Math.floor(++addresses / 250)}.${addresses % 250}`;

describe('the operations API', () => {
  it('refuses a valid brand key: only an operator credential opens it', async () => {
    const brand = await createBrandWithKey(t.deps);
    for (const route of opsRoutes(t.app)) {
      const res = await call(t.app, {
        method: route.method as 'GET',
        url: exampleUrl(route.url),
        remoteAddress: anotherAddress(),
        headers: { ...brand.headers, 'content-type': 'application/json' },
        payload: route.method === 'GET' ? undefined : '{}',
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('serves without OPS_TOKEN (people and tokens open it), refusing what would have been the token', async () => {
    const plain = await buildTestApp();
    try {
      expect(opsRoutes(plain.app).length).toBe(opsRoutes(t.app).length);
      const res = await call(plain.app, {
        method: 'GET',
        url: '/ops/v1/orders/DLV-0000000000',
        headers: { authorization: 'Bearer test-ops-token-0123456789abcdefgh' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.data.error).toBe('unauthorized');
    } finally {
      await plain.close();
    }
  });
});

describe('every operations route', () => {
  // The app's clock, moved past a token's expiry.
  let now = new Date();
  let ops: TestApp;
  let people: Record<OperatorRole, SignedInOperator>;
  let revokedToken: string;
  let expiredToken: string;
  let signedOut: string;
  let ofDisabled: string;
  let setupSession: string;
  const withoutScope = new Map<string, string>();
  beforeAll(async () => {
    ops = await buildTestApp({ config: { opsToken: 'test-ops-token-0123456789abcdefgh' }, clock: () => now });
    const token = (scopes: readonly string[], expiresAt: Date | null = null) =>
      ops.deps.opsTokens.create({ name: `suite ${randomUUID()}`, scopes, expiresAt }, TEST_ACTOR);
    people = {
      admin: await enrolledOperator(ops.app, ops.deps, 'admin', () => now),
      dispatcher: await enrolledOperator(ops.app, ops.deps, 'dispatcher', () => now),
      finance: await enrolledOperator(ops.app, ops.deps, 'finance', () => now),
      support: await enrolledOperator(ops.app, ops.deps, 'support', () => now),
    };
    const revoked = await token(TOKEN_SCOPES);
    await ops.deps.opsTokens.revoke(revoked.id, TEST_ACTOR);
    revokedToken = revoked.token;
    expiredToken = (await token(TOKEN_SCOPES, new Date(now.getTime() + 60_000))).token;
    for (const scope of TOKEN_SCOPES)
      withoutScope.set(scope, (await token(TOKEN_SCOPES.filter((s) => s !== scope))).token);
    const leaving = await enrolledOperator(ops.app, ops.deps, 'admin', () => now);
    await call(ops.app, {
      method: 'DELETE',
      url: '/ops/v1/sessions/current',
      headers: bearer(leaving.token),
    });
    signedOut = leaving.token;
    const disabled = await enrolledOperator(ops.app, ops.deps, 'admin', () => now);
    await ops.deps.operators.disable(disabled.id, TEST_ACTOR);
    ofDisabled = disabled.token;
    const fresh = await ops.deps.operators.add(
      { email: operatorEmail('setup'), name: 'Setup', role: 'admin' },
      TEST_ACTOR,
    );
    const first = await call(ops.app, {
      method: 'POST',
      url: '/ops/v1/sessions',
      remoteAddress: anotherAddress(),
      payload: { email: fresh.operator.email, password: fresh.oneTimePassword },
    });
    setupSession = first.data.session.token;
    now = new Date(now.getTime() + 61_000);
  });
  afterAll(() => ops.close());

  const send = (route: { method: string; url: string }, headers: Record<string, string>) =>
    call(ops.app, {
      method: route.method as 'GET',
      url: exampleUrl(route.url),
      remoteAddress: anotherAddress(),
      headers: { ...headers, 'content-type': 'application/json' },
      payload: route.method === 'GET' ? undefined : '{}',
    });

  it('is in the catalog, each declaring what it requires', () => {
    const routes = opsRoutes(ops.app);
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) expect(route.ops, `${route.method} ${route.url}`).toBeDefined();
    expect(routes.map((r) => `${r.method} ${r.url} ${r.ops}`)).toEqual(
      expect.arrayContaining([
        'GET /ops/v1/orders/:trackingRef orders:read',
        'POST /ops/v1/orders/:trackingRef/status orders:write',
        'POST /ops/v1/invoices/issue invoices:write',
        'PUT /ops/v1/grids/default grids:write',
        'POST /ops/v1/brands brands:write',
        'POST /ops/v1/operators operators:write',
        'POST /ops/v1/tokens operators:write',
        'GET /ops/v1/me any',
        'PUT /ops/v1/me/password own_session',
      ]),
    );
    // Signing in is the one operation open to all (beside the API's own description and its page).
    const open = ops.app.routeCatalog
      .filter((r) => r.url.startsWith('/ops/v1/') && r.auth === 'none' && !r.url.startsWith('/ops/v1/docs'))
      .map((r) => `${r.method} ${r.url}`);
    expect(open).toEqual(['POST /ops/v1/sessions', 'GET /ops/v1/openapi.json']);
  });

  const missingOrWrong: [string, () => Record<string, string>][] = [
    ['no credential', () => ({})],
    ['an empty bearer', () => ({ authorization: 'Bearer ' })],
    ['a non-bearer scheme', () => ({ authorization: 'Basic test-ops-token-0123456789abcdefgh' })],
    ['a wrong OPS_TOKEN', () => bearer('test-ops-token-0123456789abcdefgX')],
    ['an unknown machine token', () => bearer(`dlv_ops_${'ab'.repeat(32)}`)],
    ['an unknown session', () => bearer(`dlv_sess_${'A'.repeat(43)}`)],
    ['a revoked machine token', () => bearer(revokedToken)],
    ['an expired machine token', () => bearer(expiredToken)],
    ['a signed-out session', () => bearer(signedOut)],
    ["a disabled operator's session", () => bearer(ofDisabled)],
  ];
  for (const [label, headersOf] of missingOrWrong) {
    it(`answers 401 unauthorized with WWW-Authenticate for ${label}`, async () => {
      for (const route of opsRoutes(ops.app)) {
        const res = await send(route, headersOf());
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(res.data.error).toBe('unauthorized');
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    });
  }

  it('answers 403 naming the scope to a machine token without it', async () => {
    for (const route of opsRoutes(ops.app)) {
      if (route.ops === 'any') continue;
      // People scopes and a person's own session: no token ever holds them.
      const token =
        route.ops === 'own_session' || route.ops!.startsWith('operators:')
          ? withoutScope.get('orders:read')!
          : withoutScope.get(route.ops!)!;
      const res = await send(route, bearer(token));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.data.error).toBe('insufficient_scope');
      if (route.ops !== 'own_session') expect(res.data.message).toContain(`"${route.ops}"`);
    }
  });

  it('answers 403 naming the scope to a person whose role lacks it, and setup_required to a setup session', async () => {
    for (const route of opsRoutes(ops.app)) {
      const requirement = route.ops!;
      if (requirement === 'any' || requirement === 'own_session') continue;
      for (const role of OPERATOR_ROLES.filter((r) => !ROLE_SCOPES[r].includes(requirement as OpsScope))) {
        const res = await send(route, bearer(people[role].token));
        expect(res.statusCode, `${role}: ${route.method} ${route.url}`).toBe(403);
        expect(res.data.error).toBe('insufficient_scope');
        expect(res.data.message).toContain(`Your role (${role}) does not allow "${requirement}"`);
      }
      const setup = await send(route, bearer(setupSession));
      expect(setup.statusCode, `setup: ${route.method} ${route.url}`).toBe(403);
      expect(setup.data.error).toBe('setup_required');
    }
  });

  it('lets through a credential that has what the route requires (the gate, not the handler, is what answered above)', async () => {
    for (const route of opsRoutes(ops.app)) {
      if (route.url === '/ops/v1/sessions/current') continue; // would end the session the other routes use
      const requirement = route.ops!;
      const holder =
        requirement === 'any' || requirement === 'own_session' || requirement.startsWith('operators:')
          ? people.admin.token
          : withoutScope.get(requirement === 'orders:read' ? 'scans:write' : 'orders:read')!;
      const res = await send(route, bearer(holder));
      expect(
        [401, 403],
        `${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 200)}`,
      ).not.toContain(res.statusCode);
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
        'POST /public/v1/addresses/validate',
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
          remoteAddress: anotherAddress(),
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
        remoteAddress: anotherAddress(),
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
        'GET /account/notifications',
        'POST /account/notifications',
        'POST /account/notifications/logo',
        'POST /account/notifications/logo/remove',
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
    for (const headers of [
      {},
      brand.headers,
      { authorization: 'Bearer test-ops-token-0123456789abcdefgh' },
    ]) {
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

describe('the brands’ logos (/track/assets/logo)', () => {
  it('are public by their digest only: no key, session or operator token opens another, none sets a cookie', async () => {
    const brand = await createBrandWithKey(t.deps);
    const other = await createBrandWithKey(t.deps);
    const { logoSha256 } = await t.deps.recipientSettings.uploadLogo(
      brand.brandId,
      await logoImage('png'),
      testOperator,
    );
    const routes = t.app.routeCatalog.filter((r) => r.url.startsWith('/track/assets/logo'));
    expect(routes.map((r) => `${r.method} ${r.url} ${r.auth}`)).toEqual([
      'GET /track/assets/logo/:brandId/:file none',
    ]);
    const user = await createUser(t.deps, { brandId: other.brandId });
    const b = new Browser(t.app, '10.9.9.10');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const session = { cookie: `dlv_session=${b.cookies.get('dlv_session')}` };
    for (const headers of [
      {},
      other.headers,
      brand.headers,
      session,
      { authorization: 'Bearer test-ops-token-0123456789abcdefgh' },
    ]) {
      const own = await call(t.app, {
        url: `/track/assets/logo/${brand.brandId}/${logoSha256}.png`,
        headers,
      });
      expect(own.statusCode).toBe(200);
      expect(own.headers['set-cookie']).toBeUndefined();
      for (const url of [
        `/track/assets/logo/${other.brandId}/${logoSha256}.png`,
        `/track/assets/logo/${brand.brandId}/${'f'.repeat(64)}.png`,
      ]) {
        const res = await call(t.app, { url, headers });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
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
    ['the OPS_TOKEN', async () => ({ authorization: 'Bearer test-ops-token-0123456789abcdefgh' })],
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

describe('the unsubscribe links (/unsubscribe/{token})', () => {
  const tokens = () =>
    unsubscribeTokens(
      () => serverSecretsRepository(t.pool).getOrCreate('unsubscribe_key'),
      addressKeys(t.deps.optOutKey.key),
    );
  const optedOut = async (address: string) => {
    const source = await optOutSource(t.deps, 'email', address);
    return source ? [{ source }] : [];
  };
  const ONE_CLICK = {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  };

  it('are public: the token is the credential (no key, session or operator token stands in for it)', () => {
    expect(
      t.app.routeCatalog
        .filter((r) => r.url.startsWith('/unsubscribe/'))
        .map((r) => `${r.method} ${r.url} ${r.auth}`),
    ).toEqual(['GET /unsubscribe/:token none', 'POST /unsubscribe/:token none']);
  });

  it('refuse a forged, altered or truncated token with a page, storing nothing, whatever credential comes with it', async () => {
    const address = `forged-${Date.now()}@example.com`;
    const real = await tokens().tokenFor('email', address);
    const bytes = Buffer.from(real, 'base64url');
    bytes[40]! ^= 1;
    const brand = await createBrandWithKey(t.deps);
    for (const token of [bytes.toString('base64url'), real.slice(0, -2), `${'A'.repeat(66)}`, 'x']) {
      for (const headers of [
        {},
        brand.headers,
        { authorization: 'Bearer test-ops-token-0123456789abcdefgh' },
      ]) {
        for (const method of ['GET', 'POST'] as const) {
          const res = await t.app.inject({
            method,
            url: `/unsubscribe/${token}`,
            remoteAddress: '10.78.0.1',
            ...(method === 'POST'
              ? { ...ONE_CLICK, headers: { ...ONE_CLICK.headers, ...headers } }
              : { headers }),
          });
          expect(res.statusCode, `${method} ${token}`).toBe(404);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        }
      }
    }
    expect(await optedOut(address)).toEqual([]);
  });

  it('GET never unsubscribes (mail scanners follow links); only a POST with its body does, without CSRF token (RFC 8058)', async () => {
    const address = `scanned-${Date.now()}@example.com`;
    const url = `/unsubscribe/${await tokens().tokenFor('email', address)}`;
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url, remoteAddress: '10.78.0.2' })).statusCode).toBe(200);
    expect(await optedOut(address)).toEqual([]);
    // A body that asks nothing, another content type, or an oversized body: refused, nothing stored.
    const refusals = [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=Yes' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'confirm=no' },
      { headers: { 'content-type': 'application/json' }, payload: '{"confirm":"yes"}' },
      { headers: { 'content-type': 'text/plain' }, payload: 'List-Unsubscribe=One-Click' },
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `confirm=yes&x=${'y'.repeat(4000)}`,
      },
    ];
    for (const refusal of refusals) {
      const res = await t.app.inject({ method: 'POST', url, remoteAddress: '10.78.0.2', ...refusal });
      expect(res.statusCode, refusal.payload.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await optedOut(address)).toEqual([]);
    // The mail client's one-click POST carries no cookie and no CSRF token: the token authorises it.
    const res = await t.app.inject({ method: 'POST', url, remoteAddress: '10.78.0.2', ...ONE_CLICK });
    expect(res.statusCode).toBe(200);
    expect(await optedOut(address)).toEqual([{ source: 'one_click' }]);
  });

  it('are rate-limited per client address, wrong tokens included', async () => {
    const url = `/unsubscribe/${'B'.repeat(66)}`;
    const from = (ip: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip });
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) status = (await from('10.77.0.1')).statusCode;
    expect(status).toBe(429);
    const limited = await from('10.77.0.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await from('10.77.0.2')).statusCode).toBe(404);
  });

  it('let every genuine link through from one address: a mailbox provider posts all its users’ one-clicks', async () => {
    const addresses = Array.from({ length: 45 }, (_, i) => `provider-${Date.now()}-${i}@example.com`);
    for (const address of addresses) {
      const token = await tokens().tokenFor('email', address);
      const res = await t.app.inject({
        method: 'POST',
        url: `/unsubscribe/${token}`,
        remoteAddress: '10.79.0.1',
        ...ONE_CLICK,
      });
      expect(res.statusCode, address).toBe(200);
    }
    for (const address of addresses) expect(await optedOut(address)).toEqual([{ source: 'one_click' }]);
    // Guessing from that same address is still limited.
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++)
      status = (
        await t.app.inject({
          method: 'GET',
          url: `/unsubscribe/${'C'.repeat(66)}`,
          remoteAddress: '10.79.0.1',
        })
      ).statusCode;
    expect(status).toBe(429);
  });
});

describe("Twilio's webhooks (/sms/twilio/*)", () => {
  const PUBLIC = 'https://sms.example.test';
  const TOKEN = 'a1'.repeat(16);
  const NUMBER = '+33699000001';
  let sms: TestApp;
  beforeAll(async () => {
    sms = await buildTestApp({
      config: {
        opsToken: 'test-ops-token-0123456789abcdefgh',
        publicBaseUrl: PUBLIC,
        twilio: {
          accountSid: `AC${'0'.repeat(32)}`,
          authToken: TOKEN,
          from: '+33757000001',
          apiBase: 'http://127.0.0.1:9',
        },
      },
    });
  });
  afterAll(() => sms.close());

  const optedOut = async () =>
    (
      await sms.pool.query(
        `SELECT count(*)::int AS n FROM recipient_opt_outs WHERE channel = 'sms' AND address_hash = $1`,
        [await listKeyOf(sms.deps, 'sms', NUMBER)],
      )
    ).rows[0].n as number;

  it('are public routes whose credential is the signature', () => {
    expect(
      sms.app.routeCatalog
        .filter((r) => r.url.startsWith('/sms/'))
        .map((r) => `${r.method} ${r.url} ${r.auth}`),
    ).toEqual(['POST /sms/twilio/status none', 'POST /sms/twilio/inbound none']);
  });

  it('refuse with 403 whatever else stands in for the signature, changing nothing and echoing no personal data', async () => {
    const brand = await createBrandWithKey(sms.deps);
    const fields = {
      From: NUMBER,
      Body: 'STOP',
      MessageSid: `SM${'1'.repeat(32)}`,
      MessageStatus: 'delivered',
    };
    const payload = new URLSearchParams(fields).toString();
    const signedElsewhere = twilio.getExpectedTwilioSignature(
      TOKEN,
      `http://localhost/sms/twilio/inbound`,
      fields,
    );
    const credentials: Record<string, string>[] = [
      {},
      brand.headers,
      { authorization: 'Bearer test-ops-token-0123456789abcdefgh' },
      { authorization: `Basic ${Buffer.from(`AC${'0'.repeat(32)}:${TOKEN}`).toString('base64')}` },
      { cookie: `dlv_session=${'A'.repeat(43)}.forged` },
      { 'x-twilio-signature': '' },
      { 'x-twilio-signature': signedElsewhere },
      {
        'x-twilio-signature': twilio.getExpectedTwilioSignature(
          'b2'.repeat(16),
          `${PUBLIC}/sms/twilio/inbound`,
          fields,
        ),
      },
    ];
    for (const { url } of providerSignedRoutes(sms.app)) {
      for (const headers of credentials) {
        const res = await call(sms.app, {
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.data).toMatchObject({ ok: false, error: 'invalid_signature' });
        expect(res.body).not.toContain(NUMBER.slice(1));
        expect(res.body).not.toContain('STOP');
      }
    }
    expect(await optedOut()).toBe(0);
    // The same text, signed by Twilio over the public URL, is taken.
    const signed = await call(sms.app, {
      method: 'POST',
      url: '/sms/twilio/inbound',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(
          TOKEN,
          `${PUBLIC}/sms/twilio/inbound`,
          fields,
        ),
      },
      payload,
    });
    expect(signed.statusCode).toBe(200);
    expect(await optedOut()).toBe(1);
  });

  it('take only form bodies, bounded', async () => {
    for (const { url } of providerSignedRoutes(sms.app)) {
      const json = await call(sms.app, {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(json.statusCode, url).toBe(415);
      const huge = await call(sms.app, {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `Body=${'x'.repeat(20 * 1024)}`,
      });
      expect(huge.statusCode, url).toBe(413);
    }
  });
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
    await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
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
      ['the OPS_TOKEN', { authorization: 'Bearer test-ops-token-0123456789abcdefgh' }, ''],
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
