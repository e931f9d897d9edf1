import { createRequire } from 'node:module';
import { runCli } from '../../dist/cli/main.js';

// Runs the compiled dlv in this process (as bin/dlv.js does), then says on stderr which packages it
// loaded: the CommonJS ones (pg, graphile-worker, fastify…) are all in require's cache.
const code = await runCli(process.argv.slice(2));
const packages = new Set(
  Object.keys(createRequire(import.meta.url).cache)
    .map((file) => file.split('/node_modules/').at(-1))
    .filter((rest) => rest !== undefined)
    .map((rest) =>
      rest
        .split('/')
        .slice(0, rest.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
);
process.stderr.write(`\nLOADED ${JSON.stringify([...packages].sort())}\n`);
process.exit(code);
