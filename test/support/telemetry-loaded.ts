import { createRequire } from 'node:module';

// What the start of a process loads of OpenTelemetry and prom-client (both CommonJS: in require's
// cache once loaded), said on stdout as JSON: the early tracing module, then the metrics' wiring.
await import('../../src/infra/telemetry/register.ts');
const { loadConfig } = await import('../../src/config.ts');
const { startObservability } = await import('../../src/observability.ts');
const observability = await startObservability(loadConfig(), {});
await observability?.close();
const packages = new Set(
  Object.keys(createRequire(import.meta.url).cache)
    .map((file) => file.split('/node_modules/').at(-1)!)
    .filter((rest) => /^(@opentelemetry\/|prom-client\/)/.test(rest))
    .map((rest) =>
      rest
        .split('/')
        .slice(0, rest.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
);
process.stdout.write(`${JSON.stringify([...packages].sort())}\n`);
// The tracing provider's timers would keep the process up.
process.exit(0);
