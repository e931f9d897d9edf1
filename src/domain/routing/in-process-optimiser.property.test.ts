/**
 * Random small problems (jobs and shipments with one or two windows, amounts in two dimensions,
 * skills, priorities and pins; vehicles with shifts, capacities, skills and a break): whatever the
 * solver answers must hold against the problem, recomputed by the plan checker, and every task left
 * out must carry a reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveRoutes } from './in-process-optimiser.ts';
import { checkPlan } from './plan-check.ts';
import type { RoutingProblem, TimeWindow } from './ports.ts';

const point = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }));
const SHIFT_END = 600;

const windows = fc.option(
  fc
    .array(
      fc
        .tuple(fc.integer({ min: 0, max: SHIFT_END }), fc.integer({ min: 10, max: 200 }))
        .map(([start, width]): TimeWindow => [start, start + width]),
      { minLength: 1, maxLength: 2 },
    )
    .map((ws) => ws.sort((a, b) => a[0] - b[0])),
  { nil: undefined },
);
const skills = fc.subarray(['bike', 'cold']);
const amount = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3000 }));

const instance = fc
  .record({
    depot: point,
    jobs: fc.array(
      fc.record({
        at: point,
        service: fc.integer({ min: 0, max: 20 }),
        windows,
        delivery: amount,
        pickup: fc.option(amount, { nil: undefined }),
        skills,
        priority: fc.integer({ min: 0, max: 3 }),
        pinned: fc.boolean(),
      }),
      { maxLength: 10 },
    ),
    shipments: fc.array(
      fc.record({ from: point, to: point, windows, amount, skills: fc.subarray(['cold']) }),
      { maxLength: 3 },
    ),
    vehicles: fc.array(
      fc.record({
        capacity: fc.tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2000, max: 12000 })),
        shiftStart: fc.integer({ min: 0, max: 200 }),
        skills,
        openEnd: fc.boolean(),
        lunch: fc.option(fc.integer({ min: 250, max: 450 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map((r): RoutingProblem => {
    const points = [r.depot, ...r.jobs.map((j) => j.at), ...r.shipments.flatMap((s) => [s.from, s.to])];
    const matrix = points.map(([x1, y1]) =>
      points.map(([x2, y2]) => Math.round(Math.hypot(x1 - x2, y1 - y2))),
    );
    let loc = 1;
    return {
      matrices: { car: { durations: matrix, distances: matrix.map((row) => row.map((d) => d * 10)) } },
      jobs: r.jobs.map((j, i) => ({
        id: `j${i}`,
        location: loc++,
        service: j.service,
        ...(j.windows ? { timeWindows: j.windows } : {}),
        delivery: j.delivery,
        ...(j.pickup ? { pickup: j.pickup } : {}),
        skills: j.skills,
        priority: j.priority,
        ...(j.pinned ? { vehicle: 'v0' } : {}),
      })),
      shipments: r.shipments.map((s, i) => ({
        id: `s${i}`,
        pickup: { location: loc++, service: 5, ...(s.windows ? { timeWindows: s.windows } : {}) },
        delivery: { location: loc++, service: 5 },
        amount: s.amount,
        skills: s.skills,
      })),
      vehicles: r.vehicles.map((v, k) => ({
        id: `v${k}`,
        start: 0,
        ...(v.openEnd ? {} : { end: 0 }),
        capacity: v.capacity,
        timeWindow: [v.shiftStart, SHIFT_END] as const,
        skills: v.skills,
        ...(v.lunch
          ? { breaks: [{ id: 'lunch', service: 30, timeWindows: [[v.lunch, v.lunch + 60] as const] }] }
          : {}),
      })),
    };
  });

describe('the in-process optimiser on random problems', () => {
  it('answers only plans that keep every rule, and gives every task left out a reason', () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 1, max: 1000 }), (problem, seed) => {
        const solution = solveRoutes(problem, { maxIterations: 40, seed });
        expect(checkPlan(problem, solution)).toEqual([]);
        for (const u of solution.unassigned)
          expect(['no_vehicle', 'skills', 'capacity', 'time_window', 'shift']).toContain(u.reason);
      }),
      { numRuns: 150 },
    );
  });
});
