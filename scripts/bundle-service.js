#!/usr/bin/env node
// Bundles a compiled dist/ tree's program (service.js) into <dist>/bundle/: our modules and TypeBox
// in a few files instead of ~650, split at the program's dynamic imports so each mode loads only
// what it uses. Run by scripts/build.js after tsc (plain JavaScript, like it).
//
// Why: a fresh worker spent ~0.7 s resolving and linking modules before its first job (issue 36,
// item 24), ~0.15 s of it TypeBox's ~250 files. The other packages stay where npm put them (some
// read files beside themselves), and the compiled tree stays whole: the CLI and the assets use it.
//
// `import.meta.url` is rewritten in each module to the URL its compiled file has in dist/, so the
// files a module reads beside itself (CSS, data/, migrations/, createRequire) are found as before.
//   node scripts/bundle-service.js <dist directory>
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Packages bundled in: pure JavaScript that reads no file of its own. */
const BUNDLED = new Set(['@sinclair/typebox']);

const dist = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
// Every other package stays external, the development ones too (the embedded PostgreSQL is loaded
// only without DATABASE_URL, and a production install has none).
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/** Each compiled module's `import.meta.url`, as the URL of its file in dist/ (outputs sit in dist/bundle/). */
const fileUrls = {
  name: 'file-urls',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const relative = path.relative(dist, args.path).split(path.sep).join('/');
      if (relative.startsWith('..') || !text.includes('import.meta.url')) return undefined;
      const url = `new URL(${JSON.stringify(`../${relative}`)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

await build({
  entryPoints: [path.join(dist, 'service.js')],
  outdir: path.join(dist, 'bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  external,
  plugins: [fileUrls],
  logLevel: 'warning',
});
// The program everything runs (npm start, the image, the examples) stays dist/service.js.
await writeFile(
  path.join(dist, 'service.js'),
  "// The bundled program (scripts/bundle-service.js); the compiled modules beside it stay for the CLI.\nimport './bundle/service.js';\n",
);
