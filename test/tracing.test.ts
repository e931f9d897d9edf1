import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { VALID_ORDER } from './support/orders.ts';
import { startOtlpReceiver } from './support/otlp-receiver.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { type SpawnedServer, spawnServer } from './support/spawn-server.ts';
import { eventually, type Receiver, startReceiver } from './support/webhook-receiver.ts';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let hooks: Receiver;
let server: SpawnedServer | undefined;
let brand: TestBrand;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url, webhooksAllowInsecure: true } });
  otlp = await startOtlpReceiver();
  hooks = await startReceiver();
  brand = await createBrandWithKey(t.deps);
  await t.deps.webhooks.add({ brandId: brand.brandId, url: hooks.url('/orders') }, testOperator);
  // A child process: the instrumentations patch http and pg as the process starts.
  server = await spawnServer({
    DATABASE_URL: scratch.url,
    PORT: '0',
    WEBHOOKS_ALLOW_INSECURE: '1',
    RATE_LIMIT_PER_SECOND: '0',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_SERVICE_NAME: 'dlv-trace-test',
  });
}, 60_000);
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await hooks?.close();
  await otlp?.close();
  await t?.close();
  await scratch?.drop();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('sends a request’s span and its queries in the caller’s trace, each webhook attempt in a trace of its own', async () => {
    // The caller's trace (W3C traceparent): the server's span must join it.
    const traceId = hex(16);
    const callerSpanId = hex(8);
    const response = await fetch(`${server!.base}/orders`, {
      method: 'POST',
      headers: {
        ...brand.headers,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify(VALID_ORDER),
    });
    expect(response.status).toBe(200);

    const incoming = await eventually(
      async () => otlp.spans.find((s) => s.traceId === traceId && s.kind === SERVER),
      15_000,
    );
    expect(incoming).toMatchObject({
      serviceName: 'dlv-trace-test',
      name: 'POST /public/v1/orders',
      parentSpanId: callerSpanId,
      attributes: expect.objectContaining({ 'http.route': '/public/v1/orders' }),
    });
    const queries = await eventually(async () => {
      const found = otlp.spans.filter(
        (s) => s.traceId === traceId && s.kind === CLIENT && s.scope.includes('pg'),
      );
      return found.length > 0 && found;
    }, 15_000);
    expect(
      queries.some((q) =>
        /INSERT/i.test(String(q.attributes['db.statement'] ?? q.attributes['db.query.text'] ?? q.name)),
      ),
    ).toBe(true);
    // Each query descends from the request's span (through the pool's connect span or directly).
    const ids = new Set(otlp.spans.filter((s) => s.traceId === traceId).map((s) => s.spanId));
    for (const query of queries)
      expect(ids.has(query.parentSpanId!) || query.parentSpanId === incoming.spanId).toBe(true);

    // The worker in the same process delivers the order.created webhook: the receiver is told the
    // trace of that attempt (traceparent): a trace of its own (the dispatcher sends outside any
    // job), whose span holds the outgoing call. The fan-out job that made the delivery has its own
    // span and queries.
    const [hook] = await eventually(async () => hooks.received.length >= 1 && hooks.received, 20_000);
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(hook!.headers.traceparent));
    expect(sent, `traceparent ${hook!.headers.traceparent}`).not.toBeNull();
    const [, deliveryTrace, outgoingSpanId] = sent!;
    const outgoing = await eventually(
      async () => otlp.spans.find((s) => s.spanId === outgoingSpanId),
      15_000,
    );
    expect(outgoing).toMatchObject({ traceId: deliveryTrace, kind: CLIENT, name: 'POST' });
    const attempt = otlp.spans.find((s) => s.traceId === deliveryTrace && s.kind === CONSUMER);
    expect(attempt).toMatchObject({ name: 'webhook attempt' });
    expect(attempt!.parentSpanId).toBeUndefined();
    expect(outgoing.parentSpanId).toBe(attempt!.spanId);
    const fanOut = otlp.spans.find((s) => s.kind === CONSUMER && s.name === 'job webhooks_fan_out');
    expect(fanOut).toMatchObject({ attributes: { 'job.task': 'webhooks_fan_out' } });
    const jobQueries = otlp.spans.filter((s) => s.traceId === fanOut!.traceId && s.scope.includes('pg'));
    expect(jobQueries.length).toBeGreaterThan(0);
    expect(otlp.rejected).toEqual([]);
  }, 60_000);

  it('sends the spans still buffered when the process stops (SIGTERM)', async () => {
    const traceId = hex(16);
    const response = await fetch(`${server!.base}/me`, {
      headers: { ...brand.headers, traceparent: `00-${traceId}-${hex(8)}-01` },
    });
    expect(response.status).toBe(200);
    server!.child.kill('SIGTERM');
    await server!.exited;
    // Exported in the shutdown, not after the batch delay: the process is gone.
    expect(otlp.spans.find((s) => s.traceId === traceId && s.kind === SERVER)).toMatchObject({
      name: `GET ${API}/me`,
    });
  }, 30_000);
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT, METRICS_PORT and METRICS_TOKEN', () => {
  const PROBE = fileURLToPath(new URL('./support/telemetry-loaded.ts', import.meta.url));
  const loaded = async (env: Record<string, string>) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROBE], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      timeout: 60_000,
    });
    return JSON.parse(stdout) as string[];
  };

  it('loads neither OpenTelemetry nor prom-client: nothing added to the start-up', async () => {
    expect(await loaded({})).toEqual([]);
    const all = await loaded({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      METRICS_PORT: '0',
      METRICS_TOKEN: 'a-token-of-enough-length',
    }).catch((err: Error) => err.message);
    // METRICS_PORT 0 is refused (1–65535): the probe must fail on the configuration, not start.
    expect(String(all)).toContain('METRICS_PORT must be between 1 and 65535');
    const on = await loaded({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      METRICS_TOKEN: 'a-token-of-enough-length',
    });
    expect(on).toEqual(
      expect.arrayContaining([
        '@opentelemetry/sdk-trace-node',
        '@opentelemetry/instrumentation-pg',
        'prom-client',
      ]),
    );
  }, 120_000);
});
