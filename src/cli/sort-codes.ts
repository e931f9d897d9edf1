import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.ts';
import { type CommandSpec, command, requireArg, UsageError } from './context.ts';

const FORMAT_FLAG = { format: { value: 'FORMAT', description: 'json or csv (default: the file extension)' } };

export const sortCodeCommands: CommandSpec[] = [
  command({
    path: 'sort-codes import',
    writesNoLinks: true,
    description:
      'replace the sort-code table with a .csv (postcode,sort_code) or .json file, checked whole first; ' +
      'a postcode may be the start of one (93 covers 93xxx); the longest prefix wins',
    args: [{ name: 'FILE', description: 'the table; its extension gives the format unless --format' }],
    flags: FORMAT_FLAG,
    async run(ctx) {
      const file = requireArg(ctx, 0, 'FILE');
      const explicit = ctx.flags.format;
      const format = typeof explicit === 'string' ? explicit : path.extname(file).slice(1).toLowerCase();
      if (format !== 'json' && format !== 'csv')
        throw new UsageError('give a .json or .csv file, or --format json|csv');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new AppError('invalid_request', `cannot read ${file}: ${(err as Error).message}`);
      }
      const { rules } = await ctx.deps.labels.importSortCodes(text, format, ctx.by);
      ctx.out(
        `Imported ${rules} sort-code rule(s); labels printed from now on use them (other postcodes get the default zone code).`,
        { rules },
      );
    },
  }),
  command({
    path: 'sort-codes list',
    writesNoLinks: true,
    description:
      'print the sort-code table (postcodes not listed get PAR-<arrondissement>, PC-<dép.> or GC-<dép.>)',
    async run(ctx) {
      const rules = await ctx.deps.labels.sortCodes();
      const human =
        rules.length === 0
          ? 'No sort-code rules: every label gets the default code (PAR-11, PC-93, GC-77…).'
          : ['postcode,sort_code', ...rules.map((r) => `${r.postcodePrefix},${r.sortCode}`)].join('\n');
      ctx.out(human, { rules: rules.map((r) => ({ postcode: r.postcodePrefix, sort_code: r.sortCode })) });
    },
  }),
];
