import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createBrandWithKey, type TestApp, testDatabaseUrl } from './support/app.ts';
import { bearer, enrolledOperator, TEST_ACTOR } from './support/operators.ts';
import { createOrder } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';

/**
 * Machine tokens of the operations API (issue 38): named, scoped, shown once, stored as digests,
 * refused once revoked or expired; and the bootstrap OPS_TOKEN beside them.
 */
const OPS_TOKEN = 'bootstrap-token-0123456789abcdef-xyz';
let t: TestApp;
let now = new Date();
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: OPS_TOKEN }, clock: () => now });
});
afterAll(() => t.close());

let ip = 0;
const from = () => `10.62.${Math.floor(++ip / 250)}.${ip % 250}`;
const get = (url: string, token: string) =>
  call(t.app, { method: 'GET', url, headers: bearer(token), remoteAddress: from() });

describe('a machine token', () => {
  it('works on its scopes, gets 403 naming the scope elsewhere, and 401 once revoked', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const created = await t.deps.opsTokens.create(
      { name: `scanner ${Date.now()}`, scopes: 'rounds:write,orders:read', expiresAt: null },
      TEST_ACTOR,
    );
    expect(created.token).toMatch(/^dlv_ops_[0-9a-f]{64}$/);
    expect(created.prefix).toBe(created.token.slice(0, 16));
    expect(created.scopes).toEqual(['orders:read', 'rounds:write']);

    expect((await get(`/ops/v1/orders/${ref}`, created.token)).statusCode).toBe(200);
    const planned = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/rounds/plan',
      headers: bearer(created.token),
      payload: { date: '2030-01-07' },
    });
    expect(planned.statusCode).toBe(200);
    const me = await get('/ops/v1/me', created.token);
    expect(me.data).toMatchObject({
      credential: 'token',
      scopes: ['orders:read', 'rounds:write'],
      operator: null,
      token: { id: created.id, prefix: created.prefix },
    });

    for (const [method, url, scope] of [
      ['GET', '/ops/v1/couriers', 'couriers:read'],
      ['POST', `/ops/v1/orders/${ref}/status`, 'orders:write'],
      ['GET', '/ops/v1/rounds?date=2030-01-07', 'rounds:read'],
      ['POST', '/ops/v1/invoices/issue', 'invoices:write'],
      ['GET', '/ops/v1/tokens', 'operators:read'],
    ] as const) {
      const res = await call(t.app, {
        method,
        url,
        headers: bearer(created.token),
        remoteAddress: from(),
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.data).toMatchObject({ error: 'insufficient_scope' });
      expect(res.data.message).toBe(
        `This machine token lacks the "${scope}" scope needed here; create a token with it (dlv ops-tokens create).`,
      );
    }
    // Nothing was changed by the refused write.
    expect((await get(`/ops/v1/orders/${ref}`, created.token)).data.order.status).toBe('pending');

    await t.deps.opsTokens.revoke(created.id, TEST_ACTOR);
    const revoked = await get(`/ops/v1/orders/${ref}`, created.token);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.data.error).toBe('unauthorized');
    expect(revoked.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('is refused by every instance within 5 seconds of a revocation made elsewhere', async () => {
    const created = await t.deps.opsTokens.create(
      { name: `elsewhere ${Date.now()}`, scopes: ['orders:read'], expiresAt: null },
      TEST_ACTOR,
    );
    expect((await get('/ops/v1/me', created.token)).statusCode).toBe(200);
    // `dlv ops-tokens revoke` is another process: this instance learns it from the database.
    const env = { DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'silent' };
    const out = await runDlv(['ops-tokens', 'revoke', created.id, '--json'], env);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    later(5);
    expect((await get('/ops/v1/me', created.token)).statusCode).toBe(401);
  });

  it('stops at its expiry, and keeps a coarse last-used time', async () => {
    const created = await t.deps.opsTokens.create(
      { name: `short ${Date.now()}`, scopes: ['orders:read'], expiresAt: new Date(now.getTime() + 60_000) },
      TEST_ACTOR,
    );
    expect(created.lastUsedAt).toBeNull();
    expect((await get('/ops/v1/me', created.token)).statusCode).toBe(200);
    await expect
      .poll(async () => (await t.deps.opsTokens.list()).find((x) => x.id === created.id)?.lastUsedAt)
      .not.toBeNull();
    later(61);
    expect((await get('/ops/v1/me', created.token)).statusCode).toBe(401);
  });

  it('is stored as its SHA-256 digest with a display prefix, never itself', async () => {
    const created = await t.deps.opsTokens.create(
      { name: `digest ${Date.now()}`, scopes: ['scans:write'], expiresAt: null },
      TEST_ACTOR,
    );
    const { rows } = await t.pool.query(
      'SELECT row_to_json(k)::text AS row, token_hash FROM ops_tokens k WHERE id = $1',
      [created.id],
    );
    expect(rows[0].token_hash).toEqual(createHash('sha256').update(created.token).digest());
    expect(rows[0].row).not.toContain(created.token.slice(16));
  });

  it('refuses people scopes, an unknown scope, a taken name and a past expiry, creating nothing', async () => {
    const name = `taken ${Date.now()}`;
    await t.deps.opsTokens.create({ name, scopes: ['orders:read'], expiresAt: null }, TEST_ACTOR);
    const before = (await t.deps.opsTokens.list()).length;
    const cases: [Parameters<typeof t.deps.opsTokens.create>[0], string][] = [
      [
        { name: 'x1', scopes: 'operators:write', expiresAt: null },
        'scopes: "operators:write" cannot be given to a machine token',
      ],
      [
        { name: 'x2', scopes: 'orders:read,orders:delete', expiresAt: null },
        'scopes: unknown scope "orders:delete"',
      ],
      [
        { name: name.toUpperCase(), scopes: 'orders:read', expiresAt: null },
        'name: another token that works has this name',
      ],
      [
        { name: 'x3', scopes: 'orders:read', expiresAt: new Date(now.getTime() - 1000) },
        'expires_at: must be in the future',
      ],
      [{ name: ' ', scopes: '', expiresAt: null }, 'Invalid request: name '],
    ];
    for (const [input, message] of cases)
      await expect(t.deps.opsTokens.create(input, TEST_ACTOR)).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining(message),
      });
    expect((await t.deps.opsTokens.list()).length).toBe(before);
  });
});

describe('tokens through the operations API', () => {
  it('are created, listed and revoked by an admin, never by a token or another role', async () => {
    const admin = await enrolledOperator(t.app, t.deps, 'admin', () => now);
    const support = await enrolledOperator(t.app, t.deps, 'support', () => now);
    const created = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/tokens',
      headers: bearer(admin.token),
      payload: { name: `hub scanner ${Date.now()}`, scopes: ['scans:write', 'orders:read'] },
    });
    expect(created.statusCode).toBe(201);
    const token = created.data.token;
    expect(token.token).toMatch(/^dlv_ops_[0-9a-f]{64}$/);
    const listed = await get('/ops/v1/tokens', support.token);
    expect(listed.statusCode).toBe(200);
    const shown = listed.data.tokens.find((x: { id: string }) => x.id === token.id);
    expect(shown).toMatchObject({ prefix: token.prefix, scopes: ['orders:read', 'scans:write'] });
    expect(JSON.stringify(listed.data)).not.toContain(token.token);

    const bySupport = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/tokens/${token.id}/revoke`,
      headers: bearer(support.token),
    });
    expect(bySupport.statusCode).toBe(403);
    expect(bySupport.data.message).toContain('"operators:write"');
    const byToken = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/tokens',
      headers: bearer(token.token),
      payload: { name: 'child', scopes: ['orders:read'] },
    });
    expect(byToken.statusCode).toBe(403);
    const revoked = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/tokens/${token.id}/revoke`,
      headers: bearer(admin.token),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.data.token.revoked_at).not.toBeNull();
    expect((await get('/ops/v1/me', token.token)).statusCode).toBe(401);
    const unknown = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/tokens/otk_0000000000000000/revoke',
      headers: bearer(admin.token),
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the bootstrap OPS_TOKEN', () => {
  it('holds every scope: it creates the first admin and tokens', async () => {
    const me = await get('/ops/v1/me', OPS_TOKEN);
    expect(me.data).toMatchObject({ credential: 'ops_token', operator: null, token: null });
    expect(me.data.scopes).toContain('operators:write');
    const added = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/operators',
      headers: bearer(OPS_TOKEN),
      payload: { email: `first-admin-${Date.now()}@ops.example`, name: 'First Admin', role: 'admin' },
    });
    expect(added.statusCode).toBe(201);
    // It is no session: the routes of a person's own session refuse it.
    const password = await call(t.app, {
      method: 'PUT',
      url: '/ops/v1/me/password',
      headers: bearer(OPS_TOKEN),
      payload: { password: 'whatever whatever 1' },
    });
    expect(password.statusCode).toBe(403);
  });

  it('is not needed: without it the operations API serves sessions and tokens, and refuses anything else', async () => {
    const plain = await buildTestApp();
    try {
      const token = await plain.deps.opsTokens.create(
        { name: `no bootstrap ${Date.now()}`, scopes: ['orders:read'], expiresAt: null },
        TEST_ACTOR,
      );
      const me = await call(plain.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(token.token) });
      expect(me.statusCode).toBe(200);
      const guessed = await call(plain.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(OPS_TOKEN) });
      expect(guessed.statusCode).toBe(401);
    } finally {
      await plain.close();
    }
  });
});

describe('dlv ops-tokens', () => {
  it('creates (shown once), lists (prefixes only) and revokes, with --json and exit codes', async () => {
    const env = { DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'silent' };
    const name = `cli token ${Date.now()}`;
    const created = await runDlv(
      [
        'ops-tokens',
        'create',
        '--name',
        name,
        '--scopes',
        'pickups:read,pickups:write',
        '--expires',
        '30d',
        '--json',
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const json = JSON.parse(created.stdout);
    expect(json).toMatchObject({
      name,
      scopes: ['pickups:read', 'pickups:write'],
      token: expect.stringMatching(/^dlv_ops_/),
    });
    const days = (Date.parse(json.expires_at) - Date.parse(json.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    const human = await runDlv(['ops-tokens', 'list'], env);
    expect(human.stdout).toContain(json.prefix);
    expect(human.stdout).not.toContain(json.token);
    const bad = await runDlv(['ops-tokens', 'create', '--name', 'x', '--scopes', 'operators:read'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('cannot be given to a machine token');
    const badExpiry = await runDlv(
      ['ops-tokens', 'create', '--name', 'x', '--scopes', 'orders:read', '--expires', 'soon'],
      env,
    );
    expect(badExpiry.code).toBe(1);
    expect(badExpiry.stderr).toContain('expires: give a number of days (90d)');
    const missing = await runDlv(['ops-tokens', 'create', '--name', 'x'], env);
    expect(missing.code).toBe(2);
    const revoked = await runDlv(['ops-tokens', 'revoke', json.id], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${json.id}`);
  });
});
