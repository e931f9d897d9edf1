import { createRequire } from 'node:module';
import type Pg from 'pg';

/**
 * The `pg` package, loaded without the ~40 ms it otherwise adds to every start on Node 20 (the
 * API's, a worker's before its first job, each `dlv` command's). At load, pg asks whether it runs
 * on Cloudflare Workers; with no global `navigator` (Node 21 added one) it finds out by building a
 * `Response`, the first use of the fetch globals, which loads Node's whole bundled fetch
 * implementation. A `navigator` naming Node answers the question; it is gone again before anything
 * else runs. Every module takes pg from here, so this is where it is first loaded.
 */
function loadPg(): typeof Pg {
  const require = createRequire(import.meta.url);
  const global = globalThis as { navigator?: unknown };
  if ('navigator' in global) return require('pg') as typeof Pg;
  global.navigator = { userAgent: `Node.js/${process.versions.node}` };
  try {
    return require('pg') as typeof Pg;
  } finally {
    delete global.navigator;
  }
}

const pg = loadPg();
export default pg;
