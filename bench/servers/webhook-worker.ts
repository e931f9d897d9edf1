// A worker process as `dlv worker` runs one (job runner + webhook dispatcher), for the webhook bench.
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { startWorker } from '../../src/worker.ts';

const concurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8);
const config = loadConfig(process.env);
const pool = createPool(config.databaseUrl!, concurrency + 4);
const deps = createDeps(config, pool);
const runner = await startWorker(deps, { concurrency, pollIntervalMs: 1000 });
console.log('READY 0');
process.on('SIGTERM', async () => {
  await runner.stop();
  await pool.end();
  process.exit(0);
});
