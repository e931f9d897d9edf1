import { type CommandSpec, command } from './context.ts';

export const migrateCommands: CommandSpec[] = [
  command({
    path: 'migrate',
    description: 'apply the database migrations not yet applied, and list them',
    migrates: true,
    async run(ctx) {
      // Opening the database for this command applied them: a second pass here would find none.
      const applied = ctx.migrated;
      ctx.out(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date.', { applied });
    },
  }),
];
