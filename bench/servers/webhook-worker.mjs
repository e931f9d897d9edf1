// A worker process as `dlv worker` runs one (job runner + webhook dispatcher), for the webhook bench:
// the compiled build, as the image runs it (bench/webhooks.ts builds dist/ first when stale).
import { loadConfig } from '../../dist/config.js';
import { createPool } from '../../dist/db/pool.js';
import { createDeps } from '../../dist/deps.js';
import { startWorker } from '../../dist/worker.js';

const concurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8);
const config = loadConfig(process.env);
const pool = createPool(config.databaseUrl, concurrency + 4);
const deps = createDeps(config, pool);
const runner = await startWorker(deps, { concurrency, pollIntervalMs: 1000 });
console.log('READY 0');
process.on('SIGTERM', async () => {
  await runner.stop();
  await pool.end();
  process.exit(0);
});
