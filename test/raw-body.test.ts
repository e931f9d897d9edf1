import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';

// A route standing in for a shop's webhook receiver: it needs the exact bytes to check an HMAC.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extend: (app) => {
      app.post('/test/raw', { config: { auth: 'none', rawBody: true } }, async (request) => ({
        ok: true,
        raw: request.rawBody?.toString('base64') ?? null,
        parsed: request.body,
        hmac: createHmac('sha256', 'secret')
          .update(request.rawBody ?? '')
          .digest('base64'),
      }));
      app.post('/test/parsed', { config: { auth: 'none' } }, async (request) => ({
        ok: true,
        raw: request.rawBody,
        parsed: request.body,
      }));
    },
  });
});
afterAll(() => t.close());

describe('raw body for signature checks', () => {
  // Spacing, key order and escapes that a re-serialisation of the parsed JSON would change.
  const body = Buffer.from('{ "b":1,  "a":"\\u00e9t\u00e9" ,"n":1.50}\n', 'utf8');

  it('keeps the bytes received for a route that asks, beside the parsed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/raw',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    const json = res.json();
    expect(Buffer.from(json.raw, 'base64').equals(body)).toBe(true);
    expect(json.parsed).toEqual({ b: 1, a: 'été', n: 1.5 });
    expect(json.hmac).toBe(createHmac('sha256', 'secret').update(body).digest('base64'));
  });

  it('keeps nothing for the other routes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/parsed',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.json()).toEqual({ ok: true, raw: null, parsed: { b: 1, a: 'été', n: 1.5 } });
  });
});
