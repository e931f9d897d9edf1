import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { createInProcessOptimiser, solveRoutes } from './in-process-optimiser.ts';
import { checkPlan } from './plan-check.ts';
import type { RoutingJob, RoutingProblem, RoutingSolution, RoutingVehicle } from './ports.ts';

/** Points on a plane; travel time and distance are the rounded Euclidean distance. */
function matrixOf(points: readonly (readonly [number, number])[]) {
  return points.map(([x1, y1]) => points.map(([x2, y2]) => Math.round(Math.hypot(x1 - x2, y1 - y2))));
}

/** Location 0 is the depot at the origin; the others are the given points. */
function problemOn(
  points: readonly (readonly [number, number])[],
  parts: Omit<RoutingProblem, 'matrices'>,
): RoutingProblem {
  const matrix = matrixOf([[0, 0], ...points]);
  return { matrices: { car: { durations: matrix, distances: matrix } }, ...parts };
}

const van = (id: string, extra: Partial<RoutingVehicle> = {}): RoutingVehicle => ({
  id,
  start: 0,
  end: 0,
  ...extra,
});

function solved(problem: RoutingProblem, iterations = 300, seed = 1): RoutingSolution {
  const solution = solveRoutes(problem, { maxIterations: iterations, seed });
  expect(checkPlan(problem, solution)).toEqual([]);
  return solution;
}

const tasksOf = (solution: RoutingSolution, vehicle: string) =>
  solution.routes
    .find((r) => r.vehicle === vehicle)
    ?.steps.filter((s) => s.type !== 'start' && s.type !== 'end')
    .map((s) => (s.type === 'job' || s.type === 'break' ? s.id : `${s.type}:${s.id}`)) ?? [];

type Editable = RoutingProblem & { jobs: RoutingJob[]; vehicles: RoutingVehicle[] };

/** A ring of 24 stops, some with windows, for two vans. */
function ring(): Editable {
  const points = Array.from({ length: 24 }, (_, i) => {
    const a = (i / 24) * 2 * Math.PI;
    return [Math.round(100 * Math.cos(a)), Math.round(100 * Math.sin(a))] as const;
  });
  const jobs: RoutingJob[] = points.map((_, i) => ({
    id: `j${i}`,
    location: i + 1,
    service: 5,
    delivery: [1],
    ...(i % 3 === 0 ? { timeWindows: [[i * 30, i * 30 + 300] as const] } : {}),
  }));
  const vehicles = [van('a', { capacity: [14] }), van('b', { capacity: [14] })];
  return { ...problemOn(points, { jobs, vehicles }), jobs, vehicles };
}

describe('the in-process round optimiser', () => {
  it('gives the same routes for the same seed and iteration budget', () => {
    const problem = ring();
    const first = solved(problem, 400, 42);
    const second = solved(problem, 400, 42);
    expect(second.routes).toEqual(first.routes);
    expect(second.unassigned).toEqual(first.unassigned);
    expect(second.search.iterations).toBe(400);
    expect(first.unassigned).toEqual([]);
  });

  it('answers through the RoundOptimiser port as solveRoutes does', async () => {
    const problem = ring();
    const optimiser = createInProcessOptimiser();
    expect(optimiser.engine).toBe('in-process');
    const viaPort = await optimiser.solve(problem, { maxIterations: 100, seed: 5 });
    expect(viaPort.routes).toEqual(solveRoutes(problem, { maxIterations: 100, seed: 5 }).routes);
  });

  it('stops at its time limit when given no iteration budget, with a valid plan', () => {
    const problem = ring();
    const solution = solveRoutes(problem, { timeLimitMs: 50 });
    expect(checkPlan(problem, solution)).toEqual([]);
    expect(solution.search).toMatchObject({ engine: 'in-process', seed: 1 });
  });

  it('serves a ring in two loops, each within its capacity', () => {
    const solution = solved(ring());
    expect(solution.routes).toHaveLength(2);
    const sizes = solution.routes.map((r) => r.steps.filter((s) => s.type === 'job').length);
    expect(sizes.every((n) => n <= 14) && sizes[0]! + sizes[1]! === 24).toBe(true);
    // Two arcs of a circle of radius 100, rather than crossing it: well under 2 × 2 × 100 + 2π × 100.
    expect(solution.summary.distance).toBeLessThan(1100);
  });

  it('picks up a shipment before delivering it, on the same vehicle, within capacity', () => {
    // Capacity 1: each parcel must be delivered before the next is picked up.
    const points = [
      [10, 0],
      [50, 0],
      [0, 10],
      [0, 50],
      [-10, 0],
      [-50, 0],
    ] as const;
    const problem = problemOn(points, {
      shipments: [0, 1, 2].map((k) => ({
        id: `s${k}`,
        pickup: { location: 2 * k + 1, service: 2 },
        delivery: { location: 2 * k + 2, service: 2 },
        amount: [1],
      })),
      vehicles: [van('v', { capacity: [1] })],
    });
    const solution = solved(problem);
    expect(solution.unassigned).toEqual([]);
    const steps = tasksOf(solution, 'v');
    for (const k of [0, 1, 2])
      expect(steps.indexOf(`delivery:s${k}`)).toBe(steps.indexOf(`pickup:s${k}`) + 1);
    expect(solution.routes[0]!.steps.every((s) => s.load[0]! <= 1)).toBe(true);
  });

  it('carries a delivery from the start and a pickup to the end (VROOM’s convention for jobs)', () => {
    const problem = problemOn(
      [
        [10, 0],
        [20, 0],
      ],
      {
        jobs: [
          { id: 'drop', location: 1, delivery: [3] },
          { id: 'collect', location: 2, pickup: [4] },
        ],
        vehicles: [van('v', { capacity: [5] })],
      },
    );
    const steps = solved(problem).routes[0]!.steps;
    expect(steps.map((s) => [s.type, s.load[0]])).toEqual([
      ['start', 3],
      ['job', 0],
      ['job', 4],
      ['end', 4],
    ]);
  });

  it('keeps the fixed steps of a started round in their order and the pinned stops on their vehicle', () => {
    const problem = ring();
    problem.vehicles[0] = van('a', {
      capacity: [14],
      // Against the geometry: j12 is opposite j0.
      fixedSteps: [
        { type: 'job', id: 'j12' },
        { type: 'job', id: 'j1' },
      ],
    });
    problem.jobs[2] = { ...problem.jobs[2]!, vehicle: 'b' };
    const solution = solved(problem);
    const a = tasksOf(solution, 'a');
    expect(a.indexOf('j12')).toBeGreaterThanOrEqual(0);
    expect(a.indexOf('j12')).toBeLessThan(a.indexOf('j1'));
    expect(tasksOf(solution, 'b')).toContain('j2');
  });

  it('times a locked vehicle’s fixed steps and gives it nothing else', () => {
    const problem = ring();
    problem.vehicles[0] = van('a', {
      locked: true,
      fixedSteps: [
        { type: 'job', id: 'j5' },
        { type: 'job', id: 'j3' },
      ],
    });
    problem.vehicles[1] = van('b', { capacity: [30] });
    const solution = solved(problem);
    expect(tasksOf(solution, 'a')).toEqual(['j5', 'j3']);
    expect(tasksOf(solution, 'b')).toHaveLength(22);
  });

  it('takes each break within its window, at the place of the stop before it', () => {
    const problem = ring();
    problem.vehicles[0] = van('a', {
      capacity: [14],
      timeWindow: [0, 5000],
      breaks: [{ id: 'lunch', service: 60, timeWindows: [[300, 400]] }],
    });
    const solution = solved(problem);
    const route = solution.routes.find((r) => r.vehicle === 'a')!;
    const lunch = route.steps.find((s) => s.type === 'break')!;
    expect(lunch.id).toBe('lunch');
    expect(lunch.arrival + lunch.waitingTime).toBeGreaterThanOrEqual(300);
    expect(lunch.arrival + lunch.waitingTime).toBeLessThanOrEqual(400);
    expect(lunch.departure - lunch.arrival - lunch.waitingTime).toBe(60);
  });

  it('serves a stop in its second window when the first cannot be reached', () => {
    const problem = problemOn([[50, 0]], {
      jobs: [
        {
          id: 'late',
          location: 1,
          timeWindows: [
            [0, 10],
            [500, 600],
          ],
        },
      ],
      vehicles: [van('v')],
    });
    const step = solved(problem).routes[0]!.steps[1]!;
    expect(step.arrival + step.waitingTime).toBeGreaterThanOrEqual(500);
    // It leaves the depot as late as it can instead of waiting at the door.
    expect(step.waitingTime).toBe(0);
    expect(solved(problem).routes[0]!.steps[0]!.departure).toBe(450);
  });

  it('ends an open route at its last stop', () => {
    const problem = problemOn(
      [
        [100, 0],
        [200, 0],
      ],
      {
        jobs: [
          { id: 'a', location: 1 },
          { id: 'b', location: 2 },
        ],
        vehicles: [{ id: 'v', start: 0 }],
      },
    );
    const solution = solved(problem);
    expect(solution.summary.distance).toBe(200);
    expect(solution.routes[0]!.steps.at(-1)!.location).toBeUndefined();
  });

  it('chooses the vehicle that costs less: a fixed cost, a price per km', () => {
    const problem = problemOn([[10, 0]], {
      jobs: [{ id: 'j', location: 1 }],
      vehicles: [
        van('dear', { costs: { fixed: 1000 } }),
        van('per-km', { costs: { perHour: 0, perKm: 100_000 } }),
        van('cheap', { costs: { fixed: 5 } }),
      ],
    });
    expect(solved(problem).routes.map((r) => [r.vehicle, r.cost])).toEqual([['cheap', 25]]);
  });

  it('keeps to a vehicle’s maximum number of tasks', () => {
    const problem = ring();
    problem.vehicles[0] = van('a', { maxTasks: 3 });
    problem.vehicles[1] = van('b');
    const solution = solved(problem);
    expect(tasksOf(solution, 'a').length).toBeLessThanOrEqual(3);
  });
});

describe('tasks left out, with their reason', () => {
  const reasons = (solution: RoutingSolution) =>
    Object.fromEntries(solution.unassigned.map((u) => [u.id, u.reason]));

  it('names skills, capacity, the window and the shift when a task fits no vehicle even alone', () => {
    const problem = problemOn(
      [
        [10, 0],
        [10, 0],
        [10, 0],
        [50, 0],
        [10, 0],
        [400, 0],
      ],
      {
        jobs: [
          { id: 'fine', location: 1, delivery: [1] },
          { id: 'cold', location: 2, skills: ['refrigerated'] },
          { id: 'bulky', location: 3, delivery: [50] },
          // 50 away: its window closes at 20, though the shift starts at 0.
          { id: 'too-soon', location: 4, timeWindows: [[0, 20]] },
          // Its window is after the shift.
          { id: 'evening', location: 5, timeWindows: [[2000, 2100]] },
          // 400 away and back: longer than the shift.
          { id: 'far', location: 6 },
        ],
        vehicles: [van('v', { capacity: [10], timeWindow: [0, 600], skills: ['van'] })],
      },
    );
    const solution = solved(problem);
    expect(reasons(solution)).toEqual({
      cold: 'skills',
      bulky: 'capacity',
      'too-soon': 'time_window',
      evening: 'shift',
      far: 'shift',
    });
    expect(tasksOf(solution, 'v')).toEqual(['fine']);
  });

  it('names capacity, the window or the shift when the routes are full', () => {
    const near = [
      [5, 0],
      [0, 5],
      [-5, 0],
    ] as const;
    const full = (jobs: RoutingJob[], vehicle: RoutingVehicle) =>
      reasons(solved(problemOn(near, { jobs, vehicles: [vehicle] })));
    // Room for two parcels: the third is left out for capacity.
    expect(
      Object.values(
        full(
          [0, 1, 2].map((i) => ({ id: `p${i}`, location: i + 1, delivery: [1] })),
          van('v', { capacity: [2] }),
        ),
      ),
    ).toEqual(['capacity']);
    // Two stops wanting the same ten minutes, 5 minutes of service each, 10 apart: the window.
    expect(
      Object.values(
        full(
          [0, 2].map((i) => ({ id: `w${i}`, location: i + 1, service: 5, timeWindows: [[10, 12]] })),
          van('v'),
        ),
      ),
    ).toEqual(['time_window']);
    // An 80-minute shift and three stops of 25 minutes (two take 67): the shift.
    expect(
      Object.values(
        full(
          [0, 1, 2].map((i) => ({ id: `s${i}`, location: i + 1, service: 25 })),
          van('v', { timeWindow: [0, 80] }),
        ),
      ),
    ).toEqual(['shift']);
  });

  it('says no_vehicle when there is none', () => {
    const problem = problemOn([[5, 0]], { jobs: [{ id: 'j', location: 1 }], vehicles: [] });
    expect(solved(problem).unassigned).toEqual([{ id: 'j', type: 'job', reason: 'no_vehicle' }]);
  });

  it('lists a shipment that cannot be made whole, once', () => {
    const problem = problemOn(
      [
        [5, 0],
        [10, 0],
      ],
      {
        shipments: [{ id: 's', pickup: { location: 1 }, delivery: { location: 2 }, amount: [9] }],
        vehicles: [van('v', { capacity: [5] })],
      },
    );
    expect(solved(problem).unassigned).toEqual([{ id: 's', type: 'shipment', reason: 'capacity' }]);
  });

  it('leaves out the lower priority when only one of two fits', () => {
    const problem = problemOn(
      [
        [5, 0],
        [6, 0],
      ],
      {
        jobs: [
          { id: 'low', location: 1, delivery: [1] },
          { id: 'high', location: 2, delivery: [1], priority: 10 },
        ],
        vehicles: [van('v', { capacity: [1] })],
      },
    );
    expect(solved(problem).unassigned.map((u) => u.id)).toEqual(['low']);
  });
});

describe('a malformed problem', () => {
  const fields = (problem: RoutingProblem) => {
    try {
      solveRoutes(problem, { maxIterations: 1 });
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('invalid_request');
      return (err as AppError).details!.map((d) => d.field);
    }
    throw new Error('accepted');
  };

  it('is refused with every faulty field named', () => {
    const problem = problemOn([[5, 0]], {
      jobs: [
        { id: 'j', location: 7, timeWindows: [[10, 5]], delivery: [1, 2] },
        { id: 'j', location: 1, vehicle: 'nobody', priority: 101 },
      ],
      shipments: [{ id: 's', pickup: { location: 1 }, delivery: { location: 1 } }],
      vehicles: [
        van('v', { profile: 'bike', timeWindow: [100, 50], capacity: [3] }),
        van('w', { fixedSteps: [{ type: 'pickup', id: 's' }] }),
      ],
    });
    expect(fields(problem).sort()).toEqual([
      'jobs[0].location',
      'jobs[0].timeWindows[0]',
      'jobs[1].id',
      'jobs[1].priority',
      'jobs[1].vehicle',
      'shipments[0]',
      'vehicles[0].capacity',
      'vehicles[0].profile',
      'vehicles[0].timeWindow',
    ]);
  });

  it('is refused when a vehicle cannot keep its own commitments', () => {
    const problem = problemOn([[50, 0]], {
      jobs: [{ id: 'j', location: 1, timeWindows: [[0, 10]] }],
      vehicles: [
        van('late', { fixedSteps: [{ type: 'job', id: 'j' }] }),
        van('short', { timeWindow: [0, 100], breaks: [{ id: 'b', service: 30, timeWindows: [[200, 300]] }] }),
      ],
    });
    expect(fields(problem)).toEqual(['vehicles[0].fixedSteps', 'vehicles[1].breaks[0]']);
  });
});
