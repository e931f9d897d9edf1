import type { Order, SimulateOrderBody } from './generated.js';

/** The steps `simulate` can reach: those of `POST /orders/{trackingRef}/simulate`. */
export type SimulationTarget = SimulateOrderBody['to'];
export type FailureReason = NonNullable<SimulateOrderBody['reason']>;

/** The street's road before the door, in order: each status moves only to the next. */
const ROAD: readonly Order['status'][] = ['pending', 'picked_up', 'in_transit', 'out_for_delivery'];

/** Whether an API key is a test key (`dlv_test_…`): its orders are test orders (`livemode: false`). */
export const isTestKey = (apiKey: string): boolean => apiKey.startsWith('dlv_test_');

/**
 * The one step a test order in `status` makes next on its way to `target`, as a courier's scans
 * would move it: along the road, then the door (a `returned` parcel is one whose third door attempt
 * failed, so the way there is out for delivery and a failed attempt, again). From where `target`
 * cannot be reached (delivered, cancelled, a road step already passed) it is `target` itself, so
 * that the API answers why not (409 `simulation_out_of_order`) instead of the SDK guessing.
 */
export function nextSimulatedStep(status: Order['status'], target: SimulationTarget): SimulationTarget {
  const at = ROAD.indexOf(status);
  const goal = ROAD.indexOf(target);
  if (goal > 0) return at >= 0 && at < goal ? (ROAD[at + 1] as SimulationTarget) : target;
  if (at >= 0 && at < ROAD.length - 1) return ROAD[at + 1] as SimulationTarget;
  if (status === 'out_for_delivery') return target === 'returned' ? 'failed_attempt' : target;
  if (status === 'failed_attempt') return 'out_for_delivery';
  return target;
}

/** Enough steps for the longest way: pending to returned is 8 (three rounds at the door). */
export const MAX_SIMULATED_STEPS = 10;
