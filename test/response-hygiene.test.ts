import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../src/http/console/index.ts';
import { COURIER_APP_CSP } from '../src/http/courier/app-shell.ts';
import { COURIER_CSP } from '../src/http/courier/session.ts';
import type { RouteAuthInfo } from '../src/http/shared/plugins/auth.ts';
import { UNKNOWN_KEY_POLICY } from '../src/http/shared/unknown-key-limit.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { createOrder } from './support/orders.ts';
import { exampleUrl } from './support/security-fixtures.ts';

/**
 * Every response, whatever answers it (a route, the 404 handler, the error handler, a hook that
 * refused the request, the docs plugin), carries the security headers; every error body is the
 * envelope and nothing else: no stack trace, no file path, no SQL, whatever was thrown. Driven by
 * the route catalog (a new route joins automatically), with a set of unknown routes and
 * test-only routes that fail in every way a handler can.
 */

const OPS_TOKEN = 'response-hygiene-ops-token-0123456789';
const ACCOUNT_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'";
const GENERIC_500 = 'An internal error occurred; it has been logged with this request id.';

let t: TestApp;
let brand: TestBrand;
let trackingRef: string;

/** Things handlers throw, each full of what must not reach a client. */
const FAILURES: Record<string, () => unknown> = {
  error: () => new Error('relation "secret_table" does not exist'),
  'pg error': () =>
    Object.assign(new Error('duplicate key value violates unique constraint "api_keys_key_hash_key"'), {
      code: '23505',
      detail: 'Key (key_hash)=(\\x0102) already exists.',
      schema: 'public',
      table: 'api_keys',
      where: 'SQL statement "INSERT INTO api_keys VALUES ($1)"',
    }),
  'type error': () => new TypeError("Cannot read properties of undefined (reading 'brandId')"),
  string: () => 'raw failure at Object.<anonymous> (/work/main/src/x.ts:1:1)',
  'object with a 5xx status': () =>
    Object.assign(new Error('upstream said: SELECT * FROM orders'), { statusCode: 502 }),
};

function registerFailingRoutes(app: FastifyInstance): void {
  for (const [name, make] of Object.entries(FAILURES)) {
    const slug = name.replaceAll(' ', '-');
    app.get(`/__test/throw/${slug}`, { config: { auth: 'none' } }, async () => {
      throw make();
    });
    app.get(`/__test/throw-authenticated/${slug}`, { config: { auth: 'any' } }, async () => {
      throw make();
    });
    app.get(
      `/__test/throw-in-hook/${slug}`,
      {
        config: { auth: 'none' },
        onRequest: async () => {
          throw make();
        },
      },
      async () => ({ ok: true }),
    );
  }
  // A handler whose answer does not fit its response schema: the serializer fails.
  app.get(
    '/__test/bad-response',
    {
      config: { auth: 'none' },
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['ok', 'must_be_here'],
            properties: { ok: { type: 'boolean' }, must_be_here: { type: 'string' } },
          },
        },
      },
    },
    async () => ({ ok: true }),
  );
}

/** Twilio's webhooks (/sms/twilio/*) exist only with Twilio: on here, so the walk covers them too. */
const TWILIO = {
  accountSid: `AC${'0'.repeat(32)}`,
  authToken: 'c3'.repeat(16),
  from: '+33757000001',
  apiBase: 'http://127.0.0.1:9',
};

beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: OPS_TOKEN, twilio: TWILIO }, extend: registerFailingRoutes });
  brand = await createBrandWithKey(t.deps);
  trackingRef = (await createOrder(t.app, brand)).data.trackingRef;
});
afterAll(() => t.close());

/** Headers every response must carry, with their values (a RegExp when they vary by page). */
const SECURITY_HEADERS: Record<string, string | RegExp> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': /^max-age=\d{7,}; includeSubDomains$/,
  'content-security-policy': /frame-ancestors 'none'/,
};

// What a stack trace, a source path or SQL looks like in a body.
const INTERNALS = [
  /\bat [\w.<>]+ \(/,
  /\n\s+at /,
  /\/(work|app|home|src|node_modules)\//,
  /\.(ts|js|mjs|cjs):\d+/,
  /\b(SELECT|INSERT|UPDATE|DELETE)\b.+\b(FROM|INTO|SET)\b/i,
  /relation "|constraint "|key_hash|secret_table|duplicate key/i,
  /"stack"|"code"\s*:\s*"(2|4|5)\d{4}"|TypeError|Cannot read properties/,
];

type Response = Awaited<ReturnType<typeof call>>;

function checkResponse(res: Response, label: string, request: { method?: string; url?: string } = {}): void {
  for (const [name, expected] of Object.entries(SECURITY_HEADERS)) {
    const value = res.headers[name];
    expect(value, `${label}: ${name}`).toBeDefined();
    if (typeof expected === 'string') expect(value, `${label}: ${name}`).toBe(expected);
    else expect(String(value), `${label}: ${name}`).toMatch(expected);
  }
  expect(res.headers['x-request-id'], `${label}: x-request-id`).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers['x-powered-by'], label).toBeUndefined();
  const path = (request.url ?? '').split('?')[0]!;
  // The recipients' tracking pages are HTML for people, not the API: their own CSP, and errors
  // as pages (checked below for what they must not show either).
  if (/^\/track(\/|$)/.test(path)) {
    expect(res.headers['content-security-policy'], label).toMatch(/^default-src 'none'; style-src 'self';/);
    expect(res.headers['x-robots-tag'], label).toMatch(/^noindex/);
    if (res.statusCode >= 400) {
      expect(res.headers['cache-control'], label).toBe('no-store');
      if (request.method !== 'HEAD') {
        expect(res.headers['content-type'], label).toBe('text/html; charset=utf-8');
        for (const pattern of INTERNALS) expect(res.body, `${label}: ${pattern}`).not.toMatch(pattern);
      }
    }
    return;
  }
  // The recipients' unsubscribe page: the tracking pages' headers, its one form posting to itself.
  if (/^\/unsubscribe(\/|$)/.test(path)) {
    expect(res.headers['content-security-policy'], label).toMatch(
      /^default-src 'none'; style-src 'self';.*form-action 'self'; frame-ancestors 'none'$/,
    );
    expect(res.headers['x-robots-tag'], label).toMatch(/^noindex/);
    expect(res.headers['cache-control'], label).toBe('no-store');
    if (res.statusCode >= 400 && request.method !== 'HEAD') {
      expect(res.headers['content-type'], label).toBe('text/html; charset=utf-8');
      for (const pattern of INTERNALS) expect(res.body, `${label}: ${pattern}`).not.toMatch(pattern);
    }
    return;
  }
  // The account area answers with pages (and error pages), under its own stricter-for-pages CSP.
  if ((request.url ?? '').startsWith('/account')) {
    expect(res.headers['content-security-policy'], label).toBe(ACCOUNT_CSP);
    if (res.statusCode >= 400 && request.method !== 'HEAD') {
      expect(res.headers['content-type'], `${label}: content-type`).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], label).toBe('no-store');
      for (const pattern of INTERNALS) expect(res.body, `${label}: ${pattern}`).not.toMatch(pattern);
    }
    return;
  }
  // The operator's console: pages and error pages under its own CSP (its one script from this origin).
  if (/^\/console(\/|$)/.test(path)) {
    expect(res.headers['content-security-policy'], label).toBe(CONSOLE_CSP);
    if (res.statusCode >= 400 && request.method !== 'HEAD') {
      expect(res.headers['content-type'], `${label}: content-type`).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], label).toBe('no-store');
      for (const pattern of INTERNALS) expect(res.body, `${label}: ${pattern}`).not.toMatch(pattern);
    }
    return;
  }
  // The courier app's shell, files, manifest and service worker: the app's own CSP (scripts from
  // this origin, WebAssembly for the barcode reader); errors in the API's envelope.
  if (/^\/courier(\/|\/(assets\/.*|manifest\.webmanifest|sw\.js))?$/.test(path)) {
    expect(res.headers['content-security-policy'], label).toBe(COURIER_APP_CSP);
    if (res.statusCode >= 400) expect(res.headers['cache-control'], label).toBe('no-store');
    if (res.statusCode >= 400 && request.method !== 'HEAD') checkErrorBody(res, label);
    return;
  }
  // The rest of the courier surface: its sign-in pages (HTML errors) and the app's JSON calls.
  if (/^\/courier(\/|$)/.test(path)) {
    expect(res.headers['content-security-policy'], label).toBe(COURIER_CSP);
    if (res.statusCode >= 400 && request.method !== 'HEAD') {
      if (path.startsWith('/courier/api/')) checkErrorBody(res, label);
      else {
        expect(res.headers['content-type'], `${label}: content-type`).toMatch(/^text\/html/);
        for (const pattern of INTERNALS) expect(res.body, `${label}: ${pattern}`).not.toMatch(pattern);
      }
    }
    return;
  }
  const isDocs = /\/docs(\/|$)/.test(path);
  if (!isDocs) {
    expect(res.headers['content-security-policy'], label).toBe("default-src 'none'; frame-ancestors 'none'");
    if (res.statusCode >= 400) expect(res.headers['cache-control'], label).toBe('no-store');
  }
  if (res.statusCode >= 400 && request.method !== 'HEAD') checkErrorBody(res, label);
}

function checkErrorBody(res: Response, label: string): void {
  expect(res.headers['content-type'], `${label}: content-type`).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort(), `${label}: envelope keys`).toEqual(
    expect.arrayContaining(['error', 'message', 'ok', 'request_id']),
  );
  for (const key of Object.keys(body)) {
    expect(['ok', 'error', 'message', 'request_id', 'details'], `${label}: key ${key}`).toContain(key);
  }
  expect(body.ok).toBe(false);
  expect(body.request_id, `${label}: request_id = header`).toBe(res.headers['x-request-id']);
  for (const pattern of INTERNALS) expect(res.body, `${label}: ${pattern}`).not.toMatch(pattern);
  if (res.statusCode === 500)
    expect(body, label).toMatchObject({ error: 'internal_error', message: GENERIC_500 });
}

/** Requests for one catalog route: every way in, each reaching a different layer. */
function requestsFor(route: RouteAuthInfo): { label: string; options: Parameters<typeof call>[1] }[] {
  const method = route.method as 'GET';
  const url = exampleUrl(route.url).replace('*', 'index.html');
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(method);
  const keyHeaders = route.auth === 'ops' ? { authorization: `Bearer ${OPS_TOKEN}` } : brand.headers;
  const withKey = route.auth === 'none' ? {} : keyHeaders;
  const real = url.replace('DLV-0000000000', trackingRef);
  const list = [
    { label: 'no credentials', options: { method, url } },
    { label: 'a wrong key', options: { method, url, headers: { authorization: 'Bearer dlv_nope' } } },
    { label: 'a valid key, unknown object', options: { method, url, headers: withKey } },
    {
      label: 'a valid key, a real object',
      options: {
        method,
        url: real,
        headers: { ...withKey, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        payload: hasBody ? '{}' : undefined,
      },
    },
    {
      label: 'an overlong path parameter or an unknown query value',
      options: {
        method,
        url: route.url.includes(':')
          ? url.replace(/DLV-0{10}|inv_0{16}/, 'X'.repeat(300))
          : `${url}?limit=0&zzz=1`,
        headers: withKey,
      },
    },
    { label: 'HEAD', options: { method: 'HEAD' as const, url, headers: withKey } },
  ];
  if (hasBody) {
    list.push(
      {
        label: 'malformed JSON',
        options: {
          method,
          url,
          headers: { ...withKey, 'content-type': 'application/json' },
          payload: '{"a":',
        },
      },
      {
        label: 'an unknown field',
        options: {
          method,
          url: real,
          headers: { ...withKey, 'content-type': 'application/json' },
          payload: JSON.stringify({ ['x'.repeat(5000)]: 1, status: 'nope' }),
        },
      },
      {
        label: 'text/plain',
        options: { method, url, headers: { ...withKey, 'content-type': 'text/plain' }, payload: 'hi' },
      },
      {
        label: 'a body over 64 KiB',
        options: {
          method,
          url,
          headers: { ...withKey, 'content-type': 'application/json' },
          payload: JSON.stringify({ note: 'x'.repeat(70 * 1024) }),
        },
      },
    );
  }
  return list;
}

describe('every route of the catalog', () => {
  it('answers every kind of request with the security headers, and errors with the bare envelope', async () => {
    const routes = t.app.routeCatalog.filter((r) => !r.url.startsWith('/__test'));
    expect(routes.length).toBeGreaterThan(12);
    const statuses = new Set<number>();
    for (const route of routes) {
      for (const { label, options } of requestsFor(route)) {
        const res = await call(t.app, options);
        statuses.add(res.statusCode);
        checkResponse(res, `${route.method} ${route.url} with ${label} (${res.statusCode})`, {
          method: options.method,
          url: String(options.url),
        });
      }
    }
    // The walk reached every layer that answers.
    for (const status of [200, 400, 401, 404, 413, 415]) expect([...statuses]).toContain(status);
  });

  it('bounds error bodies that echo the request (an unknown field thousands of times over)', async () => {
    const payload = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`f${i}_${'y'.repeat(10)}`, 1]),
    );
    const res = await call(t.app, {
      method: 'POST',
      url: `${API}/orders`,
      headers: brand.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    checkResponse(res, 'thousands of unknown fields');
    expect(res.data.details.length).toBeLessThanOrEqual(50);
    expect(res.data.message.length).toBeLessThanOrEqual(1000);
    expect(res.body.length).toBeLessThan(20_000);
    const long = await call(t.app, {
      method: 'POST',
      url: `${API}/orders`,
      headers: brand.headers,
      payload: { ['z'.repeat(20_000)]: 1, customer_email: 'a@b.fr' },
    });
    expect(long.statusCode).toBe(400);
    expect(long.data.details[0].field.length).toBeLessThanOrEqual(200);
    expect(long.body.length).toBeLessThan(2_000);
  });
});

describe('routes the API does not have', () => {
  const unknown: [string, string][] = [
    ['GET', '/'],
    ['GET', '/nowhere'],
    ['GET', '/public/v1'],
    ['GET', '/public/v2/orders'],
    ['POST', '/public/v1/nowhere'],
    ['DELETE', `${API}/orders`],
    ['PUT', `${API}/orders/DLV-0000000000`],
    ['OPTIONS', `${API}/orders`],
    ['GET', `${API}/orders/DLV-0000000000/events`],
    ['GET', '/ops/v1/nowhere'],
    ['GET', `${API}/orders/%E0%A4%A`],
    ['GET', `${API}/docs/static/../../../../etc/passwd`],
    ['GET', `${API}/docs/static/does-not-exist.js`],
    ['GET', '/track/a/b'],
    ['GET', `/track/${'x'.repeat(300)}`],
    ['POST', '/track/unknown-token'],
    ['GET', '/unsubscribe/unknown-token'],
    ['GET', `/unsubscribe/${'x'.repeat(300)}`],
    ['GET', '/unsubscribe/%E0%A4%A'],
    ['POST', '/unsubscribe/unknown-token'],
    ['DELETE', '/unsubscribe/unknown-token'],
  ];
  for (const [method, url] of unknown) {
    it(`${method} ${url}: 4xx in the envelope (a page under /track and /unsubscribe), with the security headers`, async () => {
      const res = await call(t.app, { method: method as 'GET', url, headers: brand.headers });
      expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      checkResponse(res, `${method} ${url} (${res.statusCode})`, { method, url });
      expect(res.body).not.toMatch(/root:x?:0:0/); // no file served from outside the docs assets
    });
  }
});

describe('failures inside the API', () => {
  for (const name of Object.keys(FAILURES)) {
    const slug = name.replaceAll(' ', '-');
    for (const [where, headers] of [
      ['throw', {}],
      ['throw-authenticated', null],
      ['throw-in-hook', {}],
    ] as const) {
      it(`a ${name} thrown (${where}) is a generic 500 with the security headers`, async () => {
        const res = await call(t.app, {
          method: 'GET',
          url: `/__test/${where}/${slug}`,
          headers: headers ?? brand.headers,
        });
        expect(res.statusCode).toBe(500);
        checkResponse(res, `${where}/${slug}`);
        expect(res.data).toEqual({
          ok: false,
          error: 'internal_error',
          message: GENERIC_500,
          request_id: expect.any(String),
        });
      });
    }
  }

  it('a response that does not fit its schema is a generic 500, not a partial body', async () => {
    const res = await call(t.app, { method: 'GET', url: '/__test/bad-response' });
    expect(res.statusCode).toBe(500);
    checkResponse(res, 'bad response');
  });

  it('a refused request past the rate limit (429) has the headers and the envelope', async () => {
    const limited = await buildTestApp({ config: { rateLimitPerSecond: 1, rateLimitBurst: 1 } });
    try {
      const key = await createBrandWithKey(limited.deps);
      let res = await call(limited.app, { method: 'GET', url: `${API}/me`, headers: key.headers });
      expect(res.statusCode).toBe(200);
      res = await call(limited.app, { method: 'GET', url: `${API}/me`, headers: key.headers });
      expect(res.statusCode).toBe(429);
      checkResponse(res, '429');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);
      // A key without the route's scope is counted too (its 403 says where it stands).
      const noScope = await createBrandWithKey(limited.deps, { scopes: ['invoices:read'] });
      const refused = await call(limited.app, {
        method: 'GET',
        url: `${API}/orders`,
        headers: noScope.headers,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['ratelimit-policy']).toBe('"per-key";q=1;w=1');
      checkResponse(refused, '403');
      const again = await call(limited.app, {
        method: 'GET',
        url: `${API}/orders`,
        headers: noScope.headers,
      });
      expect(again.statusCode).toBe(429);
      // Unknown keys from one address past their limit: the same 429 envelope and headers.
      let unknown: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i <= UNKNOWN_KEY_POLICY.burst; i++) {
        unknown = await call(limited.app, {
          method: 'GET',
          url: `${API}/me`,
          remoteAddress: '192.0.2.77',
          headers: { authorization: `Bearer dlv_${i.toString(16).padStart(64, '0')}` },
        });
      }
      expect(unknown!.statusCode).toBe(429);
      checkResponse(unknown!, 'unknown keys 429');
      expect(unknown!.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
