import { defineJob } from './job.ts';
import { JOB_SPECS, RECOVER_STALLED_JOBS_SPEC } from './job-names.ts';

/**
 * Every minute: the jobs a killed process held (those declaring `stalledAfterMs`) are run again.
 * Without it, a webhook acknowledged just before a crash (the shop will not send it again), a
 * fulfillment under way or an event's fan-out would wait out graphile-worker's 4-hour lock.
 */
export const RECOVER_STALLED_JOBS = defineJob({
  ...RECOVER_STALLED_JOBS_SPEC,
  schedule: '* * * * * ?max=1',
  async run(
    deps: { jobQueue: { recoverStalled(tasks: readonly string[], graceMs: number): Promise<number> } },
    _payload,
    helpers,
  ) {
    const byGrace = new Map<number, string[]>();
    for (const job of JOB_SPECS) {
      if (job.stalledAfterMs !== undefined)
        byGrace.set(job.stalledAfterMs, [...(byGrace.get(job.stalledAfterMs) ?? []), job.name]);
    }
    let freed = 0;
    for (const [graceMs, names] of byGrace) freed += await deps.jobQueue.recoverStalled(names, graceMs);
    if (freed > 0) helpers.logger.info(`ran again ${freed} jobs held by a worker that died`);
  },
});
