import { type CommandSpec, command } from './context.ts';
import { terminalLines } from './terminal-text.ts';

export const workerCommands: CommandSpec[] = [
  command({
    path: 'worker',
    description: 'run the jobs until SIGINT/SIGTERM (npm start also runs them, unless RUN_WORKER=0)',
    flags: { concurrency: { value: 'N', description: 'jobs run at once (default 4)' } },
    async run(ctx) {
      // The job runner (graphile-worker) is loaded only when it runs, not for help or completion.
      const { startWorker, surviveDatabaseLoss } = await import('../worker.ts');
      const concurrency = Number(ctx.flags.concurrency ?? 4);
      // Job errors may quote a shop's or a receiver's answer: escaped for the terminal.
      surviveDatabaseLoss((message) => console.error(`[warning] ${terminalLines(message)}`));
      const runner = await startWorker(ctx.deps, {
        concurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 4,
        log: (level, message) => console.error(`[${level}] ${terminalLines(message)}`),
      });
      console.error('worker started; Ctrl-C to stop');
      await new Promise<void>((resolve) => {
        const stop = () => void runner.stop().then(resolve, resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    },
  }),
];
