import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, type TestApp } from './support/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    extend(app) {
      // Test-only routes exercising the body pipeline before real POST routes exist.
      app.post(
        '/__test/echo',
        {
          config: { auth: 'none' },
          schema: {
            body: Type.Object(
              {
                name: Type.String({ maxLength: 5 }),
                email: Type.Optional(Type.String({ format: 'email' })),
                n: Type.Optional(Type.Integer()),
              },
              { additionalProperties: false },
            ),
          },
        },
        async (request) => ({ ok: true, body: request.body }),
      );
      app.get('/__test/boom', { config: { auth: 'none' } }, async () => {
        throw new Error('relation "secret_table" does not exist at Object.<anonymous> (/app/src/x.ts:1:1)');
      });
    },
  });
});
afterAll(() => t.close());

describe('error envelope and request ids', () => {
  it('answers ping without credentials', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API}/ping` });
    expect(res.statusCode).toBe(200);
    expect(res.data.ok).toBe(true);
  });

  it('answers unknown routes with 404 not_found in the envelope and a request id', async () => {
    const res = await call(t.app, { method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.data).toEqual({
      ok: false,
      error: 'not_found',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    expect(res.headers['x-request-id']).toBe(res.data.request_id);
  });

  it('echoes a sane incoming x-request-id and replaces an unsafe one', async () => {
    const sane = await call(t.app, {
      method: 'GET',
      url: `${API}/ping`,
      headers: { 'x-request-id': 'abc-123.def' },
    });
    expect(sane.headers['x-request-id']).toBe('abc-123.def');
    const unsafe = await call(t.app, {
      method: 'GET',
      url: '/nowhere',
      headers: { 'x-request-id': 'a b\u0000<script>' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    expect(unsafe.data.request_id).toBe(unsafe.headers['x-request-id']);
  });

  it('rejects malformed JSON with 400 invalid_request', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/__test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toBe('invalid_request');
  });

  it('rejects a non-JSON content type with 415', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/__test/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(res.statusCode).toBe(415);
    expect(res.data.error).toBe('unsupported_media_type');
  });

  it('rejects a body over 64 KiB with 413', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/__test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(70 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.data.error).toBe('payload_too_large');
  });

  it('names every invalid field in details: unknown, missing, wrong type, bad format, too long', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/__test/echo',
      payload: { email: 'nope', n: '3', extra: 1 },
    });
    expect(res.statusCode).toBe(400);
    const fields = (res.data.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['email', 'extra', 'n', 'name']);
    const long = await call(t.app, { method: 'POST', url: '/__test/echo', payload: { name: 'toolong' } });
    expect(long.data.details).toEqual([{ field: 'name', message: expect.stringContaining('5') }]);
  });

  it('never leaks internals on a 500', async () => {
    const res = await call(t.app, { method: 'GET', url: '/__test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.data.error).toBe('internal_error');
    expect(res.body).not.toMatch(/secret_table|\/app\/src|at Object/);
  });

  it('sends security headers on every response', async () => {
    for (const url of [`${API}/ping`, '/nowhere', `${API}/me`]) {
      const res = await call(t.app, { method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBeDefined();
    }
  });
});

describe('OpenAPI document and docs page', () => {
  it('serves an OpenAPI 3.1 document for version 1.0.0 with one /public/v1 server', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API}/openapi.json` });
    expect(res.statusCode).toBe(200);
    expect(res.data.openapi).toBe('3.1.0');
    expect(res.data.info.version).toBe('1.0.0');
    expect(res.data.servers).toHaveLength(1);
    expect(res.data.servers[0].url).toMatch(/\/public\/v1$/);
    expect(res.data.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(res.data.paths['/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(res.data.paths['/ping'].get.security).toEqual([]);
    expect(res.data.paths['/__test/echo']).toBeUndefined();
  });

  it('serves the reference page (Redoc) with its assets from this server (works offline)', async () => {
    const page = await call(t.app, { method: 'GET', url: `${API}/docs` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html');
    expect(page.body).toContain('Livraison DLV');
    expect(page.body).toContain('api@dlv.example');
    expect(page.body).not.toMatch(/(src|href)="https?:/);
    expect(page.body).not.toMatch(/<script>/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self';/);
    const assets = [...page.body.matchAll(/(?:src=|<link [^>]*href=)"([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toContain(`${API}/docs/reference.js`);
    const start = await call(t.app, { method: 'GET', url: `${API}/docs/reference.js` });
    expect(start.body).toContain("from './redoc.standalone.js'");
    assets.push(`${API}/docs/redoc.standalone.js`);
    for (const asset of assets) {
      expect(asset.startsWith(`${API}/docs/`), asset).toBe(true);
      const res = await call(t.app, { method: 'GET', url: asset });
      expect(res.statusCode, asset).toBe(200);
    }
  });
});
