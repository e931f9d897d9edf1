import { AppError, invalidField } from '../../errors.ts';
import { prefixedId } from '../ids.ts';
import type { OrderWithEvents } from '../orders/order.ts';
import type { OrderService } from '../orders/order-service.ts';
import type { RowWithMove } from '../orders/ports.ts';
import { canTransition, type OrderStatus } from '../orders/state-machine.ts';
import { type DoorAttempt, FAILURE_REASONS, type FailureReason, type NewAttempt } from '../scans/ports.ts';
import type { Clock } from '../shared/clock.ts';
import { isScenario, SCENARIOS, type Scenario, SIMULATED_STEPS, type SimulatedStep } from './scenarios.ts';

export { SIMULATED_STEPS };

/** The street's steps a test order can be moved to, as a courier's scans would move it. */

/** Who received a simulated delivery: the sample proof of delivery's name (a proof a courier may give). */
const SAMPLE_RECEIVER = 'Test recipient (simulated)';

const isStep = (value: string): value is SimulatedStep =>
  (SIMULATED_STEPS as readonly string[]).includes(value);
const isReason = (value: string): value is FailureReason =>
  (FAILURE_REASONS as readonly string[]).includes(value);

/** The key calling: its brand (a test twin for a test key) and its mode. */
interface Caller {
  id: string;
  livemode: boolean;
}

export interface SimulationService {
  /**
   * Moves a test order one step as the street would (`POST /orders/{ref}/simulate`): the same
   * moves, events, webhooks and notifications as a courier's scan, through the same service. A
   * live key: 403 `test_mode_only`; a step that does not follow the order's status: 409
   * `simulation_out_of_order`; a third failed attempt returns the parcel, as in the street.
   */
  simulate(
    caller: Caller,
    trackingRef: string,
    input: { to: string; reason?: string | null },
  ): Promise<OrderWithEvents>;
  /**
   * Enqueues a new test order's scenario: its first step TEST_MODE_STEP_MS from now; on `queue`,
   * the order's transaction's, so that the order and its scenario commit together or not at all.
   */
  startScenario(
    order: { trackingRef: string; brandId: string },
    scenario: Scenario,
    queue?: StepQueue,
  ): Promise<void>;
  /**
   * Plays step `step` of the order's scenario (the `test_scenario_step` job); the next step and
   * when it is due, or null when the scenario is over (or the order was moved meanwhile).
   */
  playScenarioStep(input: {
    trackingRef: string;
    brandId: string;
    scenario: string;
    step: number;
  }): Promise<{ step: number; runAt: Date } | null>;
}

/** A job queue, bound to a transaction or not: where a scenario's steps are added. */
export interface StepQueue {
  add(task: string, payload: Record<string, unknown>, options: { runAt: Date }): Promise<unknown>;
}

export function simulationService(deps: {
  orders: Pick<OrderService, 'get' | 'moveByCourier'>;
  /** The door's attempt, written by the move's own statement (the scans' repository builds it). */
  attemptRow: (attempt: NewAttempt) => RowWithMove;
  /** The proof's members of `order.delivered` / `order.delivery_failed`, as for a door scan. */
  doorEventMembers?: (orderId: number, attempt: DoorAttempt) => Promise<Record<string, unknown>>;
  /** The operator's cancellation (`cancelled_by_carrier`), recorded as made by the scenario's job. */
  cancelByCarrier: (trackingRef: string, note: string) => Promise<unknown>;
  /** Adds the `test_scenario_step` job for `step`, due at `runAt` (on `queue` when given). */
  enqueueStep: (
    payload: { trackingRef: string; brandId: string; scenario: Scenario; step: number },
    runAt: Date,
    queue?: StepQueue,
  ) => Promise<void>;
  /** TEST_MODE_STEP_MS: the accelerated clock's tick. */
  stepMs: number;
  clock: Clock;
}): SimulationService {
  return {
    async startScenario(order, scenario, queue) {
      // A scenario played at creation only (address_flagged) has no step to enqueue.
      if (SCENARIOS[scenario].length === 0) return;
      await deps.enqueueStep(
        { trackingRef: order.trackingRef, brandId: order.brandId, scenario, step: 0 },
        new Date(deps.clock().getTime() + deps.stepMs),
        queue,
      );
    },
    async playScenarioStep({ trackingRef, brandId, scenario, step }) {
      if (!isScenario(scenario)) throw new Error(`unknown test scenario ${scenario}`);
      const steps: readonly (SimulatedStep | 'cancelled')[] = SCENARIOS[scenario];
      const to = steps[step];
      if (to === undefined) return null;
      const order = await deps.orders.get(brandId, trackingRef);
      // Only test orders play scenarios; one moved meanwhile (by simulate) is left to its caller.
      if (order.livemode) return null;
      try {
        if (to === 'cancelled')
          await deps.cancelByCarrier(trackingRef, 'Cancelled by the carrier (test scenario)');
        else await move(order, to, to === 'failed_attempt' ? 'absent' : null);
      } catch (err) {
        if (err instanceof AppError && err.code === 'simulation_out_of_order') return null;
        throw err;
      }
      return step + 1 < steps.length
        ? { step: step + 1, runAt: new Date(deps.clock().getTime() + deps.stepMs) }
        : null;
    },
    async simulate(caller, trackingRef, input) {
      if (caller.livemode) {
        throw new AppError(
          'test_mode_only',
          'Only a test key (dlv_test_…) can simulate an order: a live order moves by its parcel only.',
        );
      }
      if (!isStep(input.to)) throw invalidField('to', `must be one of ${SIMULATED_STEPS.join(', ')}`);
      const reason = input.reason ?? null;
      if (reason !== null && !isReason(reason))
        throw invalidField('reason', `must be one of ${FAILURE_REASONS.join(', ')}`);
      if (reason !== null && input.to !== 'failed_attempt')
        throw invalidField('reason', 'is given only with to: failed_attempt');
      for (let attempt = 0; attempt < 3; attempt++) {
        const order = await deps.orders.get(caller.id, trackingRef);
        const moved = await move(
          order,
          input.to,
          reason ?? (input.to === 'failed_attempt' ? 'absent' : null),
        );
        if (moved) return moved;
      }
      throw new AppError('invalid_transition', 'The order changed concurrently; retry.');
    },
  };

  async function move(
    order: OrderWithEvents,
    to: SimulatedStep,
    reason: FailureReason | null,
  ): Promise<OrderWithEvents | null> {
    const failed = order.events.filter((e) => e.status === 'failed_attempt').length;
    // `returned` follows the third failed attempt, as in the street (the scan makes both moves).
    const moves: OrderStatus[] = to === 'failed_attempt' && failed + 1 >= 3 ? [to, 'returned'] : [to];
    if (!canTransition(order.status, to) || (to === 'returned' && failed < 3)) {
      throw new AppError(
        'simulation_out_of_order',
        to === 'returned' && canTransition(order.status, to)
          ? `A parcel is returned after 3 failed attempts; this one has ${failed}: simulate failed_attempt first.`
          : `A test order cannot go from "${order.status}" to "${to}": simulate the steps in the street's order (picked_up, in_transit, out_for_delivery, then delivered or failed_attempt).`,
      );
    }
    const door = to === 'delivered' || to === 'failed_attempt';
    const attempt: DoorAttempt = {
      id: prefixedId('att'),
      outcome: to === 'delivered' ? 'delivered' : 'failed_attempt',
      reason: to === 'failed_attempt' ? reason : null,
      happenedAt: deps.clock(),
      // The sample proof of delivery: who received it (a photo needs a camera).
      receivedBy: to === 'delivered' ? SAMPLE_RECEIVER : null,
      latitude: null,
      longitude: null,
      photoKey: null,
      signatureKey: null,
    };
    const members = deps.doorEventMembers;
    return deps.orders.moveByCourier(order, moves, {
      at: attempt.happenedAt,
      note: reason ? `Simulated (test mode): ${reason}` : 'Simulated (test mode)',
      statusEventMembers:
        door && members
          ? async (status, at) => (status === to ? members(order.id, { ...attempt, happenedAt: at }) : {})
          : undefined,
      withMove: (at) =>
        door
          ? [
              deps.attemptRow({
                id: attempt.id,
                orderId: order.id,
                scanId: null,
                courierId: null,
                outcome: attempt.outcome,
                reason: attempt.reason,
                happenedAt: at,
                receivedBy: attempt.receivedBy,
                location: null,
                photoKey: null,
                signatureKey: null,
              }),
            ]
          : [],
    });
  }
}
