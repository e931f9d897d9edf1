import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, type Runner, run, type WorkerEvents } from 'graphile-worker';
import { isConnectionError } from './db/pool.ts';
import type { Deps } from './deps.ts';
import { jobLogMeta } from './infra/queue/job-log-meta.ts';
import { CRONTAB, taskList } from './jobs/index.ts';
import { instrumentTasks, type JobObserver } from './jobs/instrument-tasks.ts';

/** The runner `startWorker` returns (graphile-worker's). */
export type { Runner };
export { taskList };

export interface WorkerOptions {
  concurrency?: number;
  pollIntervalMs?: number;
  /** graphile-worker's lines (levels error, warning, info, debug), with their scope (worker, task, job). */
  log?: (level: string, message: string, meta?: Record<string, unknown>) => void;
  /** Told each job run's outcome and duration (the metrics). */
  jobObserver?: JobObserver;
  /** Webhook attempt timeout (SPEC §8's 15 s unless a test wants less). */
  webhookTimeoutMs?: number;
}

/** How often a runner says it is alive, and how long a silence takes to be judged death. */
const HEARTBEAT_MS = 5_000;
const DEAD_AFTER_MS = 30_000;

/**
 * Starts the job runner on the service's database: jobs are claimed with row locks, so any number
 * of workers (inside API processes or alone with `dlv worker`) share the queue safely.
 *
 * The runner is supervised, since graphile-worker 0.16 does not outlive a lost database: a worker
 * that cannot record a job's outcome exits for good ("committing seppuku", never respawned), a cron
 * tick that fails stops the whole runner, and a job whose claim committed just as the connection
 * died stays locked by a worker that never got it. Each would leave the process serving requests
 * but running fewer jobs or none, some of them held for graphile-worker's 4-hour lock expiry. So
 * when the runner loses its database it is replaced by a fresh one as soon as PostgreSQL answers,
 * and the jobs its (now stopped) workers held are unlocked at once — every task is safe to run twice.
 */
export async function startWorker(deps: Deps, options: WorkerOptions = {}): Promise<Runner> {
  const log = options.log ?? (() => {});
  const tasks = instrumentTasks(taskList(deps), options.jobObserver);
  const logger = new Logger(
    (scope) => (level, message, meta) => log(level, message, { ...scope, ...jobLogMeta(meta) }),
  );
  let stopping = false;
  let settle: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });

  interface Launched {
    runner: Runner;
    workerIds: string[];
  }
  let current: Launched | null = null;
  /** The runner being replaced, while a restart is under way. */
  let replacing: Launched | null = null;
  /** Set when the runner a restart just launched is lost before that restart has finished. */
  let lostAgain: string | null = null;
  let restarting: Promise<void> | null = null;
  let cancelWait: (() => void) | null = null;

  const launch = async (): Promise<Launched> => {
    const events = new EventEmitter() as unknown as WorkerEvents;
    const workerIds: string[] = [];
    let launched: Launched | null = null;
    const lose = (reason: string) => {
      if (launched) replace(launched, reason);
    };
    events.on('worker:create', ({ worker }) => {
      workerIds.push(worker.workerId);
    });
    events.on('worker:stop', ({ error }) => {
      if (error !== undefined) lose(`a worker exited: ${(error as Error).message ?? error}`);
    });
    events.on('worker:getJob:error', ({ error }) => {
      if (isConnectionError(error)) lose(`the database connection failed: ${(error as Error).message}`);
    });
    const runner = await run({
      pgPool: deps.pool,
      taskList: tasks,
      crontab: CRONTAB,
      concurrency: options.concurrency ?? 4,
      pollInterval: options.pollIntervalMs ?? 1000,
      noHandleSignals: true,
      logger,
      events,
    });
    launched = { runner, workerIds };
    current = launched;
    runner.promise.then(
      () => lose('the runner stopped'),
      (error: Error) => lose(`the runner stopped: ${error.message}`),
    );
    return launched;
  };

  function replace(lost: Launched, reason: string): void {
    if (stopping || lost !== current) return;
    if (restarting) {
      if (lost !== replacing) lostAgain = reason;
      return;
    }
    replacing = lost;
    log('warning', `job runner lost (${reason}); restarting it`);
    restarting = (async () => {
      await lost.runner.stop().catch(() => {}); // "already stopped" when it stopped itself
      // Once its promise settles, none of its workers runs any more.
      await Promise.race([lost.runner.promise.catch(() => {}), sleep(15_000)]);
      for (let delay = 250; !stopping; delay = Math.min(delay * 2, 5_000)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          cancelWait = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        cancelWait = null;
        if (stopping) break;
        try {
          const next = await launch();
          if (stopping) {
            await next.runner.stop().catch(() => {});
            break;
          }
          log('warning', 'job runner restarted');
          await unlockJobsOf(lost.workerIds);
          await heartbeats.forgetWorkers(lost.workerIds).catch(() => {});
          break;
        } catch (err) {
          log('warning', `job runner restart failed (${(err as Error).message}); retrying`);
        }
      }
    })().finally(() => {
      restarting = null;
      replacing = null;
      const again = lostAgain;
      lostAgain = null;
      if (again !== null && current !== null) replace(current, again);
    });
  }

  async function unlockJobsOf(workerIds: string[]): Promise<void> {
    if (workerIds.length === 0) return;
    try {
      const utils = await makeWorkerUtils({ pgPool: deps.pool, logger });
      try {
        await utils.forceUnlockWorkers(workerIds);
      } finally {
        await utils.release();
      }
    } catch (err) {
      // They are freed by graphile-worker's own 4-hour lock expiry instead.
      log('warning', `could not unlock the jobs of the stopped workers: ${(err as Error).message}`);
    }
  }

  /**
   * Every few seconds: this runner's workers beat, and the jobs of workers whose beat stopped (a
   * process killed with jobs in hand) are freed to run again at once, well within a minute, where
   * graphile-worker itself would wait four hours. A worker that beats keeps its jobs.
   */
  const { heartbeats } = deps.jobQueue;
  const beat = async () => {
    try {
      if (current) await heartbeats.beat(current.workerIds);
      const freed = await heartbeats.unlockDeadWorkers(DEAD_AFTER_MS);
      if (freed > 0) log('warning', `ran again ${freed} jobs held by a worker that died`);
    } catch (err) {
      // The database is away: the runner's supervisor deals with that; the next beat will tell.
      log('debug', `heartbeat failed: ${(err as Error).message}`);
    }
  };
  const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
  heartbeat.unref();

  // Webhooks are sent by a dispatcher beside the runner's workers (docs/decisions/0005).
  const dispatcher = deps.webhookDeliveries.dispatcher({
    ...deps.config.webhookDelivery,
    timeoutMs: options.webhookTimeoutMs,
    log: (level, message) => log(level === 'warn' ? 'warning' : level, message),
  });

  // Caches the jobs' services read (who listens to which event) must follow other instances' changes.
  await Promise.all(deps.watchers.map((w) => w.startWatching()));
  // Started before the runner: the first fan-outs of a backlog wake it as they commit; started
  // after, it missed them and the first delivery waited for a later fan-out or its poll (~0.3 s).
  dispatcher.start();
  try {
    await launch();
  } catch (err) {
    await dispatcher.stop(0);
    throw err;
  }
  await beat();
  return {
    get events() {
      return current!.runner.events;
    },
    addJob: (...args) => current!.runner.addJob(...args),
    promise,
    async stop() {
      if (stopping) throw new Error('Runner is already stopped');
      stopping = true;
      clearInterval(heartbeat);
      cancelWait?.();
      await restarting;
      await Promise.all([current!.runner.stop().catch(() => {}), dispatcher.stop()]);
      await heartbeats.forgetWorkers(current!.workerIds).catch(() => {});
      settle();
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

let guarded = false;

/**
 * For the processes that run a worker (the server, `dlv worker`): an unhandled rejection caused by
 * a lost database connection is logged instead of ending the process. graphile-worker leaves a few
 * such promises unhandled inside its runner (a cron tick while PostgreSQL is down), which Node
 * would otherwise turn into a crash; the supervisor above restarts the runner. Any other unhandled
 * rejection still crashes the process, as by default.
 */
export function surviveDatabaseLoss(log: (message: string) => void): void {
  if (guarded) return;
  guarded = true;
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionError(reason)) throw reason;
    log(`ignored an unhandled database connection error: ${(reason as Error).message}`);
  });
}
