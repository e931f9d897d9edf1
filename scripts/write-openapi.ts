import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { createDeps } from '../src/deps.ts';

/**
 * Writes the OpenAPI documents generated from the route schemas to the repository root.
 * `--check` fails (exit 1) when a committed copy is stale instead of writing it; CI runs that.
 */
const check = process.argv.includes('--check');
/**
 * The committed documents are for client generators, so their one `servers` entry is production's
 * address (a placeholder until the production domain is fixed). A running server lists its own
 * (PUBLIC_BASE_URL, else the address it listens on) in the document it serves.
 */
export const PRODUCTION_BASE_URL = 'https://api.livraison-dlv.fr';
// A pool that is never connected: building the app needs no database.
const config = loadConfig({
  DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
  OPS_TOKEN: 'unused-unused-unused-unused-unused-0',
  PUBLIC_BASE_URL: PRODUCTION_BASE_URL,
});
const pool = createPool(config.databaseUrl!);
const app = await buildApp(createDeps(config, pool));
await app.ready();

const documents: Record<string, string> = {};
// OPS_TOKEN is set above, so the operations API exists: a failure to build its document is an error,
// never a reason to leave the committed copy as it was.
for (const [file, url] of [
  ['openapi.json', '/public/v1/openapi.json'],
  ['ops-openapi.json', '/ops/v1/openapi.json'],
] as const) {
  const answer = await app.inject(url);
  if (answer.statusCode !== 200) {
    console.error(`${url} answered ${answer.statusCode}: ${answer.body.slice(0, 2000)}`);
    process.exit(1);
  }
  documents[file] = answer.body;
}

let stale = false;
for (const [file, body] of Object.entries(documents)) {
  const target = fileURLToPath(new URL(`../${file}`, import.meta.url));
  const text = `${JSON.stringify(JSON.parse(body), null, 2)}\n`;
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current === text) continue;
  if (check) {
    console.error(`${file} is stale: run \`npm run openapi\` and commit it`);
    stale = true;
  } else {
    await writeFile(target, text);
    console.log(`wrote ${file}`);
  }
}
await app.close();
await pool.end();
process.exit(stale ? 1 : 0);
