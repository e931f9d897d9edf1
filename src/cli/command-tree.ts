import { type Command, Help, Option } from 'commander';
import type { CommandSpec } from './context.ts';
import type { ParsedCommand } from './run-command.ts';

/** Runs a declared command once parsed; sets the process's exit code. */
export type Runner = (spec: CommandSpec, parsed: ParsedCommand) => Promise<void>;

/** The commands that run something (a group such as `keys` only lists its own). */
const RUNNABLE = new WeakSet<Command>();
/** Required flags, checked once the parser has refused unknown ones (a typo is named as such). */
const REQUIRED = new WeakSet<Option>();

/**
 * Adds a declared command to the tree under its path's words, creating the groups on the way
 * (`webhooks requests close` → `webhooks`, `requests`). A group alone prints its help.
 */
export function attach(root: Command, spec: CommandSpec, run: Runner): Command {
  let node = root;
  for (const word of spec.path.split(' ')) {
    node = node.commands.find((c) => c.name() === word) ?? addGroup(node, word, `${word} commands`);
  }
  const cmd = node;
  cmd.description(spec.description).allowExcessArguments(false);
  for (const arg of spec.args ?? []) {
    cmd.argument(arg.optional ? `[${arg.name}]` : `<${arg.name}>`, arg.description);
  }
  for (const [name, flag] of Object.entries(spec.flags ?? {})) {
    const option = new Option(flag.value ? `--${name} <${flag.value}>` : `--${name}`, flag.description);
    if (flag.required) REQUIRED.add(option);
    cmd.addOption(option);
  }
  cmd.option('--json', 'print one JSON object on stdout instead of text');
  cmd.action(async () => {
    const flags: ParsedCommand['flags'] = {};
    for (const option of cmd.options) {
      const value: unknown = cmd.getOptionValue(option.attributeName());
      if (value === undefined) continue;
      // The parser takes the next word whatever it is: `--brand --json` lacks the brand.
      if (option.required && String(value).startsWith('--')) {
        cmd.error(`${option.long} needs a value`, { exitCode: 2, code: 'dlv.missingValue' });
      }
      flags[option.long!.slice(2)] = value as string | true;
    }
    for (const option of cmd.options) {
      if (REQUIRED.has(option) && flags[option.long!.slice(2)] === undefined) {
        cmd.error(`${option.long} is required`, { exitCode: 2, code: 'dlv.missingFlag' });
      }
    }
    const args = cmd.processedArgs.filter((a): a is string => typeof a === 'string');
    await run(spec, { args, flags, usage: usageOf(cmd) });
  });
  RUNNABLE.add(cmd);
  return cmd;
}

/** A command that only groups others: alone it prints its help on stdout (exit 0). */
export function addGroup(parent: Command, name: string, description: string): Command {
  const group = parent.command(name).description(description).helpCommand(false);
  return asGroup(group);
}

export function asGroup(group: Command): Command {
  return group.allowExcessArguments().action(() => {
    const [word] = group.args;
    if (word !== undefined) {
      group.error(`unknown command "${[...pathOf(group), word].join(' ')}"`, {
        exitCode: 2,
        code: 'commander.unknownCommand',
      });
    }
    group.outputHelp();
  });
}

export function markRunnable(cmd: Command): Command {
  RUNNABLE.add(cmd);
  return cmd;
}

export const isRunnable = (cmd: Command) => RUNNABLE.has(cmd);

/** Its words after `dlv`. */
export function pathOf(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/** Every runnable command under `cmd`, in declaration order (`webhooks requests` and its `close`). */
function runnableUnder(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [...(RUNNABLE.has(c) ? [c] : []), ...runnableUnder(c)]);
}

/** `dlv keys create --brand ID --scopes SCOPES [--json]`: generated from the declaration. */
export function usageOf(cmd: Command): string {
  const args = cmd.registeredArguments.map((a) => {
    const name = a.argChoices?.join('|') ?? a.name();
    return a.required ? name : `[${name}]`;
  });
  const flags = cmd.options.map((o) => {
    const term = o.required ? `${o.long} ${o.flags.match(/<(.+)>/)?.[1] ?? 'VALUE'}` : o.long!;
    return REQUIRED.has(o) ? term : `[${term}]`;
  });
  return ['dlv', ...pathOf(cmd), ...args, ...flags].join(' ');
}

/**
 * Groups list their commands one per line, usage then description, as `dlv --help` always did (a
 * usage is too long for commander's two columns); a runnable command gets commander's own layout.
 */
export const HELP: Partial<Help> = {
  commandUsage: (cmd) => (RUNNABLE.has(cmd) ? usageOf(cmd) : `dlv ${[...pathOf(cmd), 'COMMAND'].join(' ')}`),
  subcommandTerm: (cmd) => usageOf(cmd),
  formatHelp(cmd, helper) {
    if (RUNNABLE.has(cmd)) return Help.prototype.formatHelp.call(helper, cmd, helper);
    const title = cmd.parent ? `dlv ${pathOf(cmd).join(' ')} — ${cmd.description()}` : cmd.description();
    const lines = runnableUnder(cmd).flatMap((c) => [`  ${usageOf(c)}`, `      ${c.description()}`]);
    const footer = cmd.parent
      ? 'dlv --help lists every command; dlv COMMAND --help shows its flags.'
      : 'dlv COMMAND --help shows its flags; dlv completion bash|zsh prints a shell completion script.';
    return [title, '', ...lines, '', footer, ''].join('\n');
  },
};
