import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createPool, type Pool } from '../src/db/pool.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { base32Decode } from '../src/domain/operators/totp.ts';
import { loggerOptions, redactUrl } from '../src/http/shared/logging.ts';
import { deliverWebhook } from '../src/jobs/webhooks-deliver.ts';
import { fanOutWebhookEvent } from '../src/jobs/webhooks-fan-out.ts';
import { API, call, createBrandWithKey, type TestBrand, testConfig } from './support/app.ts';
import { enrolledOperator } from './support/operators.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

/**
 * Credentials never appear in clear where they could leak from: the logs (the app runs with the
 * server's own logger settings, at `trace`, into memory) and the database (every row of every
 * table, graphile-worker's included; and `pg_dump` when its version matches the server's).
 *
 * - API keys (`dlv_…`): created through the service and through `dlv keys create`, used, mistyped,
 *   revoked, and misplaced in URLs. Only their SHA-256 is stored; only the public prefix
 *   (`dlv_` + 8 hex) may appear anywhere.
 * - The OPS_TOKEN: used, mistyped, misplaced in a URL. Never logged nor stored.
 * - Webhook signing secrets (`whsec_…`): they must be stored to sign (HMAC needs the secret itself),
 *   so the check is that they are stored in `webhook_endpoints` (`secret`, `previous_secret`) and
 *   nowhere else — not in jobs, events, deliveries or attempts — and never logged.
 *
 * The one intended exception: `npm start` on a brand-new embedded database prints the demo key
 * once on stdout (a console message for the person starting it, not a log line).
 */

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: Pool;
let deps: Deps;
let app: FastifyInstance;
let receiver: Receiver;
const logLines: string[] = [];
const cliOutput: string[] = [];

const OPS_TOKEN = `ops-${randomBytes(24).toString('hex')}`;
/** Every credential created by this file, by kind. */
const apiKeys: string[] = [];
const webhookSecrets: string[] = [];
/** The operations API's machine tokens, operators' session tokens and TOTP secrets (base32). */
const operatorSecrets: string[] = [];

const windows = (text: string, size = 16) =>
  Array.from({ length: Math.max(0, text.length - size + 1) }, (_, i) => text.slice(i, i + size));

/** The full credential and its secret parts, whole and in 16-character slices. */
function needles(secret: string): string[] {
  // A machine token's public prefix is `dlv_ops_` + 8 hex; an operator's session has none.
  if (secret.startsWith('dlv_ops_')) return [secret, secret.slice(16), ...windows(secret.slice(16))];
  if (secret.startsWith('dlv_sess_')) return [secret, secret.slice(9), ...windows(secret.slice(9))];
  if (/^[A-Z2-7]{32}$/.test(secret))
    return [secret, ...windows(secret), base32Decode(secret).toString('hex')];
  if (secret.startsWith('dlv_')) {
    // `dlv_` + 8 hex is the public prefix (GET /me, `dlv keys list`); the rest is the secret.
    const hidden = secret.slice(12);
    return [secret, secret.slice(4), hidden, ...windows(hidden)];
  }
  if (secret.startsWith('whsec_')) {
    const base64 = secret.slice(6);
    const encoded = encodeURIComponent(base64);
    return [
      secret,
      base64,
      ...windows(base64),
      ...windows(encoded),
      Buffer.from(base64, 'base64').toString('hex'),
    ];
  }
  return [secret, ...windows(secret)];
}

/** The needles (with what they belong to) found in a text. */
function leaks(text: string, secrets: string[]): string[] {
  return secrets.flatMap((secret) =>
    needles(secret)
      .filter((needle) => text.includes(needle))
      .map((needle) => `${secret.slice(0, 10)}… (as "${needle.slice(0, 24)}")`),
  );
}

let brand: TestBrand;
let cliKey: string;
let revokedKey: string;
let endpointId: string;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  const config = testConfig({ databaseUrl: scratch.url, opsToken: OPS_TOKEN, webhooksAllowInsecure: true });
  pool = createPool(scratch.url, 4);
  deps = createDeps(config, pool);
  app = await buildApp(deps, { logger: loggerOptions('trace', { write: (line) => logLines.push(line) }) });
  // An authenticated route that fails: the error is logged with its request.
  app.get('/public/v1/__test/boom', { config: { auth: 'any' } }, async () => {
    throw new Error('boom while serving an authenticated request');
  });
  await app.ready();
  receiver = await startReceiver((req) => ({
    // A receiver echoing what it got: the attempt's stored response excerpt holds the signature.
    status: 500,
    body: JSON.stringify(req.headers),
  }));

  brand = await createBrandWithKey(deps);
  apiKeys.push(brand.key);

  const env = { DATABASE_URL: scratch.url, WEBHOOKS_ALLOW_INSECURE: '1' };
  const dlv = async (args: string[]) => {
    const result = await runDlv(args, env);
    expect(result.code, `dlv ${args.join(' ')}: ${result.stderr}`).toBe(0);
    cliOutput.push(result.stderr);
    return JSON.parse(result.stdout) as Record<string, any>;
  };
  const scopes = ['--scopes', 'orders:read,orders:write,invoices:read'];
  cliKey = (await dlv(['keys', 'create', '--brand', brand.brandId, ...scopes, '--json'])).key;
  const revoked = await dlv(['keys', 'create', '--brand', brand.brandId, ...scopes, '--json']);
  revokedKey = revoked.key;
  await dlv(['keys', 'revoke', revoked.id, '--json']);
  apiKeys.push(cliKey, revokedKey);
  // Listing keys is not "creation": it shows prefixes only.
  const listed = await runDlv(['keys', 'list', '--brand', brand.brandId, '--json'], env);
  cliOutput.push(listed.stdout, listed.stderr);

  const endpoint = await dlv([
    'webhooks',
    'add',
    '--brand',
    brand.brandId,
    '--url',
    receiver.url(),
    '--json',
  ]);
  endpointId = endpoint.id;
  const rotated = await dlv(['webhooks', 'rotate-secret', endpointId, '--json']);
  webhookSecrets.push(endpoint.secret, rotated.secret);
  const webhooksList = await runDlv(['webhooks', 'list', '--brand', brand.brandId, '--json'], env);
  cliOutput.push(webhooksList.stdout, webhooksList.stderr);

  const machine = await dlv([
    'ops-tokens',
    'create',
    '--name',
    'secrets test',
    '--scopes',
    'orders:read',
    '--json',
  ]);
  operatorSecrets.push(machine.token);
  const tokens = await runDlv(['ops-tokens', 'list', '--json'], env);
  cliOutput.push(tokens.stdout, tokens.stderr);

  for (const key of apiKeys) expect(key).toMatch(/^dlv_[0-9a-f]{64}$/);
  for (const secret of webhookSecrets) expect(secret).toMatch(/^whsec_/);
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await receiver?.close();
  await scratch?.drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('credentials in the logs', () => {
  let trackingRef: string;

  beforeAll(async () => {
    const headers = bearer(brand.key);
    // Valid keys, on reads and writes (with an Idempotency-Key, replayed once).
    expect((await call(app, { method: 'GET', url: `${API}/me`, headers })).statusCode).toBe(200);
    expect((await call(app, { method: 'GET', url: `${API}/me`, headers: bearer(cliKey) })).statusCode).toBe(
      200,
    );
    const created = await createOrder(app, brand, VALID_ORDER, { 'idempotency-key': 'secrets-test-1' });
    expect(created.statusCode).toBe(200);
    trackingRef = created.data.trackingRef;
    await createOrder(app, brand, VALID_ORDER, { 'idempotency-key': 'secrets-test-1' });
    await call(app, { method: 'GET', url: `${API}/orders?status=pending`, headers });
    await call(app, { method: 'POST', url: `${API}/rates`, headers, payload: { delivery_zip: '75011' } });
    // A body carrying the key where an e-mail should be: 400, its value not echoed nor logged.
    await call(app, {
      method: 'POST',
      url: `${API}/orders`,
      headers,
      payload: { customer_email: brand.key },
    });
    await call(app, { method: 'GET', url: `${API}/__test/boom`, headers });

    // Wrong keys: unknown, one character off a real one, malformed, revoked, wrong scheme.
    const nearMiss = `${brand.key.slice(0, -1)}${brand.key.endsWith('0') ? '1' : '0'}`;
    for (const authorization of [
      `Bearer dlv_${randomBytes(32).toString('hex')}`,
      `Bearer ${nearMiss}`,
      `Bearer ${brand.key.slice(0, 40)}`,
      `Bearer ${revokedKey}`,
      `Basic ${Buffer.from(`user:${brand.key}`).toString('base64')}`,
      `Basic ${brand.key}`,
      `bearer ${brand.key}x`,
      brand.key,
    ]) {
      const res = await call(app, { method: 'GET', url: `${API}/me`, headers: { authorization } });
      expect(res.statusCode, authorization.slice(0, 12)).toBe(401);
    }
    apiKeys.push(nearMiss);

    // Keys and secrets misplaced in URLs (the API reads only the Authorization header).
    for (const url of [
      `${API}/me?api_key=${brand.key}`,
      `${API}/me?key=${cliKey}`,
      `${API}/me?access_token=${brand.key}&limit=1`,
      `${API}/orders?cursor=${brand.key}`,
      `${API}/${brand.key}`,
      `${API}/orders/${cliKey}`,
      `${API}/me?secret=${encodeURIComponent(webhookSecrets[0]!)}`,
      `${API}/me?whsec=${webhookSecrets[1]!}`,
      `/ops/v1/orders/${trackingRef}?token=${OPS_TOKEN}`,
      `/ops/v1/orders/${trackingRef}?ops_token=${OPS_TOKEN}`,
    ]) {
      await call(app, { method: 'GET', url, headers });
    }

    // The operations API, with its token and a wrong one.
    const ops = await call(app, {
      method: 'POST',
      url: `/ops/v1/orders/${trackingRef}/status`,
      headers: bearer(OPS_TOKEN),
      payload: { status: 'picked_up', note: 'scan' },
    });
    expect(ops.statusCode).toBe(200);
    const wrongOps = await call(app, {
      method: 'GET',
      url: `/ops/v1/orders/${trackingRef}`,
      headers: bearer(`${OPS_TOKEN}x`),
    });
    expect(wrongOps.statusCode).toBe(401);

    // An operator's session and a machine token: used, one character off, misplaced in URLs.
    const person = await enrolledOperator(app, deps, 'admin', () => new Date());
    operatorSecrets.push(person.token, person.secret);
    const [machine] = operatorSecrets as [string];
    for (const token of [machine, person.token]) {
      expect((await call(app, { method: 'GET', url: '/ops/v1/me', headers: bearer(token) })).statusCode).toBe(
        200,
      );
      const off = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
      expect((await call(app, { method: 'GET', url: '/ops/v1/me', headers: bearer(off) })).statusCode).toBe(
        401,
      );
      operatorSecrets.push(off);
      await call(app, { method: 'GET', url: `/ops/v1/orders/${token}` });
      await call(app, { method: 'GET', url: `/ops/v1/me?session=${token}` });
    }

    // A webhook delivery, signed with both secrets (a rotation is under way).
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id FROM outbox_events WHERE brand_id = $1 ORDER BY created_at LIMIT 1',
      [brand.brandId],
    );
    const [deliveryId] = await fanOutWebhookEvent(deps, rows[0]!.id);
    expect(await deliverWebhook(deps, deliveryId!)).toBe('failed');
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
  });

  it('are captured: the logger saw every request, at trace level', () => {
    const entries = logLines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(entries.filter((e) => e.msg === 'incoming request').length).toBeGreaterThan(25);
    expect(entries.some((e) => e.level === 50 && e.err)).toBe(true); // the forced 500
    // URLs are logged, with what looked like a credential replaced.
    const urls = entries.map((e) => e.req?.url).filter(Boolean) as string[];
    expect(urls).toContain(`${API}/me?api_key=[redacted]`);
    expect(urls).toContain(`${API}/${brand.key.slice(0, 12)}[redacted]`);
    expect(urls).toContain(`/ops/v1/orders/${trackingRef}?token=[redacted]`);
  });

  it('never contain an API key, the OPS_TOKEN or a webhook secret, whole or in part', () => {
    const text = logLines.join('\n');
    expect(leaks(text, [...apiKeys, OPS_TOKEN, ...webhookSecrets])).toEqual([]);
  });

  it("never contain a machine token, an operator's session or second-factor secret (issue 38)", () => {
    expect(operatorSecrets.length).toBe(5);
    expect(leaks(logLines.join('\n'), operatorSecrets)).toEqual([]);
  });

  it('dlv prints a key or secret only when creating it, and never on stderr', () => {
    const text = cliOutput.join('\n');
    expect(leaks(text, [...apiKeys, ...webhookSecrets, ...operatorSecrets])).toEqual([]);
  });

  it('redacts credentials in URLs, keeping the rest', () => {
    expect(redactUrl('/public/v1/orders?status=pending&limit=5')).toBe(
      '/public/v1/orders?status=pending&limit=5',
    );
    expect(redactUrl('/x?limit=1&apiKey=abc&y=2')).toBe('/x?limit=1&apiKey=[redacted]&y=2');
    expect(redactUrl('/x?Authorization=Bearer%20abc')).toBe('/x?Authorization=[redacted]');
    expect(redactUrl(`/x/${'dlv_0123456789abcdef'}`)).toBe('/x/dlv_01234567[redacted]');
    expect(redactUrl('/x?q=whsec_abc%2Bdef%3D')).toBe('/x?q=whsec_[redacted]');
    // The operations API's machine tokens and operators' sessions, misplaced in a path (issue 38).
    expect(redactUrl(`/ops/v1/x/dlv_ops_${'0a'.repeat(32)}`)).toBe('/ops/v1/x/dlv_ops_0a0a0a0a[redacted]');
    expect(redactUrl(`/ops/v1/x/dlv_sess_${'Ab-_'.repeat(10)}AbC/y`)).toBe('/ops/v1/x/dlv_sess_[redacted]/y');
    expect(redactUrl(`/unsubscribe/${'AbCd'.repeat(16)}Ef?lang=fr`)).toBe(
      '/unsubscribe/AbCd[redacted]?lang=fr',
    );
  });
});

describe('credentials in the database', () => {
  /** Every row of every table, in every schema but the catalogs, as JSON text, by table. */
  async function dumpAllRows(): Promise<Map<string, string[]>> {
    const { rows: tables } = await pool.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2`,
    );
    const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
    const dump = new Map<string, string[]>();
    for (const { schema, name } of tables) {
      const { rows } = await pool.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM ${quote(schema)}.${quote(name)} t`,
      );
      dump.set(
        `${schema}.${name}`,
        rows.map((r) => r.row),
      );
    }
    return dump;
  }

  let dump: Map<string, string[]>;
  beforeAll(async () => {
    dump = await dumpAllRows();
  });

  it('covers the application tables and the job queue', () => {
    const tables = [...dump.keys()];
    expect(tables).toEqual(
      expect.arrayContaining(['public.api_keys', 'public.webhook_endpoints', 'public.orders']),
    );
    expect(tables.some((name) => name.startsWith('graphile_worker.'))).toBe(true);
    expect(dump.get('public.api_keys')!.length).toBeGreaterThanOrEqual(3);
  });

  it('holds API keys only as SHA-256 digests, and never the OPS_TOKEN', () => {
    const text = [...dump.values()].flat().join('\n');
    expect(leaks(text, [...apiKeys, OPS_TOKEN])).toEqual([]);
    const stored = dump.get('public.api_keys')!.join('\n');
    for (const key of [brand.key, cliKey, revokedKey]) {
      const digest = createHash('sha256').update(key).digest('hex');
      expect(stored, `digest of ${key.slice(0, 12)}`).toContain(`\\\\x${digest}`);
      expect(stored).toContain(`"prefix":"${key.slice(0, 12)}"`);
    }
  });

  it("holds machine tokens and operators' sessions only as SHA-256 digests, and TOTP secrets sealed", () => {
    const text = [...dump.values()].flat().join('\n');
    expect(leaks(text, operatorSecrets)).toEqual([]);
    const [machine, session] = operatorSecrets as [string, string];
    const digest = (token: string) => `\\\\x${createHash('sha256').update(token).digest('hex')}`;
    expect(dump.get('public.ops_tokens')!.join('\n')).toContain(digest(machine));
    expect(dump.get('public.ops_tokens')!.join('\n')).toContain(`"prefix":"${machine.slice(0, 16)}"`);
    expect(dump.get('public.operator_sessions')!.join('\n')).toContain(digest(session));
  });

  it('holds webhook secrets (needed to sign) in webhook_endpoints.secret and previous_secret only', () => {
    const where = new Set<string>();
    for (const [table, rows] of dump) {
      for (const row of rows) {
        if (leaks(row, webhookSecrets).length === 0) continue;
        const parsed = JSON.parse(row) as Record<string, unknown>;
        for (const [column, value] of Object.entries(parsed)) {
          if (leaks(JSON.stringify(value), webhookSecrets).length > 0) where.add(`${table}.${column}`);
        }
      }
    }
    expect([...where].sort()).toEqual([
      'public.webhook_endpoints.previous_secret',
      'public.webhook_endpoints.secret',
    ]);
    // …and nothing else of the endpoint's history carries them: jobs, events, deliveries, attempts.
    const attempts = dump.get('public.webhook_attempts')!;
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.join('\n')).toContain('webhook-signature'); // the receiver's echo: signatures only
  });

  it('pg_dump of the database shows the same (when a pg_dump matching the server is installed)', async (ctx) => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'pg_dump',
        ['--data-only', '--no-owner', '--dbname', scratch.url],
        { maxBuffer: 256 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    if (result.code !== 0) {
      // No pg_dump, or an older one than the server (the embedded PostgreSQL is newer than most).
      ctx.skip();
      return;
    }
    expect(result.stdout).toContain('COPY public.api_keys');
    expect(leaks(result.stdout, [...apiKeys, OPS_TOKEN])).toEqual([]);
    // Webhook secrets: within the COPY block of webhook_endpoints only.
    const blocks = result.stdout.split(/^COPY /m).slice(1);
    const holding = blocks
      .filter((block) => leaks(block, webhookSecrets).length > 0)
      .map((block) => block.slice(0, block.indexOf(' ')));
    expect(holding).toEqual(['public.webhook_endpoints']);
  });
});
