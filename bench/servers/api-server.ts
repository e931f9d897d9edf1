// The real application, as `npm start` builds it, on the database the bench prepared.
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { lookupPostcode } from '../../src/domain/coverage/postcodes.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RUN_WORKER: '0' });
const pool = createPool(config.databaseUrl!, 20);
lookupPostcode('75001'); // load the postcode table before measuring, as server.ts does
const app = await buildApp(createDeps(config, pool));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
