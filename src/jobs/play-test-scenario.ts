import type { SimulationService } from '../domain/test-mode/simulation.ts';
import { defineJob } from './job.ts';
import { PLAY_TEST_SCENARIO_SPEC } from './job-names.ts';

/**
 * One step of a test order's scenario (test mode): made through the same services as a live
 * parcel's move, then the next step is enqueued on the accelerated clock (TEST_MODE_STEP_MS).
 */
export const PLAY_TEST_SCENARIO = defineJob({
  ...PLAY_TEST_SCENARIO_SPEC,
  async run(deps: { simulation: Pick<SimulationService, 'playScenarioStep'> }, payload, helpers) {
    const next = await deps.simulation.playScenarioStep({
      trackingRef: payload.tracking_ref,
      brandId: payload.brand_id,
      scenario: payload.scenario,
      step: Number(payload.step),
    });
    if (next) {
      await helpers.addJob(
        PLAY_TEST_SCENARIO_SPEC.name,
        { v: PLAY_TEST_SCENARIO_SPEC.payloadVersion, ...payload, step: String(next.step) },
        { runAt: next.runAt },
      );
    }
    helpers.logger.debug(
      `test scenario ${payload.scenario} of ${payload.tracking_ref}: step ${payload.step}`,
    );
  },
});
