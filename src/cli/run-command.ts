import { type Config, ConfigError, loadConfig } from '../config.ts';
import type { CoreDeps } from '../core-deps.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import type { Pool } from '../db/pool.ts';
import type { Deps } from '../deps.ts';
import { isAppError } from '../errors.ts';
import { NoEmbeddedDatabaseError } from '../infra/embedded-postgres.ts';
import { cliAuthor } from './author.ts';
import { type CommandContext, type CommandSpec, UsageError } from './context.ts';
import { terminalLines } from './terminal-text.ts';

// Loaded (with the database and every service) only when a command runs, never for help or completion.

async function openCliDeps(
  given: Config,
  options: { migrate: boolean; poolSize: number; core: boolean; writesNoLinks: boolean },
) {
  // A core command loads and wires the core services only (src/core-deps.ts); the others, the whole
  // bag (src/deps.ts: the connectors, the outbox, mail, documents), which costs about half a second.
  let config = given;
  const wire: (config: Config, pool: Pool) => CoreDeps = options.core
    ? (await import('../core-deps.ts')).createCoreDeps
    : (await import('../deps.ts')).createDeps;
  // Only `dlv migrate` may bring a new embedded database into being: any other command run from the
  // wrong directory would answer from an empty database of its own ("No brands yet").
  const database = await openDatabase(
    config,
    options.poolSize,
    { applicationName: 'dlv-cli' },
    options.migrate,
  );
  let migrated: string[] = [];
  try {
    // The embedded database belongs to this program, so bringing it up to date is always safe.
    // A shared server (DATABASE_URL) is migrated only on request, with `dlv migrate`.
    if (options.migrate || database.embedded) migrated = (await migrate(database.pool)).applied;
    // The whole bag writes links (events, e-mails, SMS, the order JSON printed): to the API's
    // address, never a guessed one. The core services and `dlv migrate` write none.
    if (!options.core && !options.migrate) {
      const { resolvePublicBaseUrl, unknownPublicBaseUrl } = await import('../runtime/public-base-url.ts');
      const base = await resolvePublicBaseUrl(database.pool, config, {
        embedded: database.embedded !== null,
      });
      if (base.url === null && !options.writesNoLinks) throw unknownPublicBaseUrl('dlv');
      if (base.warning) console.error(`dlv: warning: ${terminalLines(base.warning)}`);
      if (base.url !== null) config = { ...config, publicBaseUrl: base.url };
    }
  } catch (err) {
    await database.close();
    throw err;
  }
  return { database, deps: wire(config, database.pool), migrated };
}

export interface ParsedCommand {
  args: string[];
  flags: Partial<Record<string, string | true>>;
  /** The command's generated usage line, repeated under a usage error. */
  usage: string;
}

/** Runs one parsed command; its exit code: 0, 1 for a refused operation, 2 for a usage error. */
export async function runCommand(spec: CommandSpec, parsed: ParsedCommand): Promise<number> {
  const json = parsed.flags.json === true;
  let opened: Awaited<ReturnType<typeof openCliDeps>> | null = null;
  try {
    const config = loadConfig();
    // `dlv worker` holds the queue's listener and its cron beside the jobs it runs (its pool: concurrency + 2).
    const concurrency = Number(parsed.flags.concurrency) || config.workerConcurrency;
    const poolSize = spec.path === 'worker' ? Math.max(4, concurrency + 2) : 4;
    opened = await openCliDeps(config, {
      migrate: spec.migrates === true,
      poolSize,
      core: spec.core === true,
      writesNoLinks: spec.writesNoLinks === true,
    });
    const ctx: CommandContext = {
      // What the command declared: a core command (coreCommand) is typed to use CoreDeps only.
      deps: opened.deps as Deps,
      database: opened.database,
      migrated: opened.migrated,
      by: cliAuthor(),
      args: parsed.args,
      flags: parsed.flags,
      json,
      out(human, data) {
        console.log(json ? JSON.stringify(data) : terminalLines(human));
      },
    };
    await spec.run(ctx);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`dlv: ${terminalLines(err.message)}\nusage: ${terminalLines(parsed.usage)}`);
      return 2;
    }
    if (err instanceof NoEmbeddedDatabaseError) {
      console.error(`dlv: ${terminalLines(noDatabaseHere(err.dataDir))}`);
      return 1;
    }
    // Error messages may quote stored text (a brand's input, a shop's answer): escaped like output.
    if (isAppError(err) || err instanceof ConfigError) {
      console.error(`dlv: ${terminalLines(err.message)}`);
      return 1;
    }
    console.error(`dlv: ${terminalLines((err as Error).message ?? String(err))}`);
    return 1;
  } finally {
    await opened?.database.close();
  }
}

/** Where dlv looked, and the ways to point it at the server's database (or to make one on purpose). */
function noDatabaseHere(dataDir: string): string {
  return [
    `no database here: without DATABASE_URL, dlv uses the embedded database of DATA_DIR (${dataDir}; unset, ./data of the current directory), and there is none.`,
    "Run dlv from the directory the server runs in, set DATA_DIR to the server's data directory or DATABASE_URL to its PostgreSQL,",
    'or create a new embedded database here with `dlv migrate`.',
  ].join(' ');
}
