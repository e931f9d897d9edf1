import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysRepository } from '../src/db/repositories/api-keys-repository.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /me', () => {
  it('returns the brand and the key with its scopes, whatever they are', async () => {
    const b = await createBrandWithKey(t.deps, { scopes: ['invoices:read'], name: 'Maison Test' });
    const res = await call(t.app, { method: 'GET', url: `${API}/me`, headers: b.headers });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      ok: true,
      brand: { id: b.brandId, name: 'Maison Test', created_at: expect.stringMatching(/Z$/) },
      key: {
        id: b.keyId,
        prefix: b.key.slice(0, 12),
        scopes: ['invoices:read'],
        created_at: expect.stringMatching(/Z$/),
        last_used_at: expect.stringMatching(/Z$/),
      },
    });
    expect(res.data.key.prefix).toMatch(/^dlv_[0-9a-f]{8}$/);
  });

  it('records last_used_at in the database, coarsely', async () => {
    const b = await createBrandWithKey(t.deps);
    await call(t.app, { method: 'GET', url: `${API}/me`, headers: b.headers });
    await new Promise((r) => setTimeout(r, 50));
    const { rows } = await t.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [b.keyId]);
    expect(rows[0].last_used_at).toBeInstanceOf(Date);
  });

  it('stores only a SHA-256 digest of the key', async () => {
    const b = await createBrandWithKey(t.deps);
    const { rows } = await t.pool.query('SELECT row_to_json(k)::text AS j FROM api_keys k WHERE id = $1', [
      b.keyId,
    ]);
    expect(rows[0].j).not.toContain(b.key.slice(4));
  });

  it('refuses a key revoked by another instance within 5 seconds', async () => {
    const b = await createBrandWithKey(t.deps);
    expect((await call(t.app, { method: 'GET', url: `${API}/me`, headers: b.headers })).statusCode).toBe(200);
    // Revoke straight in the database, as another instance or the CLI would: this app's cache is not told.
    await apiKeysRepository(t.pool).revoke(b.keyId);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 6000) {
      status = (await call(t.app, { method: 'GET', url: `${API}/me`, headers: b.headers })).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a key revoked through this instance at once', async () => {
    const b = await createBrandWithKey(t.deps);
    await call(t.app, { method: 'GET', url: `${API}/me`, headers: b.headers });
    await t.deps.apiKeys.revoke(b.keyId, testOperator);
    const res = await call(t.app, { method: 'GET', url: `${API}/me`, headers: b.headers });
    expect(res.statusCode).toBe(401);
  });
});
