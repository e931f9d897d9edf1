import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook } from '../src/jobs/webhooks-deliver.ts';
import { fanOutWebhookEvent } from '../src/jobs/webhooks-fan-out.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

// Own database: replays enqueue jobs that no other file's worker should pick up.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let env: Record<string, string>;
let receiver: Receiver;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url, webhooksAllowInsecure: true } });
  env = { DATABASE_URL: scratch.url, WEBHOOKS_ALLOW_INSECURE: '1' };
  receiver = await startReceiver(() => ({ status: 502, body: 'upstream down' }));
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

const json = (stdout: string) => {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, any>;
};

describe('dlv webhooks', () => {
  it('add, list, disable, enable and rotate-secret', async () => {
    const brand = await createBrandWithKey(t.deps);
    const add = await runDlv(
      [
        'webhooks',
        'add',
        '--brand',
        brand.brandId,
        '--url',
        receiver.url(),
        '--events',
        'order.created',
        '--json',
      ],
      env,
    );
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const created = json(add.stdout);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^whk_[0-9a-f]{16}$/),
      brand_id: brand.brandId,
      url: receiver.url(),
      events: ['order.created'],
      status: 'active',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });

    const [list, disable, rotate] = await Promise.all([
      runDlv(['webhooks', 'list', '--brand', brand.brandId, '--json'], env),
      runDlv(['webhooks', 'disable', created.id, '--json'], env),
      runDlv(['webhooks', 'rotate-secret', created.id, '--json'], env),
    ]);
    expect(json(list.stdout).endpoints).toEqual([expect.objectContaining({ id: created.id })]);
    expect(list.stdout).not.toContain('whsec_');
    expect(json(disable.stdout)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'disabled by the operator',
    });
    const enable = await runDlv(['webhooks', 'enable', created.id], env);
    expect(enable.stdout).toContain(`Enabled ${created.id}`);
    expect((await t.deps.webhooks.get(created.id)).status).toBe('active');
    const rotated = json(rotate.stdout);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const expires = new Date(rotated.previous_secret_expires_at).getTime();
    expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
  }, 60_000);

  it('deliveries shows each attempt; replay by delivery and since a time', async () => {
    const since1h = () => new Date(Date.now() - 3600_000).toISOString();
    const brand = await createBrandWithKey(t.deps);
    const { endpoint } = await t.deps.webhooks.add(
      { brandId: brand.brandId, url: receiver.url() },
      testOperator,
    );
    await createOrder(t.app, brand);
    const { rows } = await t.pool.query('SELECT id FROM outbox_events WHERE brand_id = $1', [brand.brandId]);
    const [deliveryId] = await fanOutWebhookEvent(t.deps, rows[0].id);
    expect(await deliverWebhook(t.deps, deliveryId!)).toBe('failed');

    const [listed, human] = await Promise.all([
      runDlv(['webhooks', 'deliveries', '--endpoint', endpoint.id, '--json'], env),
      runDlv(['webhooks', 'deliveries', '--endpoint', endpoint.id], env),
    ]);
    const [byId, since] = await Promise.all([
      runDlv(['webhooks', 'replay', '--delivery', deliveryId!, '--json'], env),
      // Within the retention (90 days): an earlier time is refused (test/message-log-retention.test.ts).
      runDlv(['webhooks', 'replay', '--since', since1h(), '--endpoint', endpoint.id, '--json'], env),
    ]);
    const [delivery] = json(listed.stdout).deliveries;
    expect(delivery).toMatchObject({
      id: deliveryId,
      event_id: rows[0].id,
      event_type: 'order.created',
      status: 'failed',
      attempt_count: 1,
      last_status: 502,
      attempts: [
        {
          attempt: 1,
          response_status: 502,
          response_excerpt: 'upstream down',
          error: 'HTTP 502',
          duration_ms: expect.any(Number),
          started_at: expect.any(String),
        },
      ],
    });
    expect(human.stdout).toMatch(/DELIVERY\s+EVENT/);
    expect(human.stdout).toContain('upstream down');
    expect(json(byId.stdout).deliveries[0]).toMatchObject({
      origin: 'replay',
      replay_of: deliveryId,
      event_id: rows[0].id,
      status: 'pending',
    });
    expect(json(since.stdout)).toMatchObject({ count: 1 });
    expect((await t.deps.webhooks.deliveries(endpoint.id)).map((d) => d.eventId)).toEqual([
      rows[0].id,
      rows[0].id,
      rows[0].id,
    ]);
  }, 60_000);

  it('escapes control characters of a request message in human output; --json stays exact (issue #23)', async () => {
    const brand = await createBrandWithKey(t.deps);
    // Stored as it is by hand: a new brand's name may not carry control characters (#36 item 10).
    await t.pool.query('UPDATE brands SET name = $2 WHERE id = $1', [brand.brandId, 'Shop\x1b[31m red']);
    const message = 'Our ERP\x1b[1A\x1b[2K forged line\x9b2J\u202e';
    const id = `whr_${randomBytes(8).toString('hex')}`;
    // As the account area's form stores it (its message is free text from the brand).
    await t.pool.query(
      `INSERT INTO webhook_requests (id, brand_id, user_id, url, event_types, message, created_at)
       VALUES ($1, $2, NULL, 'https://hooks.example.com/erp', '{order.created}', $3, now())`,
      [id, brand.brandId, message],
    );
    const human = await runDlv(['webhooks', 'requests'], env);
    expect(human.code).toBe(0);
    expect(
      [...human.stdout].filter((c) => c !== '\n' && /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(c)),
    ).toEqual([]);
    expect(human.stdout).toContain('Our ERP\\x1b[1A\\x1b[2K forged line\\x9b2J\\u202e');
    const exact = json((await runDlv(['webhooks', 'requests', '--json'], env)).stdout);
    expect(exact.requests.find((r: { id: string }) => r.id === id).message).toBe(message);
    await runDlv(['webhooks', 'requests', 'close', id, '--declined'], env);
  });

  it('refuses bad input: exit 2 for usage, 1 for a refused operation', async () => {
    const brand = await createBrandWithKey(t.deps);
    const [usage, ssrf, unknown] = await Promise.all([
      runDlv(['webhooks', 'replay', '--json'], env),
      runDlv(['webhooks', 'add', '--brand', brand.brandId, '--url', 'http://169.254.169.254/latest/'], env),
      runDlv(['webhooks', 'replay', '--since', 'yesterday'], env),
    ]);
    expect([usage.code, usage.stdout]).toEqual([2, '']);
    expect(usage.stderr).toContain('give exactly one of --delivery ID or --since TIME');
    expect(ssrf.code).toBe(1);
    expect(ssrf.stderr).toContain(
      '169.254.169.254 is not an allowed address; webhooks are only delivered to public addresses',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('since: "yesterday" is not an ISO 8601 time');
    expect(await t.deps.webhooks.list(brand.brandId)).toEqual([]);
  }, 60_000);

  // The server allowed http receivers (WEBHOOKS_ALLOW_INSECURE=1) while dlv, another process with
  // its own environment, answered only "url: must use https" (issue #36).
  it('says that WEBHOOKS_ALLOW_INSECURE must be set in its own environment when it refuses an http or loopback receiver', async () => {
    const brand = await createBrandWithKey(t.deps);
    const strict = { DATABASE_URL: env.DATABASE_URL! };
    const hint = "set WEBHOOKS_ALLOW_INSECURE=1 in dlv's environment too";
    const [http, loopback, metadata] = await Promise.all([
      runDlv(['webhooks', 'add', '--brand', brand.brandId, '--url', 'http://hooks.example.com/dlv'], strict),
      runDlv(['webhooks', 'add', '--brand', brand.brandId, '--url', 'https://127.0.0.1:9/dlv'], strict),
      runDlv(['webhooks', 'add', '--brand', brand.brandId, '--url', 'https://169.254.169.254/x'], strict),
    ]);
    expect(http.code).toBe(1);
    expect(http.stderr).toContain(
      `dlv: url: must use https (for a development receiver over http or on the loopback, ${hint}`,
    );
    expect(http.stderr).toContain('never in production');
    expect(loopback.code).toBe(1);
    expect(loopback.stderr).toContain('127.0.0.1 is not an allowed address');
    expect(loopback.stderr).toContain(hint);
    // An address no setting allows gets no such hint.
    expect(metadata.code).toBe(1);
    expect(metadata.stderr).not.toContain('WEBHOOKS_ALLOW_INSECURE');
    expect(await t.deps.webhooks.list(brand.brandId)).toEqual([]);
  }, 60_000);
});
