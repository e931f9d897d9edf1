import type { Platform } from '../connectors/connection.ts';
import type { CoreDeps } from '../core-deps.ts';
import type { Database } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import type { Author } from '../domain/audit/actor.ts';
import { terminalText } from './terminal-text.ts';

// Declarations only (types and small helpers): `dlv --help` and completion load every group's module,
// so nothing here or in a group's module may pull in the database or the services at import time.

/** A flag: with `value` it takes one (`--brand ID`), without it is a switch (`--default`). */
export interface FlagSpec {
  value?: string;
  description: string;
  /** Refused by the parser when absent (`--brand is required`, exit 2). */
  required?: boolean;
}

/** `--brand ID`, required: the brand a command acts for. */
export const BRAND_FLAG = { value: 'ID', description: 'the brand', required: true } satisfies FlagSpec;

interface ArgSpec {
  name: string;
  description: string;
  optional?: boolean;
}

type Flags = Record<string, FlagSpec>;

/** What the parser gives a command: a value flag's text, a switch's `true`, and `--json`. */
type FlagValues<F extends Flags> = string extends keyof F
  ? Partial<Record<string, string | true>>
  : { [K in keyof F]?: F[K] extends { value: string } ? string : true } & { json?: true };

/**
 * What every command gets: the wired services, its parsed arguments and flags and a way to print.
 * `deps` is what the command declared it uses: the core services (`coreCommand`) or all of them.
 */
export interface CommandContext<F extends Flags = Flags, D extends CoreDeps = Deps> {
  deps: D;
  database: Database;
  args: string[];
  flags: FlagValues<F>;
  json: boolean;
  /** The migrations applied while opening the database (`dlv migrate`, or an embedded database). */
  migrated: string[];
  /** Who runs the command (`user@host`): the author of its changes in the audit trail. */
  by: Author;
  /** The command's one result: `human` through terminalLines (public text is escaped), or `json` exact. */
  out(human: string, json: unknown): void;
}

export interface CommandSpec<F extends Flags = Flags, D extends CoreDeps = Deps> {
  /** Its words after `dlv`: `migrate`, `keys create`, `webhooks requests close`. */
  path: string;
  description: string;
  args?: ArgSpec[];
  /** Every command also takes `--json`. */
  flags?: F;
  /** Opens the database migrated first, whatever it is (`dlv migrate`). */
  migrates?: boolean;
  /**
   * Uses the core services only (src/core-deps.ts): the command wires and loads those, not the
   * connectors, the outbox, mail and documents behind the whole bag (convention 17; `dlv` under 1 s).
   */
  core?: true;
  /**
   * It writes no link to the public address (no order JSON, event, e-mail or SMS): it runs where
   * that address is unknown (DATABASE_URL without PUBLIC_BASE_URL, before any API recorded one).
   * Every other command of the whole bag refuses there (src/runtime/public-base-url.ts).
   */
  writesNoLinks?: true;
  run(ctx: CommandContext<F, D>): Promise<void>;
}

/** What a platform adds to `dlv connectors` (src/connectors/<platform>/cli.ts). */
export interface PlatformCommands {
  platform: Platform;
  /** Its name in the `connectors` group's description (the registry's `label`). */
  label: string;
  /** Where its commands go in the help (its order, older than the registry's). */
  helpOrder: number;
  /** Whether `connectors show` prints its links' poll lines. */
  polled: boolean;
  /** What `connectors settings --statuses` means for its links, when they take extra statuses. */
  statusesHelp?: string;
  /** How `connectors resync` reads its orders back, when it can. */
  resyncHelp?: string;
  commands: CommandSpec[];
}

/** A command whose flags are typed from its declaration (`ctx.flags.brand` is a string or absent). */
export function command<F extends Flags = Record<never, FlagSpec>>(spec: CommandSpec<F>): CommandSpec {
  return spec as unknown as CommandSpec;
}

/** A command that uses only the core services (`ctx.deps` is `CoreDeps`): it loads nothing else. */
export function coreCommand<F extends Flags = Record<never, FlagSpec>>(
  spec: Omit<CommandSpec<F, CoreDeps>, 'core'>,
): CommandSpec {
  return { ...spec, core: true } as unknown as CommandSpec;
}

export class UsageError extends Error {}

export function requireFlag<F extends Flags>(
  ctx: CommandContext<F, CoreDeps>,
  name: keyof F & string,
): string {
  const value: unknown = ctx.flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A value flag's text, trimmed, or null when absent or blank. */
export function optionalFlag<F extends Flags>(
  ctx: CommandContext<F, CoreDeps>,
  name: keyof F & string,
): string | null {
  const value: unknown = ctx.flags[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function requireArg(ctx: CommandContext<Flags, CoreDeps>, index: number, name: string): string {
  const value = ctx.args[index];
  if (!value) throw new UsageError(`${name} is required`);
  return value;
}

/** Fixed-width columns for human output; cells escaped first (terminalText), so widths are what is shown. */
export function table(cells: string[][]): string {
  if (cells.length === 0) return '';
  const rows = cells.map((r) => r.map(terminalText));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
