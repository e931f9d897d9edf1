/**
 * Imported first by the process entry (src/service.ts): starts tracing when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, before the modules it instruments are used. Unset, it does
 * nothing and loads nothing of OpenTelemetry. An invalid configuration is left for the entry's own
 * loadConfig to report.
 */
import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { startTracing } from './tracing.ts';

/** `api`, `worker`, `migrate`, `all` (`npm start`), or `cli` (other `dlv` commands). */
function modeOfThisProcess(argv: readonly string[]): string {
  const entry = path.basename(argv[1] ?? '');
  if (/^service\.[cm]?[jt]s$/.test(entry)) return argv[2] ?? 'all';
  return argv[2] === 'worker' ? 'worker' : 'cli';
}

let config: ReturnType<typeof loadConfig> | null = null;
try {
  config = loadConfig();
} catch {
  // Reported by the entry, which loads the configuration again.
}
if (config?.otlpEndpoint) {
  startTracing({
    endpoint: config.otlpEndpoint,
    serviceName: config.otelServiceName ?? `delivery-orders-api-${modeOfThisProcess(process.argv)}`,
  });
}
