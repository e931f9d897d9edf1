import { AppError, invalidField } from '../../errors.ts';

/** The steps a test order can be moved to (`POST /orders/{trackingRef}/simulate`), in street order. */
export const SIMULATED_STEPS = [
  'picked_up',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'failed_attempt',
  'returned',
] as const;
export type SimulatedStep = (typeof SIMULATED_STEPS)[number];

/**
 * The scenarios a test order can play from its creation (extension `test_scenario`), one step per
 * TEST_MODE_STEP_MS: each step is a `simulate` move (the courier's service) or, for
 * `cancelled_by_carrier`, the operator's cancellation.
 */
export const SCENARIOS = {
  happy_path: ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'],
  failed_then_delivered: [
    'picked_up',
    'in_transit',
    'out_for_delivery',
    'failed_attempt',
    'out_for_delivery',
    'delivered',
  ],
  // The third failed attempt returns the parcel, as in the street.
  returned: [
    'picked_up',
    'in_transit',
    'out_for_delivery',
    'failed_attempt',
    'out_for_delivery',
    'failed_attempt',
    'out_for_delivery',
    'failed_attempt',
  ],
  cancelled_by_carrier: ['cancelled'],
  // No step: the order is created with its address flagged (orders/order-service.ts, `prepare`),
  // `order.address_flagged` sent with its creation; correcting it with PATCH checks it again.
  address_flagged: [],
} as const satisfies Record<string, readonly (SimulatedStep | 'cancelled')[]>;
export type Scenario = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as Scenario[];

export const isScenario = (value: string): value is Scenario => Object.hasOwn(SCENARIOS, value);

/** The scenario asked at creation, checked: a live key is refused (403), an unknown name is a 400. */
export function checkScenario(value: string | undefined, livemode: boolean): Scenario | null {
  if (value === undefined) return null;
  if (livemode)
    throw new AppError(
      'test_mode_only',
      'test_scenario is for test keys (dlv_test_…) only: a live order is real.',
    );
  if (!isScenario(value)) throw invalidField('test_scenario', `must be one of ${SCENARIO_NAMES.join(', ')}`);
  return value;
}
