import type { ArrivalTimes } from '../domain/arrivals/arrival-service.ts';
import { defineJob } from './job.ts';
import { PURGE_COURIER_POSITIONS_SPEC } from './job-names.ts';

/**
 * Every ten minutes: the couriers' shared positions older than 48 hours are deleted
 * (docs/arrival-times.md). A position is only kept to estimate the arrivals of the round it was
 * shared on; 48 hours covers a day's questions about it, and no more.
 */
export const PURGE_COURIER_POSITIONS = defineJob({
  ...PURGE_COURIER_POSITIONS_SPEC,
  schedule: '*/10 * * * * ?max=1',
  async run(deps: { arrivals: Pick<ArrivalTimes, 'purgePositions'> }, _payload, helpers) {
    const purged = await deps.arrivals.purgePositions();
    if (purged > 0) helpers.logger.info(`deleted ${purged} courier positions older than 48 hours`);
  },
});
