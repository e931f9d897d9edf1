import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runner, startWorker } from '../src/worker.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { SchemaToolkit } from './support/fuzz/json-schema.ts';
import { createOrder } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import {
  deliveriesSettled,
  drained,
  eventually,
  type Receiver,
  startReceiver,
  verifyWith,
} from './support/webhook-receiver.ts';

/**
 * The self-service subscription API (REST hooks of Zapier, n8n, Make), end to end: a real worker
 * delivers to a real receiver on loopback (WEBHOOKS_ALLOW_INSECURE), which verifies signatures
 * with the `standardwebhooks` package, as a brand's server would.
 */
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let runner: Runner;
let receiver: Receiver;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url, webhooksAllowInsecure: true } });
  // /gone answers 410 Gone, as a deleted Zap's hook does.
  receiver = await startReceiver((req) => ({ status: req.path.startsWith('/gone') ? 410 : 200 }));
  runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
});
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

const subscribe = (brand: TestBrand, body: object) =>
  call(t.app, { method: 'POST', url: `${API}/webhook-subscriptions`, headers: brand.headers, payload: body });
const request = (brand: TestBrand, method: 'GET' | 'DELETE', path: string) =>
  call(t.app, { method, url: `${API}${path}`, headers: brand.headers });
const hooksAt = (path: string) => receiver.received.filter((r) => r.path === path);

/** Waits until every queued fan-out and delivery has run. */
async function settled() {
  await drained(t.pool, 'webhooks_fan_out');
  await deliveriesSettled(t.pool);
}

describe('webhook subscriptions', () => {
  it('delivers order.created signed with the subscription’s secret, and nothing after unsubscribing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const path = `/${brand.brandId}/zap`;
    const created = await subscribe(brand, {
      url: receiver.url(path),
      event_types: ['order.created'],
      description: 'Zapier: New order',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, secret } = created.data;
    expect(secret).toMatch(/^whsec_/);
    expect(subscription).toMatchObject({
      url: receiver.url(path),
      event_types: ['order.created'],
      description: 'Zapier: New order',
      status: 'active',
      origin: 'api',
    });
    expect(subscription.id).toMatch(/^whk_[0-9a-f]{16}$/);
    // The secret is shown once: never in a read.
    const read = await request(brand, 'GET', `/webhook-subscriptions/${subscription.id}`);
    expect(read.data.subscription).toEqual(subscription);
    expect(read.body).not.toContain(secret);
    expect((await request(brand, 'GET', '/webhook-subscriptions')).data.subscriptions).toEqual([
      subscription,
    ]);
    // n8n registers a test and a production URL for one event: both receive it.
    const second = await subscribe(brand, {
      url: receiver.url(`${path}/test`),
      event_types: ['order.created'],
    });
    expect(second.statusCode).toBe(201);

    const order = await createOrder(t.app, brand);
    await eventually(async () => hooksAt(path).length === 1 && hooksAt(`${path}/test`).length === 1);
    const payload = verifyWith(secret, hooksAt(path)[0]!) as Record<string, any>;
    expect(payload.type).toBe('order.created');
    expect(payload.data.order.tracking_ref).toBe(order.data.trackingRef);
    expect(payload.data.order.customer_email).toBe('jane@example.com');
    expect(() => verifyWith(second.data.secret, hooksAt(path)[0]!)).toThrow();

    const deleted = await request(brand, 'DELETE', `/webhook-subscriptions/${subscription.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.data).toEqual({ ok: true, deleted: true });
    // Idempotent; but it is gone for reads.
    expect((await request(brand, 'DELETE', `/webhook-subscriptions/${subscription.id}`)).statusCode).toBe(
      200,
    );
    expect((await request(brand, 'GET', `/webhook-subscriptions/${subscription.id}`)).statusCode).toBe(404);
    expect(
      (await request(brand, 'GET', '/webhook-subscriptions')).data.subscriptions.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual([second.data.subscription.id]);

    // The other subscription still listens, so the event is written: only it receives it.
    await createOrder(t.app, brand);
    await eventually(async () => hooksAt(`${path}/test`).length === 2);
    await settled();
    expect(hooksAt(path)).toHaveLength(1);
  });

  it('deletes a subscription whose receiver answers 410 Gone', async () => {
    const brand = await createBrandWithKey(t.deps);
    const created = await subscribe(brand, {
      url: receiver.url(`/gone/${brand.brandId}`),
      event_types: ['order.created'],
    });
    await createOrder(t.app, brand);
    const id = created.data.subscription.id;
    await eventually(
      async () => (await request(brand, 'GET', `/webhook-subscriptions/${id}`)).statusCode === 404,
    );
    const { rows } = await t.pool.query(
      'SELECT status, disabled_reason FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ status: 'deleted', disabled_reason: 'the receiver answered 410 Gone' });
    expect((await request(brand, 'GET', '/webhook-subscriptions')).data.subscriptions).toEqual([]);
  });

  it('sends order.delivered and order.delivery_failed only to their subscribers, and only then', async () => {
    const brand = await createBrandWithKey(t.deps);
    const delivered = `/${brand.brandId}/delivered`;
    const changes = `/${brand.brandId}/changes`;
    await subscribe(brand, { url: receiver.url(delivered), event_types: ['order.delivered'] });
    await subscribe(brand, {
      url: receiver.url(changes),
      event_types: ['order.status_changed', 'order.delivery_failed'],
    });
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    for (const status of [
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
      'out_for_delivery',
    ])
      await t.deps.orders.setStatus(ref, status, null, testOperator);
    await settled();
    expect(hooksAt(delivered)).toHaveLength(0);
    await t.deps.orders.setStatus(ref, 'delivered', null, testOperator);
    await eventually(async () => hooksAt(delivered).length === 1 && hooksAt(changes).length === 7);
    await settled();

    expect(hooksAt(delivered).map((h) => [h.json.type, h.json.data.order.status])).toEqual([
      ['order.delivered', 'delivered'],
    ]);
    const types = hooksAt(changes).map((h) => h.json.type);
    expect(types.filter((type) => type === 'order.status_changed')).toHaveLength(6);
    expect(types.filter((type) => type === 'order.delivery_failed')).toHaveLength(1);
    // Nobody listens to order.created here: no such event was even written.
    const { rows } = await t.pool.query(
      "SELECT count(*)::int AS n FROM outbox_events WHERE brand_id = $1 AND type = 'order.created'",
      [brand.brandId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses the 26th subscription with 400, even when they are requested all at once', async () => {
    const brand = await createBrandWithKey(t.deps);
    const attempts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        subscribe(brand, { url: receiver.url(`/${brand.brandId}/${i}`), event_types: ['invoice.issued'] }),
      ),
    );
    const statuses = attempts.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    const refused = attempts.find((a) => a.statusCode === 400)!;
    expect(refused.data.error).toBe('invalid_request');
    expect(refused.data.message).toContain('at most 25');
    // Deleting one frees its slot.
    const one = attempts.find((a) => a.statusCode === 201)!.data.subscription.id;
    await request(brand, 'DELETE', `/webhook-subscriptions/${one}`);
    expect(
      (
        await subscribe(brand, {
          url: receiver.url(`/${brand.brandId}/again`),
          event_types: ['order.created'],
        })
      ).statusCode,
    ).toBe(201);
  });

  it('answers 404 for another brand’s subscription, and leaves it alone', async () => {
    const owner = await createBrandWithKey(t.deps);
    const other = await createBrandWithKey(t.deps);
    const id = (await subscribe(owner, { url: receiver.url('/owner'), event_types: ['order.created'] })).data
      .subscription.id;
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await request(other, method, `/webhook-subscriptions/${id}`);
      expect(res.statusCode, method).toBe(404);
      expect(res.data.error).toBe('not_found');
    }
    expect((await request(other, 'GET', '/webhook-subscriptions')).data.subscriptions).toEqual([]);
    expect((await request(owner, 'GET', `/webhook-subscriptions/${id}`)).data.subscription.status).toBe(
      'active',
    );
    // The operator's endpoints are not the brand's to list or delete through the API.
    const { endpoint } = await t.deps.webhooks.add(
      {
        brandId: owner.brandId,
        url: receiver.url('/operator'),
      },
      testOperator,
    );
    expect((await request(owner, 'DELETE', `/webhook-subscriptions/${endpoint.id}`)).statusCode).toBe(404);
    expect((await request(owner, 'GET', '/webhook-subscriptions')).data.subscriptions).toHaveLength(1);
  });

  it('refuses bad URLs (the SSRF guard) and unknown event types with 400, storing nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    for (const url of [
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'ftp://example.com/',
    ]) {
      const res = await subscribe(brand, { url, event_types: ['order.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.data.details[0].field).toBe('url');
    }
    const unknown = await subscribe(brand, { url: receiver.url('/x'), event_types: ['order.teleported'] });
    expect(unknown.statusCode).toBe(400);
    const none = await subscribe(brand, { url: receiver.url('/x'), event_types: [] });
    expect(none.statusCode).toBe(400);
    const { rows } = await t.pool.query(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE brand_id = $1',
      [brand.brandId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('says only that an address is not allowed, never what the host resolves to (issue #23)', async () => {
    // Without WEBHOOKS_ALLOW_INSECURE, as in production: localhost resolves to loopback addresses.
    const secure = await buildTestApp({ config: { databaseUrl: scratch.url } });
    try {
      const brand = await createBrandWithKey(secure.deps);
      const res = await call(secure.app, {
        method: 'POST',
        url: `${API}/webhook-subscriptions`,
        headers: brand.headers,
        payload: { url: 'https://localhost/hook', event_types: ['order.created'] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.data.details).toEqual([
        {
          field: 'url',
          message: 'localhost is not an allowed address; webhooks are only delivered to public addresses',
        },
      ]);
      expect(res.body).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    } finally {
      await secure.close();
    }
  });
});

describe('access to webhook subscriptions', () => {
  it('answers 403 webhooks_not_enabled, saying how to request access, until the operator allows the brand', async () => {
    const brand = await createBrandWithKey(t.deps, { webhooksAllowed: false, scopes: ['orders:read'] });
    for (const [method, path] of [
      ['POST', '/webhook-subscriptions'],
      ['GET', '/webhook-subscriptions'],
      ['DELETE', '/webhook-subscriptions/whk_0000000000000001'],
    ] as const) {
      const res = await call(t.app, {
        method,
        url: `${API}${path}`,
        headers: { ...brand.headers, 'content-type': 'application/json' },
        payload: method === 'POST' ? { url: receiver.url('/x'), event_types: ['order.created'] } : undefined,
      });
      expect(res.statusCode, path).toBe(403);
      expect(res.data.error).toBe('webhooks_not_enabled');
      expect(res.data.message).toContain('Request access');
      expect(res.data.message).toContain('webhooks:write');
    }
    // The catalogue is readable by any key, to show what a workflow could use.
    expect((await request(brand, 'GET', '/event-types')).statusCode).toBe(200);
    // Neither the operator nor the account area can give the scope before access is granted.
    await expect(
      t.deps.apiKeys.create(
        { brandId: brand.brandId, scopes: ['orders:read', 'webhooks:write'] },
        testOperator,
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'scopes' }] });

    const env = { DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' };
    const allowed = await runDlv(['brands', 'allow-webhooks', brand.brandId, '--json'], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).webhooks_allowed).toBe(true);
    const shown = await runDlv(['brands', 'show', brand.brandId], env);
    expect(shown.stdout).toMatch(/WEBHOOKS ALLOWED\s+yes/);
    const key = await t.deps.apiKeys.create(
      { brandId: brand.brandId, scopes: ['webhooks:write'] },
      testOperator,
    );
    const withScope = { ...brand, headers: { authorization: `Bearer ${key.key}` } };
    const created = await subscribe(withScope, {
      url: receiver.url('/allowed'),
      event_types: ['order.created'],
    });
    expect(created.statusCode).toBe(201);

    // Closing it again disables the brand's subscriptions at once, and closes the routes.
    const closed = await t.deps.brands.setWebhooksAllowed(brand.brandId, false, testOperator);
    expect(closed.disabledSubscriptions).toBe(1);
    expect((await request(withScope, 'GET', '/webhook-subscriptions')).data.error).toBe(
      'webhooks_not_enabled',
    );
    const { rows } = await t.pool.query('SELECT status FROM webhook_endpoints WHERE id = $1', [
      created.data.subscription.id,
    ]);
    expect(rows[0].status).toBe('disabled');
  });

  it('answers 403 insufficient_scope to a key of an allowed brand without webhooks:write', async () => {
    const brand = await createBrandWithKey(t.deps, { scopes: ['orders:read', 'orders:write'] });
    const res = await subscribe(brand, { url: receiver.url('/x'), event_types: ['order.created'] });
    expect(res.statusCode).toBe(403);
    expect(res.data.error).toBe('insufficient_scope');
    expect(res.data.message).toContain('webhooks:write');
  });
});

describe('GET /event-types', () => {
  it('describes every event type with a sample valid against the webhook schema of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const tk = new SchemaToolkit(doc);
    const brand = await createBrandWithKey(t.deps, { scopes: ['orders:read'] });
    const res = await request(brand, 'GET', '/event-types');
    const types = res.data.event_types as { type: string; description: string; sample: unknown }[];
    expect(types.map((e) => e.type)).toEqual(Object.keys(doc.webhooks));
    expect(types.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'order.created',
        'order.status_changed',
        'order.delivered',
        'order.delivery_failed',
      ]),
    );
    for (const { type, description, sample } of types) {
      expect(description.length, type).toBeGreaterThan(10);
      const schema = doc.webhooks[type].post.requestBody.content['application/json'].schema.properties.data;
      const validate = tk.validator(schema, 'response');
      expect(validate(sample), `${type}: ${JSON.stringify(tk.errorsOf(validate))}`).toBe(true);
    }
  });
});
