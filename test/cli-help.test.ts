import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './support/app.ts';
import { runDlv } from './support/run-cli.ts';

const PROBE = fileURLToPath(new URL('./support/dlv-loaded-packages.js', import.meta.url));

/** The packages (from node_modules) that `dlv …args` loaded, CommonJS and ES modules. */
async function packagesLoadedBy(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  return (await loadedBy(args, env)).packages;
}

/** The packages and the compiled modules of ours (paths under dist/) that `dlv …args` loaded. */
function loadedBy(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ packages: string[]; modules: string[]; node: { fetch: boolean; navigator: boolean } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROBE, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.once('error', reject);
    child.once('close', () => {
      const line = (prefix: string) => stderr.split('\n').find((l) => l.startsWith(prefix));
      const packages = line('LOADED ');
      const modules = line('MODULES ');
      const node = line('NODE ');
      if (!packages || !modules || !node) reject(new Error(`no LOADED, MODULES or NODE line: ${stderr}`));
      else
        resolve({
          packages: JSON.parse(packages.slice('LOADED '.length)),
          modules: JSON.parse(modules.slice('MODULES '.length)),
          node: JSON.parse(node.slice('NODE '.length)),
        });
    });
  });
}

/** What bash offers after `words` (the last one being completed), with the script sourced. */
function bashCompletes(script: string, words: string[]): string[] {
  const program = [
    script,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_dlv',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's, not a template.
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const res = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' });
  expect(res.stderr).toBe('');
  return res.stdout.split('\n').filter(Boolean);
}

describe('dlv help and completion (issue #24)', () => {
  it('help and completion load neither the database nor the services; a command does', async () => {
    // The compiled CLI: the parser only (no transpiler, no pg, graphile-worker, fastify, mailer…).
    const light = ['commander'];
    for (const args of [
      ['--help'],
      ['keys', '--help'],
      ['webhooks'],
      ['help', 'connectors'],
      ['completion', 'bash'],
    ]) {
      const loaded = await packagesLoadedBy(args);
      expect(
        loaded.filter((p) => !light.includes(p)),
        args.join(' '),
      ).toEqual([]);
    }
    const ran = await packagesLoadedBy(['brands', 'list', '--json'], { DATABASE_URL: testDatabaseUrl() });
    expect(ran).toContain('pg');
    // Nor the job runner for a command that runs no job (the queue's migrations load it when they run).
    expect(ran).not.toContain('graphile-worker');
    // Nor the image library or the S3 SDK: loaded with the first proof photo (domain/proofs), never by a command.
    expect(ran.filter((p) => p === 'sharp' || p.startsWith('@aws-sdk/'))).toEqual([]);
    // Compiled code: no transpiler in a command either.
    expect(ran.filter((p) => p === 'tsx' || p === 'esbuild')).toEqual([]);
  }, 60_000);

  it('a command loads what it uses (issue #25): no documents, mail, Redis, connectors nor HTTP for brands list', async () => {
    const env = { DATABASE_URL: testDatabaseUrl() };
    // What no `dlv` command outside its own use loads: documents (PDF, barcodes, images), object
    // storage, mail, Redis without REDIS_URL, password hashing, phone numbers, the HTTP server, tracing,
    // the webhooks' HTTP client (undici, ~20 MB: loaded by the first attempt).
    const heavy = (p: string) =>
      /^(pdfkit|fontkit|bwip-js|sharp|nodemailer|ioredis|@node-rs\/argon2|libphonenumber-js|fastify|graphile-worker|codes-postaux|undici)$/.test(
        p,
      ) || /^@(aws-sdk|smithy|opentelemetry)\//.test(p);
    // A core command (brands, keys, grids, webhooks): the core services, not the whole bag.
    const core = await loadedBy(['brands', 'list', '--json'], env);
    expect(core.packages).toContain('pg');
    // Nor Node's fetch implementation, which pg's Cloudflare check loads on Node 20 (src/db/pg.ts),
    // and no global navigator left from that check's answer.
    expect(core.node).toEqual({ fetch: false, navigator: false });
    expect(core.packages.filter((p) => heavy(p) || p.startsWith('@fastify/'))).toEqual([]);
    expect(core.modules).toContain('core-deps.js');
    expect(core.modules).not.toContain('deps.js');
    // The connectors' modules: their `dlv connectors` declarations (cli.js, job names) only.
    expect(
      core.modules.filter((m) => m.startsWith('connectors/') && !/\/(cli|jobs\/names)\.js$/.test(m)),
    ).toEqual(['connectors/commands.js', 'connectors/connection.js']);
    expect(core.modules.filter((m) => m.startsWith('http/'))).toEqual([]);
    // A command of the whole bag (src/deps.ts: the connectors, their receivers' cookie plugin…) still
    // loads documents, mail, Redis… only when used.
    const whole = await loadedBy(['orders', 'show', 'DLV-AAAA-0000', '--json'], env);
    expect(whole.modules).toContain('deps.js');
    expect(whole.packages.filter(heavy)).toEqual([]);
  }, 60_000);

  it('dlv completion bash prints a script completing commands, subcommands and flags', async () => {
    const res = await runDlv(['completion', 'bash'], {});
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('complete -F _dlv dlv');
    for (const name of ['migrate', 'brands', 'users', 'keys', 'grids', 'orders', 'invoices', 'webhooks']) {
      expect(res.stdout).toContain(name);
    }
    const top = bashCompletes(res.stdout, ['dlv', '']);
    expect(top).toEqual(expect.arrayContaining(['migrate', 'brands', 'connectors', 'worker', 'completion']));
    expect(bashCompletes(res.stdout, ['dlv', 'keys', ''])).toEqual(['create', 'list', 'revoke', '--help']);
    expect(bashCompletes(res.stdout, ['dlv', 'keys', 'create', '--s'])).toEqual(['--scopes']);
    expect(bashCompletes(res.stdout, ['dlv', 'connectors', 'shopify', 'l'])).toEqual(['link']);
    // Flags and their values are skipped on the way: this is still `webhooks requests close`.
    expect(bashCompletes(res.stdout, ['dlv', 'webhooks', 'requests', 'close', 'whr_1', '--d'])).toEqual([
      '--declined',
    ]);
    expect(bashCompletes(res.stdout, ['dlv', 'brands', 'list', '--json', '--'])).toEqual([
      '--json',
      '--help',
    ]);
  });

  it('dlv completion zsh prints a compdef script of the same tree; another shell is a usage error', async () => {
    const res = await runDlv(['completion', 'zsh'], {});
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.startsWith('#compdef dlv\n')).toBe(true);
    expect(res.stdout).toContain('compdef _dlv dlv');
    expect(res.stdout).toContain("'keys') echo 'create list revoke --help' ;;");
    expect(res.stdout).toContain(`'keys create') echo '--brand --scopes --test --json --help' ;;`);
    const fish = await runDlv(['completion', 'fish'], {});
    expect([fish.code, fish.stdout]).toEqual([2, '']);
    expect(fish.stderr).toContain('bash, zsh');
  });

  it('refuses what it does not know with exit 2: a command, a flag, an argument too many', async () => {
    for (const args of [
      ['brands', 'frobnicate'],
      ['keys', 'list', '--bogus'],
      ['keys', 'revoke', 'a', 'b'],
    ]) {
      // With a database at hand, in case a regression reached a command: only the parser answers.
      const res = await runDlv(args, { DATABASE_URL: testDatabaseUrl() });
      expect([res.code, res.stdout], args.join(' ')).toEqual([2, '']);
      expect(res.stderr, args.join(' ')).toMatch(/^dlv: (unknown command|unknown option|too many arguments)/);
    }
    // A flag where a value was due: the value is missing, it is not the value.
    const res = await runDlv(['keys', 'list', '--brand', '--json'], { DATABASE_URL: testDatabaseUrl() });
    expect([res.code, res.stdout]).toEqual([2, '']);
    expect(res.stderr).toMatch(/^dlv: --brand needs a value/);
  });
});
