// The real application, as `npm start` builds it, on the database the bench prepared. With
// RUN_WORKER=1 its job runner runs in the same process, as `npm start` does.
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { lookupPostcode } from '../../src/domain/coverage/postcodes.ts';
import { startWorker } from '../../src/worker.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RUN_WORKER: process.env.RUN_WORKER ?? '0' });
const pool = createPool(config.databaseUrl!, 20);
lookupPostcode('75001'); // load the postcode table before measuring, as server.ts does
const deps = createDeps(config, pool);
const app = await buildApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
if (config.runWorker) await startWorker(deps);
const address = app.server.address();
console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
// process.exit, not a kill: `node --cpu-prof` writes its profile on the way out.
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
