import type { IncomingMessage } from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
// Types only: erased at run time, so a process without tracing never loads the SDK.
import type * as OtelApi from '@opentelemetry/api';
import type * as OtlpExporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as Instrumentation from '@opentelemetry/instrumentation';
import type * as HttpInstrumentation from '@opentelemetry/instrumentation-http';
import type * as PgInstrumentation from '@opentelemetry/instrumentation-pg';
import type * as UndiciInstrumentation from '@opentelemetry/instrumentation-undici';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type * as TraceNode from '@opentelemetry/sdk-trace-node';
import type * as Semconv from '@opentelemetry/semantic-conventions';

/**
 * Where the HTTP layer leaves a request's route pattern (on Node's request object) for its server
 * span: named `GET /public/v1/orders/:trackingRef` with `http.route`, not by the raw URL.
 */
export const ROUTE_OF_REQUEST = Symbol.for('dlv.http.route');

const UNTRACED_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** Tracing, once started in this process. */
export interface Tracing {
  /**
   * Runs `work` in a span of its own (a job, a webhook attempt): its queries and outbound calls
   * become its children. `root`: a trace of its own, whatever the caller's context (the webhook
   * dispatcher's sends would otherwise join whichever job happened to wake it).
   */
  inSpan<T>(
    name: string,
    attributes: Record<string, string | number>,
    work: () => Promise<T>,
    options?: { root?: boolean },
  ): Promise<T>;
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

let active: Tracing | null = null;

/** The process's tracing, or null when OTEL_EXPORTER_OTLP_ENDPOINT is unset. */
export function tracing(): Tracing | null {
  return active;
}

/**
 * Starts OpenTelemetry: spans of incoming and outgoing HTTP (node:http/https, which Fastify and the
 * outbound client's `request` use; undici, which its `exchange` uses) and of PostgreSQL queries
 * (pg), sent in batches to an OTLP/HTTP collector (JSON to `<endpoint>/v1/traces`), W3C
 * `traceparent` read from requests and added to outbound calls. Must run before the app's modules
 * use `http` and `pg` (src/infra/telemetry/register.ts).
 *
 * The SDK is CommonJS and loaded with `require`, synchronously: the instrumentations patch the
 * modules as they are required here (prototypes and the shared `http` objects, which the app's ES
 * imports of the same modules then see), with no loader hook and no top-level await to order.
 */
export function startTracing(options: { endpoint: string; serviceName: string }): Tracing {
  if (active) return active;
  const require = createRequire(import.meta.url);
  const api = require('@opentelemetry/api') as typeof OtelApi;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof TraceNode;
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof TraceBase;
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions') as typeof Semconv;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpExporter;
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof Resources;
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof Instrumentation;
  const { HttpInstrumentation: Http } =
    require('@opentelemetry/instrumentation-http') as typeof HttpInstrumentation;
  const { PgInstrumentation: Pg } = require('@opentelemetry/instrumentation-pg') as typeof PgInstrumentation;
  const { UndiciInstrumentation: Undici } =
    require('@opentelemetry/instrumentation-undici') as typeof UndiciInstrumentation;

  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    // A second at most between a span's end and its export; bounded memory when the collector is away.
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000, maxQueueSize: 4096 })],
  });
  // The global provider, the AsyncLocalStorage context manager and the W3C propagators.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new Http({
        // Probes and scrapes, every few seconds from every instance: no trace worth keeping.
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]!),
        applyCustomAttributesOnSpan(span, request) {
          const route = (request as IncomingMessage & { [ROUTE_OF_REQUEST]?: string })[ROUTE_OF_REQUEST];
          if (route === undefined) return;
          span.setAttribute('http.route', route);
          span.updateName(`${(request as IncomingMessage).method} ${route}`);
        },
      }),
      // Only queries inside a request or a job: the job runner's polling would be a trace a second.
      new Pg({ requireParentSpan: true }),
      // The webhook attempts' exchanges (the outbound client's `exchange`, undici: diagnostics channels).
      new Undici({ requireParentforSpans: true }),
    ],
  });
  // Required now, so the hooks above patch them before the app uses them.
  for (const name of ['node:http', 'node:https', 'pg', 'pg-pool']) require(name);
  // ES modules' named imports of built-ins (`import { request } from 'node:http'`) follow the patches.
  syncBuiltinESMExports();

  const tracer = api.trace.getTracer('delivery-orders-api');
  active = {
    inSpan(name, attributes, work, options) {
      const spanOptions = { kind: api.SpanKind.CONSUMER, attributes, root: options?.root ?? false };
      return tracer.startActiveSpan(name, spanOptions, async (span) => {
        try {
          return await work();
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    shutdown: () => provider.shutdown(),
  };
  return active;
}
