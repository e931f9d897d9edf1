// First: starts tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before http and pg are used.
import './infra/telemetry/register.ts';
import { buildApp, PUBLIC_PREFIX } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { CONNECTORS } from './connectors/registry.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createDeps } from './deps.ts';
import { seedDemoBrand } from './domain/brands/demo.ts';
import { lookupPostcode } from './domain/coverage/postcodes.ts';
import { loggerOptions } from './http/shared/logging.ts';
import { EmbeddedDatabaseError } from './infra/embedded-postgres-as-root.ts';
import { tracing } from './infra/telemetry/tracing.ts';
import { type Observability, startObservability } from './observability.ts';
import { startWorker, surviveDatabaseLoss } from './worker.ts';

const SHUTDOWN_DEADLINE_MS = 9_000;

async function main(): Promise<void> {
  const startedAt = Date.now();
  const config = loadConfig();
  const database = await openDatabase(config);
  if (database.embedded?.notice) console.log(database.embedded.notice);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let observability: Observability | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.error(`\n${signal} received, shutting down…`);
    // A stuck connection must not keep the process (or its postgres) alive past the deadline.
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    await app?.close().catch(() => {});
    await worker?.stop().catch(() => {});
    await observability?.close().catch(() => {});
    await tracing()
      ?.shutdown()
      .catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await migrate(database.pool);
  observability = await startObservability(config, { api: database.pool });
  // Without SMTP_URL the account e-mails are files; their links go to the log so they can be followed.
  const deps = createDeps(config, database.pool, undefined, {
    log: (message) => app?.log.info(message),
    ...(observability && { observers: observability.observers }),
  });
  lookupPostcode('75001'); // loads the La Poste table now rather than on the first request
  await deps.cursors.ready(); // the lists' cursor key (CURSOR_SECRET, else created once in the database)
  const demo = database.embedded ? await seedDemoBrand(deps.brands, deps.apiKeys) : null;

  app = await buildApp(deps, {
    logger: loggerOptions(config.logLevel),
    ...(observability && { metrics: observability.http }),
  });
  await app.listen({ port: config.port, host: config.host });
  // PostgreSQL going away must cost 503s, never the process (graphile-worker leaks such rejections).
  surviveDatabaseLoss((message) => app?.log.warn(message));
  if (config.runWorker) {
    worker = await startWorker(deps, {
      ...(observability && { jobObserver: observability.jobObserver }),
      log: (level, message) => {
        if (level === 'error' || level === 'warning') app?.log.warn({ worker: true }, message);
      },
    });
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host}:${port}${PUBLIC_PREFIX}`;

  const lines = [
    '',
    `Delivery Orders API listening on ${base}  (ready in ${Date.now() - startedAt} ms)`,
    `  database: ${database.embedded ? `embedded PostgreSQL in ${database.embedded.home}` : 'DATABASE_URL'}`,
    `  docs:     ${base}/docs`,
    `  account:  http://${config.host}:${port}/account  (sign up, API keys; tracking pages under /track)`,
    `  worker:   ${config.runWorker ? 'running in this process' : 'off (RUN_WORKER=0); run `dlv worker`'}`,
    `  shops:    ${CONNECTORS.map((c) => `${c.label} ${c.isOn(config) ? 'on' : c.offNotice}`).join(', ')} — connected from the account's Shops page (docs/connectors/README.md)`,
  ];
  if (config.sellerIsPlaceholder) {
    lines.push(
      '  invoices: issued with a placeholder seller identity; set SELLER_* (docs/operator-guide.md, Configuration)',
    );
  }
  if (demo) {
    lines.push(
      '',
      `  Demo brand ${demo.brand.id} created with an API key (shown once, keep it):`,
      `    ${demo.key.key}`,
      '',
      `  Try: curl ${base}/me -H "Authorization: Bearer ${demo.key.key}"`,
    );
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`configuration error: ${err.message}`);
  else if (err instanceof EmbeddedDatabaseError)
    console.error(`cannot start the embedded PostgreSQL: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
