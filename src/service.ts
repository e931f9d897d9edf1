// First: starts tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before http and pg are used.
import './infra/telemetry/register.ts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { EmbeddedDatabaseError } from './infra/embedded-postgres-as-root.ts';
import { tracing } from './infra/telemetry/tracing.ts';
import { type Observability, startObservability } from './observability.ts';
import { untilDatabaseReady } from './runtime/database-ready.ts';
import { lazyProbes } from './runtime/lazy-probes.ts';
import { ListenError, listenOrExplain } from './runtime/listen-errors.ts';
import { pinoLevel, processLogger } from './runtime/process-logger.ts';
import { createReadiness } from './runtime/readiness.ts';
import { handleShutdown } from './runtime/shutdown.ts';

/**
 * The one program of every process (docs/operator-guide.md, "Process modes"):
 *   node dist/service.js api       HTTP only (no job runner)
 *   node dist/service.js worker    jobs only, with /livez and /readyz on PORT
 *   node dist/service.js migrate   apply the migrations, print them, exit
 *   node dist/service.js all       `npm start`: migrations, API and worker in one process, the
 *                                  embedded PostgreSQL without DATABASE_URL, the start-up banner
 * Modules are loaded by the mode that uses them: `migrate` never loads the services or the routes.
 */
const MODES = ['api', 'worker', 'migrate', 'all'] as const;
type Mode = (typeof MODES)[number];

async function main(): Promise<void> {
  const asked = process.argv[2] ?? 'all';
  if (!(MODES as readonly string[]).includes(asked)) {
    console.error(`usage: node dist/service.js ${MODES.join('|')}  (got "${asked}")`);
    process.exit(2);
  }
  const mode = asked as Mode;
  const config = loadConfig();
  if (mode === 'migrate') return runMigrate(config);
  if (mode === 'worker') return runWorkerProcess(config);
  return runApi(config, mode);
}

/** Every connection says which process it belongs to (pg_stat_activity.application_name). */
const applicationName = (mode: Mode) => `dlv-${mode}`;

async function runMigrate(config: Config): Promise<void> {
  const log = processLogger(config.logLevel);
  // Migrations are not bound by statement_timeout (db/migrate.ts lifts it for its connection).
  const database = await openDatabase(config, 2, { applicationName: applicationName('migrate') });
  try {
    const { migrate } = await import('./db/migrate.ts');
    const { applied } = await migrate(database.pool);
    log.info(
      { applied },
      applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date',
    );
    // What SQL cannot do: the opt-outs kept before migration 0040 keyed with OPT_OUT_KEY.
    const { optOutKeyring } = await import('./db/opt-out-key.ts');
    logKeyedOptOuts(log, await optOutKeyring(config, database.pool).ready());
  } finally {
    await database.close();
  }
  process.exit(0);
}

/** How long after its runner a worker starts its probe server (see runWorkerProcess). */
const PROBES_AFTER_RUNNER_MS = 500;

async function runWorkerProcess(config: Config): Promise<void> {
  // Where a fresh worker's time goes before its first job, in the "worker started" line (ms since
  // the process started): a backlog waits on every phase of it.
  const phases: Record<string, number> = { loaded: Math.round(performance.now()) };
  const phase = (name: string) => {
    phases[name] = Math.round(performance.now());
  };
  const poolSize = Math.max(config.databasePoolSize, config.workerConcurrency + 2);
  const database = await openDatabase(config, poolSize, { applicationName: applicationName('worker') });
  phase('opened');
  const { createDeps } = await import('./deps.ts');
  phase('imported');
  const observability = await startObservability(config, { worker: database.pool });
  const readiness = createReadiness({ pool: database.pool, redis: null });
  // The probes (a Fastify server: ~0.2–0.3 s to load, holding the event loop meanwhile) start a
  // moment after the runner runs, or at once when the database keeps the worker waiting: a
  // backlog's first jobs are taken and sent before. Until they exist, their logger's twin writes
  // the same JSON lines.
  const log: FastifyBaseLogger = processLogger(config.logLevel);
  const probes = lazyProbes(config, readiness, observability?.handleMetricsRequest);
  let worker: { stop(): Promise<void> } | undefined;
  const shutdown = handleShutdown({
    readiness,
    // No traffic to drain: the jobs in hand finish (or are released) in worker.stop().
    drainMs: 0,
    log,
    async close() {
      await worker?.stop().catch((err: unknown) => log.error({ err }, 'worker stop failed'));
      await probes.close();
      await closeObservability(observability);
      await database.close();
    },
  });
  await untilDatabaseReady({
    pool: database.pool,
    migrate: config.migrateOnStart || database.embedded !== null,
    log,
    onWait: probes.start,
    stopped: shutdown.started,
  });
  phase('database');
  // The links the jobs write (recipients' messages, webhook payloads): the API's address.
  const { resolvePublicBaseUrl, unknownPublicBaseUrl } = await import('./runtime/public-base-url.ts');
  const base = await resolvePublicBaseUrl(database.pool, config, { embedded: database.embedded !== null });
  if (base.url === null) throw unknownPublicBaseUrl('the worker');
  if (base.warning) log.warn(base.warning);
  const deps = createDeps({ ...config, publicBaseUrl: base.url }, database.pool, undefined, {
    log: (message) => log.info(message),
    ...(observability && { observers: observability.observers }),
  });
  logKeyedOptOuts(log, await deps.optOutKey.ready());
  phase('deps');
  const { startWorker, surviveDatabaseLoss } = await import('./worker.ts');
  phase('runner-imported');
  surviveDatabaseLoss((message) => log.warn(message));
  if (shutdown.started()) return;
  worker = await startWorker(deps, {
    concurrency: config.workerConcurrency,
    ...(observability && { jobObserver: observability.jobObserver }),
    log: (level, message, meta) => log[pinoLevel(level)](meta ?? {}, message),
  });
  phase('running');
  // The orchestrator's probes allow far longer than this (liveness: three failures 10 s apart).
  await new Promise((resolve) => setTimeout(resolve, PROBES_AFTER_RUNNER_MS));
  if (shutdown.started()) return;
  await probes.start();
  phase('probes');
  log.info({ concurrency: config.workerConcurrency, poolSize, phases }, 'worker started');
}

async function runApi(config: Config, mode: 'api' | 'all'): Promise<void> {
  const startedAt = Date.now();
  // Where the start-up time goes, in the "service ready" line (ms since the process started).
  const phases: Record<string, number> = { loaded: Math.round(performance.now()) };
  const phase = (name: string) => {
    phases[name] = Math.round(performance.now());
  };
  const runsWorker = mode === 'all' && config.runWorker;
  // `all` shares one pool between the API and the worker: the API's size plus the worker's floor.
  const poolSize = config.databasePoolSize + (runsWorker ? config.workerConcurrency + 2 : 0);
  const database = await openDatabase(config, poolSize, { applicationName: applicationName(mode) });
  const banner = bannerWriter();
  if (database.embedded?.notice) banner(database.embedded.notice);
  const [{ buildApp }, { createDeps }, { loggerOptions }] = await Promise.all([
    import('./app.ts'),
    import('./deps.ts'),
    import('./http/shared/logging.ts'),
  ]);
  phase('imported');
  let app: FastifyInstance | undefined;
  let worker: { stop(): Promise<void> } | undefined;
  // Until the app exists, its logger's twin writes the same JSON lines.
  let log: FastifyBaseLogger = processLogger(config.logLevel);
  const observability = await startObservability(config, { api: database.pool });
  // Without SMTP_URL the account e-mails are files; their links go to the log so they can be followed.
  const deps = createDeps(config, database.pool, undefined, {
    log: (message) => log.info(message),
    ...(observability && { observers: observability.observers }),
  });
  const readiness = createReadiness({
    pool: database.pool,
    redis: config.redisUrl ? deps.redisHealth : null,
  });
  const probes = lazyProbes(config, readiness, observability?.handleMetricsRequest);
  const shutdown = handleShutdown({
    readiness,
    drainMs: config.shutdownDrainMs,
    log: { info: (f, m) => log.info(f, m), error: (f, m) => log.error(f, m) },
    async close() {
      // In-flight requests finish (new ones on kept-alive connections get 503), then the jobs in
      // hand, then the pool (and the embedded PostgreSQL).
      await app?.close().catch(() => {});
      await probes.close().catch(() => {});
      await worker?.stop().catch(() => {});
      await closeObservability(observability);
      await closeDatabase(database);
    },
  });

  await untilDatabaseReady({
    pool: database.pool,
    // The embedded database belongs to this process: always brought up to date.
    migrate: config.migrateOnStart || database.embedded !== null,
    log,
    // Waiting (PostgreSQL not there yet, or the migrate job not done): the probes answer meanwhile.
    onWait: probes.start,
    stopped: shutdown.started,
  });
  await probes.close();
  phase('migrated');
  // For dlv and the workers that are given no PUBLIC_BASE_URL (src/runtime/public-base-url.ts).
  const { recordPublicBaseUrl } = await import('./runtime/public-base-url.ts');
  await recordPublicBaseUrl(database.pool, config);

  const { lookupPostcode } = await import('./domain/coverage/postcodes.ts');
  lookupPostcode('75001'); // loads the La Poste table now rather than on the first request
  await deps.cursors.ready(); // the lists' cursor key (CURSOR_SECRET, else created once in the database)
  logKeyedOptOuts(log, await deps.optOutKey.ready()); // OPT_OUT_KEY required in production, checked
  const seeds = database.embedded && mode === 'all' ? await import('./domain/brands/demo.ts') : null;
  const demoBrand = seeds ? await seeds.seedDemoBrand(deps.brands, deps.apiKeys) : null;
  // Made with the demo brand only: a database that had brands may have its couriers already.
  const demo = demoBrand && { ...demoBrand, courier: await seeds!.seedDemoCourier(deps.couriers) };

  phase('warmed');
  app = await buildApp(deps, {
    logger: loggerOptions(config.logLevel),
    readiness,
    ...(observability && { metrics: observability.http }),
  });
  phase('built');
  log = app.log;
  await listenOrExplain(app, { port: config.port, host: config.host }, 'PORT');
  // The job runner (and graphile-worker with it) only in the process that runs jobs.
  if (runsWorker && !shutdown.started()) {
    const { startWorker, surviveDatabaseLoss } = await import('./worker.ts');
    // PostgreSQL going away must cost 503s, never the process (graphile-worker leaks such rejections).
    surviveDatabaseLoss((message) => log.warn(message));
    worker = await startWorker(deps, {
      concurrency: config.workerConcurrency,
      ...(observability && { jobObserver: observability.jobObserver }),
      log: (level, message, meta) => log[pinoLevel(level)]({ worker: true, ...meta }, message),
    });
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const readyMs = Date.now() - startedAt;
  phase('listening');
  log.info({ mode, port, readyMs, phases, worker: runsWorker, poolSize }, 'service ready');
  if (mode === 'all') {
    const { startupBanner } = await import('./runtime/banner.ts');
    banner(
      startupBanner({
        config,
        port,
        readyMs,
        embeddedHome: database.embedded?.home ?? null,
        runsWorker,
        demo,
      }),
    );
  }
}

function logKeyedOptOuts(log: { info(fields: object, message: string): void }, keyed: number): void {
  if (keyed > 0)
    log.info({ keyed }, `keyed ${keyed} opt-out(s) kept before migration 0040 with the opt-out key`);
}

/** The METRICS_PORT server, then the spans still buffered (sent before the process goes). */
async function closeObservability(observability: Observability | null): Promise<void> {
  await observability?.close().catch(() => {});
  await tracing()
    ?.shutdown()
    .catch(() => {});
}

async function closeDatabase(database: Database): Promise<void> {
  await database.close().catch(() => {});
}

/**
 * The banner is for a person at a terminal: on stdout there; otherwise on stderr, so stdout carries
 * only the JSON log lines a collector parses.
 */
function bannerWriter(): (text: string) => void {
  return (text) => {
    if (process.stdout.isTTY) process.stdout.write(`${text}\n`);
    else process.stderr.write(`${text}\n`);
  };
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`configuration error: ${err.message}`);
  else if (err instanceof ListenError) console.error(`cannot listen: ${err.message}`);
  else if (err instanceof EmbeddedDatabaseError)
    console.error(`cannot start the embedded PostgreSQL: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
