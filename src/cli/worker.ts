import { type CommandSpec, command } from './context.ts';

export const workerCommands: CommandSpec[] = [
  command({
    path: 'worker',
    description:
      'run the jobs until SIGINT/SIGTERM, logging JSON at LOG_LEVEL (a deployment runs `node dist/service.js worker`)',
    flags: { concurrency: { value: 'N', description: 'jobs run at once (default WORKER_CONCURRENCY, 8)' } },
    async run(ctx) {
      // The job runner (graphile-worker) and the logger are loaded only when it runs, not for help.
      const [{ startWorker, surviveDatabaseLoss }, { pinoLevel, processLogger }] = await Promise.all([
        import('../worker.ts'),
        import('../runtime/process-logger.ts'),
      ]);
      const log = processLogger(ctx.deps.config.logLevel);
      const asked = Number(ctx.flags.concurrency ?? ctx.deps.config.workerConcurrency);
      const concurrency = Number.isInteger(asked) && asked > 0 ? asked : ctx.deps.config.workerConcurrency;
      surviveDatabaseLoss((message) => log.warn(message));
      const runner = await startWorker(ctx.deps, {
        concurrency,
        log: (level, message, meta) => log[pinoLevel(level)](meta ?? {}, message),
      });
      log.info({ concurrency }, 'worker started; Ctrl-C to stop');
      await new Promise<void>((resolve) => {
        const stop = () => void runner.stop().then(resolve, resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    },
  }),
];
