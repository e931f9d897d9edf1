import { Argument, Command, CommanderError } from 'commander';
import { PLATFORM_LABELS } from '../connectors/commands.ts';
import {
  addGroup,
  asGroup,
  attach,
  HELP,
  isRunnable,
  markRunnable,
  pathOf,
  type Runner,
  usageOf,
} from './command-tree.ts';
import { completionScript } from './completion.ts';
import type { CommandSpec } from './context.ts';
import { terminalLines } from './terminal-text.ts';

interface Entry {
  name: string;
  description: string;
  /** Its module: imported only when the command line names it (or for the full help and completion). */
  load(): Promise<CommandSpec[]>;
}

/** Names and descriptions only: nothing behind a command is loaded before it is used. */
const ENTRIES: Entry[] = [
  {
    name: 'migrate',
    description: 'apply the database migrations not yet applied',
    load: async () => (await import('./migrate.ts')).migrateCommands,
  },
  {
    name: 'brands',
    description: 'brands: create, list, show, disable, open or close their webhook subscriptions',
    load: async () => (await import('./brands.ts')).brandCommands,
  },
  {
    name: 'users',
    description: "a brand's people: invite",
    load: async () => (await import('./users.ts')).userCommands,
  },
  {
    name: 'keys',
    description: "a brand's API keys: create, list, revoke",
    load: async () => (await import('./keys.ts')).keyCommands,
  },
  {
    name: 'grids',
    description: 'price grids: import, show',
    load: async () => (await import('./grids.ts')).gridCommands,
  },
  {
    name: 'sort-codes',
    description: 'the sort codes printed on labels, by delivery postcode: import, list',
    load: async () => (await import('./sort-codes.ts')).sortCodeCommands,
  },
  {
    name: 'orders',
    description: 'delivery orders: show, set a status',
    load: async () => (await import('./orders.ts')).orderCommands,
  },
  {
    name: 'pickups',
    description: "the day's pickups: list, close with the parcels scanned",
    load: async () => (await import('./pickups.ts')).pickupCommands,
  },
  {
    name: 'couriers',
    description: "the operator's couriers: add, list, disable",
    load: async () => (await import('./couriers.ts')).courierCommands,
  },
  {
    name: 'operators',
    description:
      "the company's people (operations API, console): add, list, set a role, disable, reset a password or second factor",
    load: async () => (await import('./operators.ts')).operatorCommands,
  },
  {
    name: 'ops-tokens',
    description: 'machine tokens of the operations API: create (named, scoped), list, revoke',
    load: async () => (await import('./ops-tokens.ts')).opsTokenCommands,
  },
  {
    name: 'hubs',
    description: 'the hubs (depots) rounds start and end at: add, list',
    load: async () => (await import('./fleet.ts')).hubCommands,
  },
  {
    name: 'vehicles',
    description: 'the vehicles and what they carry: add, list, disable',
    load: async () => (await import('./fleet.ts')).vehicleCommands,
  },
  {
    name: 'shifts',
    description: "couriers' shifts and vehicles for a day: set, list",
    load: async () => (await import('./fleet.ts')).shiftCommands,
  },
  {
    name: 'rounds',
    description: "the day's rounds: plan, list, assign to a courier",
    load: async () => (await import('./rounds.ts')).roundCommands,
  },
  {
    name: 'recipients',
    description: "the recipients' notifications: an order's messages, stop an address or a number",
    load: async () => (await import('./recipients.ts')).recipientCommands,
  },
  {
    name: 'invoices',
    description: 'invoices and credit notes: issue a month, mark paid, list',
    load: async () => (await import('./invoices.ts')).invoiceCommands,
  },
  {
    name: 'emissions',
    description: 'greenhouse gases per delivery: compute a month again',
    load: async () => (await import('./emissions.ts')).emissionCommands,
  },
  {
    name: 'webhooks',
    description: 'webhook endpoints, deliveries and the account area’s requests',
    load: async () => (await import('./webhooks.ts')).webhookCommands,
  },
  {
    name: 'connectors',
    description: `shop links (${PLATFORM_LABELS}): link, list, show, settings, resync`,
    load: async () => (await import('./connectors.ts')).connectorCommands,
  },
  {
    name: 'audit',
    description: 'the audit trail: list and filter it, export it as CSV or JSON Lines',
    load: async () => (await import('./audit.ts')).auditCommands,
  },
  {
    name: 'worker',
    description: 'run the jobs until SIGINT/SIGTERM (npm start also runs them, unless RUN_WORKER=0)',
    load: async () => (await import('./worker.ts')).workerCommands,
  },
];

/** Every command's declaration, each group's module loaded: what the docs are checked against (test/docs.test.ts). */
export async function allCommands(): Promise<CommandSpec[]> {
  return (await Promise.all(ENTRIES.map((entry) => entry.load()))).flat();
}

const TITLE = [
  'dlv — operator command line of the Delivery Orders API',
  '',
  'Uses DATABASE_URL, or the embedded database in DATA_DIR (default ./data), running or not.',
].join('\n');

/** The tree with every entry's name; the modules `argv` needs are loaded into it. */
async function buildProgram(argv: string[], run: Runner): Promise<Command> {
  const program = new Command('dlv')
    .description(TITLE)
    .configureHelp(HELP)
    // `webhooks requests` runs and has a `close`: a flag after `close` is close's (`--json` above all).
    .enablePositionalOptions()
    // Errors are printed by runCli, in dlv's words, with the exit code 2.
    .configureOutput({ outputError: () => {} })
    .exitOverride();
  // `dlv help keys` as well as `dlv keys --help` (commander drops its help command beside an action).
  asGroup(program).helpCommand(true);
  for (const entry of ENTRIES) addGroup(program, entry.name, entry.description);
  markRunnable(
    program
      .command('completion')
      .description('print a completion script for bash or zsh: source <(dlv completion bash)')
      .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
      .allowExcessArguments(false)
      .action((shell: 'bash' | 'zsh') => {
        console.log(completionScript(program, shell));
      }),
  );
  const words = argv.filter((a) => !a.startsWith('-'));
  const named = words[0] === 'help' ? words[1] : words[0];
  // The full help and the completion script show every command: the modules declare them and load
  // nothing else (the database and the services come with run-command.ts, when a command runs).
  const needed =
    named === undefined || named === 'completion' ? ENTRIES : ENTRIES.filter((e) => e.name === named);
  for (const entry of needed) for (const spec of await entry.load()) attach(program, spec, run);
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  let code = 0;
  const run: Runner = async (spec, parsed) => {
    const { runCommand } = await import('./run-command.ts');
    code = await runCommand(spec, parsed);
  };
  const program = await buildProgram(argv, run);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.exitCode === 0) return 0; // --help
    const where = commandNamed(program, argv);
    const hint = isRunnable(where)
      ? `usage: ${usageOf(where)}`
      : `dlv ${[...pathOf(where), '--help'].join(' ')} lists ${where.parent ? 'its commands' : 'every command'}.`;
    console.error(`dlv: ${terminalLines(wording(err))}\n${hint}`);
    return 2;
  }
}

/** The deepest command that `argv` names: the one whose usage goes with the error. */
function commandNamed(program: Command, argv: string[]): Command {
  let node = program;
  for (const word of argv) {
    if (word.startsWith('-')) continue;
    const next = node.commands.find((c) => c.name() === word);
    if (!next) break;
    node = next;
  }
  return node;
}

/** Commander's messages in dlv's words (`--brand is required`, `unknown option --bogus`). */
function wording(err: CommanderError): string {
  const message = err.message.replace(/^error: /, '');
  const quoted = message.match(/'([^']+)'/)?.[1] ?? '';
  const flag = quoted.split(' ')[0];
  switch (err.code) {
    case 'commander.missingArgument':
      return `${flag} is required`;
    case 'commander.optionMissingArgument':
      return `${flag} needs a value`;
    case 'commander.unknownOption':
      return message.replace(`'${quoted}'`, quoted).replace(/\n/g, ' ');
    default:
      return message;
  }
}
