import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { createDeps, type Deps } from '../deps.ts';
import { terminalText } from './terminal-text.ts';

/** What every command gets: the wired services, its parsed flags and a way to print. */
export interface CommandContext {
  deps: Deps;
  database: Database;
  args: string[];
  flags: Record<string, string | boolean | undefined>;
  json: boolean;
  /** The migrations applied while opening the database (`dlv migrate`, or an embedded database). */
  migrated: string[];
  /** The command's one result: `human` through terminalLines (public text is escaped), or `json` exact. */
  out(human: string, json: unknown): void;
}

export type Command = (ctx: CommandContext) => Promise<void>;

export interface CommandSpec {
  usage: string;
  /** Flags taking a value; any other `--flag` is boolean. */
  options?: string[];
  /** Flags without a value besides `--json`. */
  booleans?: string[];
  run: Command;
}

export class UsageError extends Error {}

export async function openCliDeps(config: Config = loadConfig(), options: { migrate: boolean }) {
  const database = await openDatabase(config, 4);
  let migrated: string[] = [];
  try {
    // The embedded database belongs to this program, so bringing it up to date is always safe.
    // A shared server (DATABASE_URL) is migrated only on request, with `dlv migrate`.
    if (options.migrate || database.embedded) migrated = (await migrate(database.pool)).applied;
  } catch (err) {
    await database.close();
    throw err;
  }
  return { database, deps: createDeps(config, database.pool), migrated };
}

export function requireFlag(ctx: CommandContext, name: string): string {
  const value = ctx.flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function requireArg(ctx: CommandContext, index: number, name: string): string {
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
