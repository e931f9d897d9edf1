import { startWorker, surviveDatabaseLoss } from '../worker.ts';
import type { CommandSpec } from './context.ts';
import { terminalLines } from './terminal-text.ts';

export const workerCommands: Record<string, CommandSpec> = {
  worker: {
    usage: 'dlv worker [--concurrency N]   (runs jobs until SIGINT/SIGTERM)',
    options: ['concurrency'],
    async run(ctx) {
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
  },
};
