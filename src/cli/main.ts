import { ConfigError } from '../config.ts';
import { isAppError } from '../errors.ts';
import { brandCommands } from './brands.ts';
import { connectorCommands } from './connectors.ts';
import { type CommandContext, type CommandSpec, openCliDeps, UsageError } from './context.ts';
import { gridCommands } from './grids.ts';
import { invoiceCommands } from './invoices.ts';
import { keyCommands } from './keys.ts';
import { orderCommands } from './orders.ts';
import { terminalLines, terminalText } from './terminal-text.ts';
import { userCommands } from './users.ts';
import { webhookCommands } from './webhooks.ts';
import { workerCommands } from './worker.ts';

const migrateCommand: CommandSpec = {
  usage: 'dlv migrate [--json]',
  async run(ctx) {
    // Opening the database for this command applied them: a second pass here would find none.
    const applied = ctx.migrated;
    ctx.out(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date.', { applied });
  },
};

export const COMMANDS: Record<string, CommandSpec> = {
  migrate: migrateCommand,
  ...brandCommands,
  ...keyCommands,
  ...userCommands,
  ...gridCommands,
  ...orderCommands,
  ...invoiceCommands,
  ...webhookCommands,
  ...connectorCommands,
  ...workerCommands,
};

function helpText(): string {
  return [
    'dlv — operator command line of the Delivery Orders API',
    '',
    'Uses DATABASE_URL, or the embedded database in DATA_DIR (default ./data), running or not.',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

/** `dlv keys` alone: the commands of that group, or null when `name` is not a group. */
function groupHelpText(name: string | undefined): string | null {
  const usages = Object.entries(COMMANDS)
    .filter(([command]) => command.startsWith(`${name} `))
    .map(([, c]) => `  ${c.usage}`);
  if (usages.length === 0) return null;
  return [`dlv ${name} — commands:`, '', ...usages, '', 'dlv --help lists every command.'].join('\n');
}

interface Parsed {
  name: string;
  spec: CommandSpec;
  args: string[];
  flags: Record<string, string | boolean>;
}

export function parseCommandLine(argv: string[]): Parsed | null {
  const words = argv.filter((a) => !a.startsWith('-'));
  // Commands are one to three words (`migrate`, `keys create`, `connectors shopify link`).
  const name = [words.slice(0, 3).join(' '), words.slice(0, 2).join(' '), words[0]].find(
    (n) => n && COMMANDS[n],
  );
  if (!name) return null;
  const spec = COMMANDS[name]!;
  const valued = new Set(spec.options ?? []);
  const flags: Record<string, string | boolean> = {};
  const args: string[] = [];
  const consumed = name.split(' ').length;
  let skipped = 0;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--')) {
      if (skipped < consumed) skipped++;
      else args.push(token);
      continue;
    }
    const [flag, inline] = token.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (valued.has(flag)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) {
        throw new UsageError(`--${flag} needs a value`);
      }
      flags[flag] = value;
    } else if (flag === 'json' || (spec.booleans ?? []).includes(flag)) {
      flags[flag] = true;
    } else {
      throw new UsageError(`unknown option --${flag}`);
    }
  }
  return { name, spec, args, flags };
}

export async function runCli(argv: string[]): Promise<number> {
  const words = argv.filter((a) => !a.startsWith('-'));
  const wantsHelp = words[0] === 'help' || argv.includes('--help') || argv.includes('-h');
  // A group with no subcommand (`dlv keys`), `dlv keys --help` or `dlv help keys`: that group's help.
  const group = groupHelpText(words[0] === 'help' ? words[1] : words[0]);
  if (group && (wantsHelp || words.length === 1)) {
    console.log(group);
    return 0;
  }
  if (argv.length === 0 || wantsHelp) {
    console.log(helpText());
    return 0;
  }
  let parsed: Parsed | null;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    console.error(`dlv: ${terminalLines((err as Error).message)}`);
    return 2;
  }
  if (!parsed) {
    console.error(
      `dlv: unknown command "${terminalText(argv.filter((a) => !a.startsWith('-')).join(' '))}"\n\n${helpText()}`,
    );
    return 2;
  }
  const { spec } = parsed;
  const json = parsed.flags.json === true;
  let opened: Awaited<ReturnType<typeof openCliDeps>> | null = null;
  try {
    opened = await openCliDeps(undefined, { migrate: parsed.name === 'migrate' });
    const ctx: CommandContext = {
      deps: opened.deps,
      database: opened.database,
      migrated: opened.migrated,
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
      console.error(`dlv: ${terminalLines(err.message)}\nusage: ${spec.usage}`);
      return 2;
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
