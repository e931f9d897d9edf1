import { describe, expect, it } from 'vitest';
import type { RouteStep, RoutingSolution } from '../routing/ports.ts';
import { buildProblem, type PlanningStop, type PlanningVehicle, tieSplitPickups } from './optimised-plan.ts';

/**
 * A pickup is one stop on one round (its parcels are collected at once): when an answer puts its
 * job and its same-day pairs on two couriers, the planner solves again with them tied to one.
 */
const at = (lat: number, lng: number) => ({ lat, lng });
const hub = { ...at(48.85, 2.37), id: 'hub_1', name: 'Hub', address: 'Hub', createdAt: new Date(0) };
const vehicle = (courierId: string): PlanningVehicle => ({
  courierId,
  vehicle: {
    id: `veh_${courierId}`,
    name: courierId,
    kind: 'van',
    capacityParcels: 10,
    capacityKg: 50,
    hubId: hub.id,
    disabledAt: null,
    createdAt: new Date(0),
  },
  hub,
  shift: [8 * 3600, 13 * 3600],
  pinned: [],
});
const pickup: PlanningStop = {
  stop: { kind: 'pickup', pickupId: 'pck_0000000000000001' },
  label: 'pck_0000000000000001',
  point: at(48.86, 2.38),
  parcels: 1,
  grams: 1000,
  window: [9 * 3600, 10 * 3600],
};
const sameDay: PlanningStop = {
  stop: { kind: 'delivery', orderId: '7' },
  label: 'DLV-7',
  point: at(48.88, 2.34),
  parcels: 1,
  grams: 500,
};
const matrix = async (points: readonly unknown[]) => {
  const zero = points.map(() => points.map(() => 0));
  return { durations: zero, distances: zero, source: 'estimate' as const };
};
const step = (type: RouteStep['type'], id?: string): RouteStep => ({
  type,
  ...(id !== undefined && { id }),
  arrival: 0,
  waitingTime: 0,
  service: 0,
  departure: 0,
  duration: 0,
  distance: 0,
  load: [0, 0],
});
const route = (vehicle: string, steps: RouteStep[]) => ({
  vehicle,
  steps: [step('start'), ...steps, step('end')],
  cost: 0,
  duration: 0,
  distance: 0,
  service: 0,
  waitingTime: 0,
});
const solution = (routes: RoutingSolution['routes']): RoutingSolution => ({
  routes,
  unassigned: [],
  summary: {
    cost: 0,
    routes: routes.length,
    unassigned: 0,
    duration: 0,
    distance: 0,
    service: 0,
    waitingTime: 0,
  },
  search: { engine: 'test' },
});

describe('tieSplitPickups', () => {
  it('ties a split pickup’s job and pairs to the job’s courier; leaves an unsplit answer alone', async () => {
    const meta = await buildProblem([pickup], [vehicle('a'), vehicle('b')], matrix, [
      { pickup: { ...pickup, parcels: 1, grams: 500 }, delivery: sameDay },
    ]);
    expect(meta.problem.shipments?.[0]).toMatchObject({ id: 'delivery:7', amount: [1, 500] });
    const together = solution([
      route('b', [
        step('job', 'pickup:pck_0000000000000001'),
        step('pickup', 'delivery:7'),
        step('delivery', 'delivery:7'),
      ]),
    ]);
    expect(tieSplitPickups(meta, together)).toBeNull();
    const split = solution([
      route('a', [step('pickup', 'delivery:7'), step('delivery', 'delivery:7')]),
      route('b', [step('job', 'pickup:pck_0000000000000001')]),
    ]);
    const tied = tieSplitPickups(meta, split)!;
    expect(tied.jobs?.find((j) => j.id === 'pickup:pck_0000000000000001')?.vehicle).toBe('b');
    expect(tied.shipments?.[0]?.vehicle).toBe('b');
  });
});
