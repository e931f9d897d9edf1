import type { EmissionService } from '../domain/emissions/emission-service.ts';
import { defineJob } from './job.ts';
import { ROUNDS_DRIVEN_DISTANCE_SPEC } from './job-names.ts';

/**
 * Every five minutes: the rounds finished since (every delivery stop has its outcome) get the
 * distance they were driven, in the order their stops were delivered, and their orders' CO₂e is
 * computed again with it (data level 3; docs/emissions.md, "Driven distance"). Stored once per
 * round: a run that fails leaves the round for the next.
 */
export const ROUNDS_DRIVEN_DISTANCE = defineJob({
  ...ROUNDS_DRIVEN_DISTANCE_SPEC,
  schedule: '*/5 * * * * ?max=1',
  async run(deps: { emissions: Pick<EmissionService, 'recordDrivenDistances'> }, _payload, helpers) {
    const { rounds, orders } = await deps.emissions.recordDrivenDistances();
    if (rounds > 0)
      helpers.logger.info(
        `driven distance of ${rounds} finished round(s); CO₂e of ${orders} order(s) computed again`,
      );
  },
});
