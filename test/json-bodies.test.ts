import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';

// The JSON body parser takes a short cut for the usual body (no backslash, neither `__proto__` nor
// `constructor` in the text) and the checked way for everything else: both must answer alike.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extend: (app) => {
      app.post('/test/parsed', { config: { auth: 'none' } }, async (request) => ({
        ok: true,
        parsed: request.body,
      }));
    },
  });
});
afterAll(() => t.close());

const post = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/test/parsed',
    headers: { 'content-type': 'application/json' },
    payload,
  });

describe('JSON bodies', () => {
  it('parses the usual body as JSON.parse does', async () => {
    const res = await post('{"a":[1,2.5,{"b":null}],"c":"été","d":true}');
    expect(res.statusCode).toBe(200);
    expect(res.json().parsed).toEqual({ a: [1, 2.5, { b: null }], c: 'été', d: true });
  });

  it('refuses prototype poisoning, written plainly or with escapes', async () => {
    for (const body of [
      '{"__proto__":{"admin":true}}',
      '{"\\u005f_proto__":{"admin":true}}',
      '{"a":{"constructor":{"prototype":{"admin":true}}}}',
      '{"a":{"\\u0063onstructor":{"prototype":{"admin":true}}}}',
    ]) {
      const res = await post(body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json().ok, body).toBe(false);
    }
  });

  it('accepts the words themselves inside values, and escapes that spell nothing', async () => {
    const res = await post('{"street":"__proto__ and constructor lane","note":"a\\nb"}');
    expect(res.statusCode).toBe(200);
    expect(res.json().parsed).toEqual({ street: '__proto__ and constructor lane', note: 'a\nb' });
  });

  it('answers a syntax error the same way with or without a backslash in the text', async () => {
    const plain = await post('{"a":1');
    const escaped = await post('{"a":"\\n"');
    expect(plain.statusCode).toBe(400);
    expect(escaped.statusCode).toBe(400);
    expect(plain.json().error.code).toBe(escaped.json().error.code);
  });

  it('refuses NUL and lone surrogates carried by escapes, naming the field', async () => {
    for (const body of ['{"name":"a\\u0000b"}', '{"name":"\\ud800"}']) {
      const res = await post(body);
      expect(res.statusCode, body).toBe(400);
      expect(JSON.stringify(res.json()), body).toContain('name');
    }
  });

  it('takes an empty body as no body', async () => {
    const res = await post('  ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });
});
