#!/usr/bin/env node
// `npm run build`: src/ → dist/ (JavaScript, same tree) with tsc (tsconfig.build.json), plus the files
// the code reads beside itself at run time (the CSS of the account area and tracking page). data/ and
// migrations/ are found from dist as from src (both sit one level under the root), so they stay put.
//
// Plain JavaScript on purpose: it runs before anything is compiled, and without tsx.
//   node scripts/build.js              build
//   node scripts/build.js --if-stale   build only when dist/ is missing or older than src/
//   node scripts/build.js --if-stale --quiet-when-absent   (npm's prepare) the same, and a production
//                                      install without TypeScript (devDependencies omitted) is not an error
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
/** Written last: its time is when the build finished, what staleness is measured against. */
const STAMP = path.join(DIST, '.build-stamp');
const LOCK = path.join(ROOT, '.dist-building');
/** Inputs besides src/ whose change makes the output different. */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'].map((f) => path.join(ROOT, f));

/** The newest modification under `dir`: files and directories (a deleted or renamed file changes its directory's). */
function newestUnder(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Whether dist/ must be (re)built: missing, or older than a source. A checkout without src/ (a
 * production image holding dist/ only) is never stale. A few milliseconds for ~400 files.
 */
export function isStale() {
  if (!existsSync(SRC)) return false;
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return newestUnder(SRC) > built || CONFIGS.some((f) => existsSync(f) && statSync(f).mtimeMs > built);
}

/** Files under src/ that are neither TypeScript nor tests: copied as they are. */
function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (!entry.name.endsWith('.ts')) {
      mkdirSync(to, { recursive: true });
      cpSync(source, target);
    }
  }
}

/**
 * Redoc's standalone bundle beside the reference page's module (src/http/shared/plugins/
 * reference-page.ts): the image has no development package, and the page loads nothing from elsewhere.
 */
function copyRedoc(out) {
  const bundle = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'lib', 'chunks', 'redoc.standalone.js');
  if (!existsSync(bundle)) throw new Error(`Redoc's bundle is missing (${bundle}): npm ci installs it`);
  cpSync(bundle, path.join(out, 'http', 'shared', 'plugins', 'reference', 'redoc.standalone.js'));
}

function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

/** Waits (up to a minute) for another process's build to end; a lock left by a killed one is taken over. */
function takeLock() {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      return true;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const age = Date.now() - statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 120_000) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > until) return false;
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/**
 * The compact postcode table (src/domain/coverage/postcodes.ts) beside its compiled module, made by
 * that module from the La Poste list: the service parses it instead of the whole list (~25 MB of RSS).
 */
function writePostcodeTable(out) {
  const coverage = path.join(out, 'domain', 'coverage');
  const program = `import { postcodeTable } from ${JSON.stringify(pathToFileURL(path.join(coverage, 'postcodes.js')).href)};
process.stdout.write(JSON.stringify(postcodeTable()));`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (res.status !== 0) throw new Error(`the postcode table failed (exit ${res.status ?? res.signal})`);
  writeFileSync(path.join(coverage, 'postcodes-table.json'), res.stdout);
}

/** dist/service.js, the program every process runs, bundled (scripts/bundle-service.js). */
function bundleService(out) {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-service.js'), out], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (res.status !== 0) throw new Error(`bundling dist/service.js failed (exit ${res.status ?? res.signal})`);
}

/**
 * Compiles into a directory of its own, then swaps it for dist/: a process starting meanwhile finds
 * the previous build whole, never half of one. Throws when tsc fails.
 */
export function build() {
  const tsc = typescriptCompiler();
  if (!tsc) throw new Error('TypeScript is not installed (a production install?): cannot build dist/');
  if (!takeLock()) throw new Error(`another build holds ${LOCK} for over a minute`);
  const out = path.join(ROOT, `.dist-${process.pid}`);
  try {
    rmSync(out, { recursive: true, force: true });
    const res = spawnSync(
      process.execPath,
      [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', out],
      {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (res.status !== 0) throw new Error(`tsc failed (exit ${res.status ?? res.signal})`);
    copyAssets(SRC, out);
    copyRedoc(out);
    writePostcodeTable(out);
    bundleService(out);
    writeFileSync(path.join(out, '.build-stamp'), `${new Date().toISOString()}\n`);
    rmSync(DIST, { recursive: true, force: true });
    renameSync(out, DIST);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds when stale (for `dlv` and `npm start` from a checkout); says so on stderr, never on stdout. */
export function buildIfStale() {
  if (!isStale()) return;
  // An install without devDependencies that holds src/ beside a built dist/ (copied, so with newer
  // times) runs what it has rather than failing for want of a compiler.
  if (!typescriptCompiler() && existsSync(STAMP)) return;
  process.stderr.write('dist/ is missing or older than src/: building it (npm run build)…\n');
  build();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  try {
    if (args.includes('--quiet-when-absent') && !typescriptCompiler()) process.exit(0);
    if (args.includes('--if-stale')) buildIfStale();
    else build();
  } catch (err) {
    process.stderr.write(`build: ${err.message}\n`);
    process.exit(1);
  }
}
