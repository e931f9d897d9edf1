import { describe, expect, it } from 'vitest';
import type { Hub, Vehicle } from '../src/domain/fleet/fleet.ts';
import { estimatedTravelTimes } from '../src/domain/places/travel-estimate.ts';
import { buildProblem } from '../src/domain/rounds/optimised-plan.ts';
import { toVroomInput } from '../src/infra/routing/vroom-optimiser.ts';

const hub: Hub = {
  id: 'hub_1',
  name: 'Hub',
  address: 'x',
  lat: 48.8541,
  lng: 2.3722,
  createdAt: new Date(0),
};
const bike: Vehicle = {
  id: 'veh_1',
  name: 'Bike',
  kind: 'cargo_bike',
  capacityParcels: 30,
  capacityKg: 100,
  hubId: hub.id,
  disabledAt: null,
  createdAt: new Date(0),
};

describe('the day as a routing problem', () => {
  it('gives the courier’s break to the vehicle, and VROOM gets it as its `breaks`', async () => {
    const { problem } = await buildProblem(
      [
        {
          stop: { kind: 'delivery', orderId: '1' },
          label: 'DLV-1',
          point: { lat: 48.86, lng: 2.37 },
          parcels: 1,
          grams: 1000,
        },
      ],
      [
        {
          courierId: 'cou_1',
          vehicle: bike,
          hub,
          shift: [8 * 3600, 17 * 3600],
          pinned: [],
          break: { window: [12 * 3600, 13.5 * 3600], seconds: 1800 },
        },
      ],
      (points, profile) => estimatedTravelTimes.matrix(points, profile),
    );
    expect(problem.vehicles[0]!.breaks).toEqual([
      { id: 'break', service: 1800, timeWindows: [[12 * 3600, 13.5 * 3600]] },
    ]);
    expect(toVroomInput(problem).input.vehicles[0]!.breaks).toEqual([
      { id: 1, description: 'break', service: 1800, time_windows: [[43_200, 48_600]] },
    ]);
  });
});
