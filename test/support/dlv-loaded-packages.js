import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

// Runs the compiled dlv in this process (as bin/dlv.js does), then says on stderr which packages it
// loaded and which of its own modules: the CommonJS ones (pg, graphile-worker, fastify…) are all in
// require's cache; the ES modules (pdfkit, typebox, dist/…) are reported by the loader's hooks.
const { port1, port2 } = new MessageChannel();
const urls = [];
port1.on('message', (url) => urls.push(url));
port1.unref();
register('./loaded-modules-hooks.js', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const { runCli } = await import('../../dist/cli/main.js');
const code = await runCli(process.argv.slice(2));
// The hooks' last messages may still be on their way.
await new Promise((resolve) => setTimeout(resolve, 50));
const files = [
  ...Object.keys(createRequire(import.meta.url).cache),
  ...urls.filter((url) => url.startsWith('file:')).map((url) => new URL(url).pathname),
];
const packages = new Set(
  files
    .map((file) => file.split('/node_modules/').at(-1))
    .filter((rest, i) => rest !== undefined && files[i].includes('/node_modules/'))
    .map((rest) =>
      rest
        .split('/')
        .slice(0, rest.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
);
const own = new Set(
  files
    .filter((f) => f.includes('/dist/') && !f.includes('/node_modules/'))
    .map((f) => f.split('/dist/').at(-1)),
);
process.stderr.write(`\nLOADED ${JSON.stringify([...packages].sort())}\n`);
process.stderr.write(`MODULES ${JSON.stringify([...own].sort())}\n`);
// Node's own fetch implementation (its bundled undici: ~40 ms to load), and whether a global
// `navigator` was left behind (src/db/pg.ts lends one to pg while it loads).
process.stderr.write(
  `NODE ${JSON.stringify({
    fetch: process.moduleLoadList.includes('NativeModule internal/deps/undici/undici'),
    navigator: 'navigator' in globalThis,
  })}\n`,
);
process.exit(code);
