import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { createPool, type Pool } from '../src/db/pool.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { jobQueueOn } from '../src/infra/queue/job-queue.ts';
import { type Observability, startObservability } from '../src/observability.ts';
import { type Runner, startWorker } from '../src/worker.ts';
import { API, buildTestApp, createBrandWithKey, testConfig } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import { parseExposition, type Sample, samplesOf, sampleValue } from './support/prometheus-text.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { eventually, type Receiver, startReceiver } from './support/webhook-receiver.ts';

// A database of its own: the queue's backlog and the sync problems are counted over the whole database.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let pool: Pool;
let config: Config;
let observability: Observability;
let deps: Deps;
let app: FastifyInstance;
const TOKEN = randomBytes(24).toString('hex');

beforeAll(async () => {
  scratch = await createScratchDatabase();
  config = testConfig({ databaseUrl: scratch.url, webhooksAllowInsecure: true, metricsToken: TOKEN });
  pool = createPool(scratch.url, 10);
  observability = (await startObservability(config, { api: pool }, { sourceTtlMs: 0 }))!;
  deps = createDeps(config, pool, undefined, { observers: observability.observers });
  app = await buildApp(deps, { metrics: observability.http });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await observability?.close();
  await pool?.end();
  await scratch?.drop();
});

async function scrape(on: FastifyInstance = app): Promise<Sample[]> {
  const response = await on.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  return parseExposition(response.body);
}

describe('/metrics on the API port', () => {
  it('is a 404 in the usual envelope when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    expect(await startObservability(testConfig(), { api: pool })).toBeNull();
    const plain = await buildTestApp();
    try {
      const response = await plain.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ ok: false, error: 'not_found' });
    } finally {
      await plain.close();
    }
  });

  it('needs the bearer token: missing or wrong is a 401 in the API error shape, right is the exposition', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
      const response = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json()).toMatchObject({ ok: false, error: 'unauthorized' });
      expect(response.json().message).toContain('METRICS_TOKEN');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.headers['x-request-id']).toBeTruthy();
      expect(response.body).not.toContain('dlv_');
    }
    const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseExposition(response.body);
    // The default process metrics, under the same prefix.
    expect(sampleValue(samples, 'dlv_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samplesOf(samples, 'dlv_nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it('counts requests by route pattern (never the raw URL), method and status, with latency buckets', async () => {
    const brand = await createBrandWithKey(deps);
    const ref = `DLV-${randomBytes(4).toString('hex').toUpperCase()}`;
    const unknownPath = `${API}/no-such-${randomBytes(6).toString('hex')}`;
    const me = await app.inject({ url: `${API}/me`, headers: brand.headers });
    expect(me.statusCode).toBe(200);
    const order = await app.inject({ url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(order.statusCode).toBeGreaterThanOrEqual(400);
    const unknown = await app.inject({ url: unknownPath, headers: brand.headers });
    expect(unknown.statusCode).toBe(404);

    const samples = await scrape();
    const name = 'dlv_http_request_duration_seconds';
    const meLabels = { route: `${API}/me`, method: 'GET', status: '200' };
    expect(sampleValue(samples, `${name}_count`, meLabels)).toBeGreaterThanOrEqual(1);
    const buckets = samplesOf(samples, `${name}_bucket`, meLabels);
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
    expect(buckets.at(-1)!.value).toBe(sampleValue(samples, `${name}_count`, meLabels));
    expect(sampleValue(samples, `${name}_sum`, meLabels)).toBeGreaterThan(0);

    const orderRoute = samplesOf(samples, `${name}_count`, { status: String(order.statusCode) }).find((s) =>
      s.labels.route!.startsWith(`${API}/orders/:`),
    );
    expect(orderRoute?.labels.route).toMatch(/^\/public\/v1\/orders\/:\w+$/);
    expect(
      sampleValue(samples, `${name}_count`, { route: 'unmatched', method: 'GET', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    // No series carries a URL, a reference or a brand.
    const labelValues = samples.flatMap((s) => Object.values(s.labels)).join('\n');
    expect(labelValues).not.toContain(ref);
    expect(labelValues).not.toContain(unknownPath);
    expect(labelValues).not.toContain(brand.brandId);
  });

  it('counts the 429s by reason: a key past its limit, unknown keys from one address', async () => {
    const limited = await buildApp(
      createDeps({ ...config, rateLimitPerSecond: 1, rateLimitBurst: 1 }, pool),
      {
        metrics: observability.http,
      },
    );
    try {
      const before = await scrape();
      const count = (samples: Sample[], reason: string) =>
        sampleValue(samples, 'dlv_http_rate_limited_total', { reason }) ?? 0;
      const brand = await createBrandWithKey(deps);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await limited.inject({ url: `${API}/me`, headers: brand.headers })).statusCode);
      const perKey = statuses.filter((s) => s === 429).length;
      expect(perKey).toBeGreaterThanOrEqual(1);
      let unknownKeyRefusals = 0;
      for (let i = 0; i < 25; i++) {
        const key = `dlv_${randomBytes(32).toString('hex')}`;
        const response = await limited.inject({
          url: `${API}/me`,
          headers: { authorization: `Bearer ${key}` },
        });
        if (response.statusCode === 429) unknownKeyRefusals++;
      }
      expect(unknownKeyRefusals).toBeGreaterThanOrEqual(1);
      const after = await scrape();
      expect(count(after, 'per_key') - count(before, 'per_key')).toBe(perKey);
      expect(count(after, 'unknown_key') - count(before, 'unknown_key')).toBe(unknownKeyRefusals);
    } finally {
      await limited.close();
    }
  });

  it('shows the pool: connections by state, its size, waiting callers and time to get a connection', async () => {
    await Promise.all(Array.from({ length: 5 }, () => pool.query('SELECT pg_sleep(0.05)')));
    const samples = await scrape();
    expect(sampleValue(samples, 'dlv_db_pool_max_connections', { pool: 'api' })).toBe(10);
    const idle = sampleValue(samples, 'dlv_db_pool_connections', { pool: 'api', state: 'idle' })!;
    const inUse = sampleValue(samples, 'dlv_db_pool_connections', { pool: 'api', state: 'in_use' })!;
    expect(idle + inUse).toBeGreaterThanOrEqual(5);
    expect(sampleValue(samples, 'dlv_db_pool_waiting_clients', { pool: 'api' })).toBe(0);
    expect(sampleValue(samples, 'dlv_db_pool_acquire_seconds_count', { pool: 'api' })).toBeGreaterThanOrEqual(
      5,
    );
  });
});

describe('the job queue, jobs and webhook deliveries', () => {
  it('reports the backlog per task: ready, scheduled, and how long the oldest has waited', async () => {
    const queue = jobQueueOn(pool);
    const task = 'metrics_probe_no_worker_knows';
    const past = new Date(Date.now() - 90_000);
    for (let i = 0; i < 3; i++) await queue.add(task, { i }, { runAt: past });
    await queue.add(task, { later: true }, { runAt: new Date(Date.now() + 3_600_000) });
    try {
      const samples = await scrape();
      expect(sampleValue(samples, 'dlv_job_queue_jobs', { task, state: 'ready' })).toBe(3);
      expect(sampleValue(samples, 'dlv_job_queue_jobs', { task, state: 'scheduled' })).toBe(1);
      expect(sampleValue(samples, 'dlv_job_queue_jobs', { task, state: 'running' })).toBe(0);
      expect(sampleValue(samples, 'dlv_job_queue_jobs', { task, state: 'failed' })).toBe(0);
      const age = sampleValue(samples, 'dlv_job_queue_oldest_ready_age_seconds', { task })!;
      expect(age).toBeGreaterThanOrEqual(89);
      expect(age).toBeLessThan(3600);
    } finally {
      await queue.remove({ task });
    }
    const drained = await scrape();
    expect(sampleValue(drained, 'dlv_job_queue_jobs', { task, state: 'ready' })).toBe(0);
    expect(sampleValue(drained, 'dlv_job_queue_oldest_ready_age_seconds', { task })).toBe(0);
  });

  it('counts job runs and webhook attempts: delivered with their lag, failed by reason', async () => {
    let receiver: Receiver | undefined;
    let runner: Runner | undefined;
    try {
      receiver = await startReceiver((hook) => ({ status: hook.path === '/down' ? 503 : 200 }));
      const before = await scrape();
      const up = await createBrandWithKey(deps);
      const down = await createBrandWithKey(deps);
      await deps.webhooks.add({ brandId: up.brandId, url: receiver.url('/up') }, testOperator);
      await deps.webhooks.add({ brandId: down.brandId, url: receiver.url('/down') }, testOperator);
      runner = await startWorker(deps, {
        pollIntervalMs: 100,
        concurrency: 2,
        jobObserver: observability.jobObserver,
      });
      expect((await createOrder(app, up)).statusCode).toBe(200);
      expect((await createOrder(app, down)).statusCode).toBe(200);
      const hooks = receiver;
      await eventually(
        async () =>
          hooks.received.some((h) => h.path === '/up') && hooks.received.some((h) => h.path === '/down'),
      );

      const delta = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
        (sampleValue(samples, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
      const after = await eventually(async () => {
        const samples = await scrape();
        // Deliveries are sent by the worker's dispatcher (no job per delivery): their attempts are
        // counted as they finish; the fan-out jobs that made them are counted as jobs.
        // A fan-out job is counted when it returns, which can be after its delivery arrived.
        return delta(samples, 'dlv_webhook_deliveries_total', { outcome: 'retrying' }) >= 1 &&
          delta(samples, 'dlv_webhook_deliveries_total', { outcome: 'delivered' }) >= 1 &&
          delta(samples, 'dlv_job_duration_seconds_count', {
            task: 'webhooks_fan_out',
            outcome: 'succeeded',
          }) >= 2
          ? samples
          : undefined;
      });
      expect(delta(after, 'dlv_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
      expect(delta(after, 'dlv_webhook_deliveries_total', { outcome: 'retrying' })).toBe(1);
      expect(delta(after, 'dlv_webhook_delivery_failures_total', { reason: 'http_5xx' })).toBe(1);
      expect(delta(after, 'dlv_webhook_delivery_lag_seconds_count')).toBe(1);
      const lag = delta(after, 'dlv_webhook_delivery_lag_seconds_sum');
      expect(lag).toBeGreaterThan(0);
      expect(lag).toBeLessThan(60);
      expect(
        delta(after, 'dlv_job_duration_seconds_count', { task: 'webhooks_fan_out', outcome: 'succeeded' }),
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await runner?.stop();
      await receiver?.close();
    }
  });

  it('shows the shops’ sync problems by platform and kind', async () => {
    const brand = await createBrandWithKey(deps);
    const connection = `con_${randomBytes(8).toString('hex')}`;
    await pool.query(
      `INSERT INTO connector_connections (id, brand_id, platform, shop, status, created_at, updated_at, disconnected_at)
       VALUES ($1, $2, 'woocommerce', 'https://shop.example', 'disconnected', now(), now(), now())`,
      [connection, brand.brandId],
    );
    for (const [externalId, kind] of [
      ['1', 'out_of_zone'],
      ['2', 'out_of_zone'],
      ['3', 'unpriceable'],
    ]) {
      await pool.query(
        `INSERT INTO connector_problems (id, connection_id, brand_id, kind, external_id, message, created_at)
         VALUES ($1, $2, $3, $4, $5, 'test', now())`,
        [`cpb_${randomBytes(8).toString('hex')}`, connection, brand.brandId, kind, externalId],
      );
    }
    const samples = await scrape();
    expect(
      sampleValue(samples, 'dlv_connector_sync_problems', { platform: 'woocommerce', kind: 'out_of_zone' }),
    ).toBe(2);
    expect(
      sampleValue(samples, 'dlv_connector_sync_problems', { platform: 'woocommerce', kind: 'unpriceable' }),
    ).toBe(1);
    expect(samples.flatMap((s) => Object.values(s.labels))).not.toContain(brand.brandId);
  });
});

describe('outside the API: METRICS_PORT, the worker’s health server', () => {
  it('serves /metrics alone on a port of its own, without authentication', async () => {
    const own = (await startObservability(
      { ...config, metricsToken: null, metricsPort: 0 },
      { worker: pool },
    ))!;
    const ownApp = await buildApp(createDeps(config, pool), { metrics: own.http });
    try {
      expect(own.server).not.toBeNull();
      await ownApp.inject({ url: `${API}/event-types` });
      const base = `http://127.0.0.1:${own.server!.port}`;
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const samples = parseExposition(await response.text());
      expect(sampleValue(samples, 'dlv_db_pool_max_connections', { pool: 'worker' })).toBe(10);
      expect(
        samplesOf(samples, 'dlv_http_request_duration_seconds_count', { route: `${API}/event-types` }),
      ).toHaveLength(1);
      const elsewhere = await fetch(`${base}/`);
      expect(elsewhere.status).toBe(404);
      // The API's error envelope and request ids, as on every port of the service.
      const envelope = (await elsewhere.json()) as Record<string, unknown>;
      expect(envelope).toEqual({
        ok: false,
        error: 'not_found',
        message: 'No route GET /: this port serves GET /metrics only.',
        request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
      });
      expect(elsewhere.headers.get('x-request-id')).toBe(envelope.request_id);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
      // Not on the API port: no token there.
      expect((await ownApp.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await ownApp.close();
      await own.close();
    }
  });

  it('answers /metrics for a health server of its own (the worker’s) behind METRICS_TOKEN, and leaves it the rest', async () => {
    const health = http.createServer((request, response) => {
      if (observability.handleMetricsRequest(request, response)) return;
      response.writeHead(request.url === '/livez' ? 200 : 404).end();
    });
    await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
      const refused = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({
        ok: false,
        error: 'unauthorized',
        request_id: expect.stringMatching(/^req_/),
      });
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const served = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(served.status).toBe(200);
      expect(
        sampleValue(parseExposition(await served.text()), 'dlv_db_pool_max_connections', { pool: 'api' }),
      ).toBe(10);
      expect((await fetch(`${base}/livez`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => health.close(() => resolve()));
    }
  });
});
