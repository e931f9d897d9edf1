/**
 * The route-quality bench's own parts: the VRPTW reader, the independent validator (which must
 * catch a broken window, an overloaded route, a missing or doubled customer and too many routes),
 * and the solver's answers on Solomon fixtures judged by that validator.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { benchRoutes } from '../bench/routes/bench-routes.ts';
import { parseBestKnown, parseVrptw, VrptwFormatError } from '../bench/routes/vrptw-instance.ts';
import { vrptwProblem } from '../bench/routes/vrptw-problem.ts';
import { edgeWeight, validateVrptw } from '../bench/routes/vrptw-validator.ts';
import { solveRoutes } from '../src/domain/routing/in-process-optimiser.ts';

const FIXTURES = new URL('fixtures/vrptw/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const c101 = parseVrptw(read('C101.100.10.vrptw'), 'C101');

/** A small instance written by hand: depot 1 at the origin, customers on the axes. */
const TINY = `NAME : TINY
TYPE : CVRPTW
DIMENSION : 4
VEHICLES : 2
CAPACITY : 10
SERVICE_TIME : 1
SCALE : 10
EDGE_WEIGHT_TYPE : FLOOR_2D
NODE_COORD_SECTION
1 0 0
2 3 4
3 0 5
4 1 1
DEMAND_SECTION
1 0
2 6
3 5
4 4
TIME_WINDOW_SECTION
1 0 100
2 0 20
3 0 30
4 0 2
DEPOT_SECTION
1
-1
EOF
`;

describe('the VRPTW reader', () => {
  it('reads the header, the nodes and the depot of a Solomon file', () => {
    expect(c101).toMatchObject({
      name: 'C101',
      vehicles: 10,
      capacity: 200,
      scale: 10,
      edgeWeightType: 'FLOOR_2D',
    });
    expect(c101.nodes).toHaveLength(101);
    expect(c101.depot).toBe(0);
    expect(c101.nodes[0]).toEqual({ id: 1, x: 40, y: 50, demand: 0, ready: 0, due: 1236, service: 0 });
    expect(c101.nodes[1]).toEqual({ id: 2, x: 45, y: 68, demand: 10, ready: 912, due: 967, service: 90 });
  });

  it('weighs an edge by the TSPLIB rule: floor(SCALE × distance), or unrounded for EXACT_2D', () => {
    const tiny = parseVrptw(TINY);
    expect(edgeWeight(tiny, 0, 3)).toBe(14); // 10 × √2 = 14.14…
    expect(edgeWeight(tiny, 0, 1)).toBe(50);
    const exact = parseVrptw(TINY.replace('FLOOR_2D', 'EXACT_2D'));
    expect(edgeWeight(exact, 0, 3)).toBeCloseTo(10 * Math.SQRT2, 9);
  });

  it('takes per-node service times from a SERVICE_TIME_SECTION', () => {
    const text = TINY.replace('DEPOT_SECTION', 'SERVICE_TIME_SECTION\n1 0\n2 7\n3 8\n4 9\nDEPOT_SECTION');
    expect(parseVrptw(text).nodes.map((n) => n.service)).toEqual([0, 7, 8, 9]);
  });

  it('says what is wrong with a malformed file', () => {
    expect(() => parseVrptw(TINY.replace('FLOOR_2D', 'GEO'), 'x.vrptw')).toThrow(
      /EDGE_WEIGHT_TYPE GEO is not supported/,
    );
    expect(() => parseVrptw(TINY.replace('DIMENSION : 4', 'DIMENSION : 5'))).toThrow(
      /DIMENSION is 5 but 4 nodes/,
    );
    expect(() => parseVrptw(TINY.replace('3 0 30', '3 40 30'))).toThrow(/node 3: ready 40 after due 30/);
    expect(() => parseVrptw(TINY.replace('2 6', '2 six'), 'x.vrptw')).toThrow(VrptwFormatError);
    expect(() => parseVrptw(TINY.replace('VEHICLES : 2\n', ''))).toThrow(/VEHICLES/);
  });

  it('reads the best-known costs', () => {
    expect(parseBestKnown(read('best-known.csv'))).toEqual(
      new Map([
        ['C101.100.10', 8273],
        ['R101.100.20', 16377],
        ['RC101.100.15', 16198],
      ]),
    );
  });
});

describe('the independent validator', () => {
  const tiny = parseVrptw(TINY);

  it('recomputes the cost of feasible routes', () => {
    // 1 → 4 → 2 → 1: 14 + floor(10·√13)=36 + 50; 1 → 3 → 1: 50 + 50.
    expect(validateVrptw(tiny, [[4, 2], [3]])).toEqual({ cost: 200, routes: 2, violations: [] });
  });

  it('catches a broken time window', () => {
    // Customer 4 must be reached by t = 2 (20 scaled): after customer 2 it is not.
    const verdict = validateVrptw(tiny, [[2, 4], [3]]);
    expect(verdict.violations).toEqual([
      expect.stringMatching(/customer 4 reached at .* after its due time 2/),
    ]);
  });

  it('catches an over-capacity route', () => {
    expect(validateVrptw(tiny, [[4, 2, 3]]).violations).toEqual(
      expect.arrayContaining([expect.stringMatching(/load 15 over the capacity 10/)]),
    );
  });

  it('catches a missing customer, a customer served twice and too many routes', () => {
    expect(validateVrptw(tiny, [[4, 2]]).violations).toEqual(['customer 3 is not served']);
    expect(
      validateVrptw(tiny, [
        [4, 2],
        [3, 4],
      ]).violations,
    ).toEqual(expect.arrayContaining(['customer 4 is served 2 times']));
    expect(validateVrptw(tiny, [[4], [2], [3]]).violations).toEqual(['3 routes for a fleet of 2']);
  });

  it('catches a route that comes back after the depot closes', () => {
    const late = parseVrptw(TINY.replace('1 0 100', '1 0 10'));
    expect(validateVrptw(late, [[4, 2], [3]]).violations).toEqual(
      expect.arrayContaining([expect.stringMatching(/back at the depot at .* after 10/)]),
    );
  });
});

describe('the in-process solver on Solomon instances (judged by the validator)', () => {
  const best = parseBestKnown(read('best-known.csv'));
  for (const file of ['C101.100.10', 'R101.100.20', 'RC101.100.15']) {
    it(`${file}: every customer served once, within windows, capacity and fleet`, () => {
      const instance = parseVrptw(read(`${file}.vrptw`), file);
      const solution = solveRoutes(vrptwProblem(instance), { maxIterations: 2000, seed: 7 });
      const routes = solution.routes.map((r) =>
        r.steps.filter((s) => s.type === 'job').map((s) => Number(s.id)),
      );
      const verdict = validateVrptw(instance, routes);
      expect(verdict.violations).toEqual([]);
      expect(solution.unassigned).toEqual([]);
      // The solver's own cost agrees with the validator's, and is not absurd after 2,000 iterations.
      expect(solution.summary.cost).toBe(verdict.cost);
      expect(verdict.cost).toBeLessThan(best.get(file)! * 1.1);
    });
  }
});

describe('npm run bench -- routes', () => {
  it('solves a directory of instances, judges each plan and reports per class', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const code = await benchRoutes([
        '--instances',
        fileURLToPath(FIXTURES),
        '--iterations',
        '2000',
        '--no-day',
      ]);
      expect(code).toBe(0);
      const printed = log.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toMatch(/3 instances from .*fixtures\/vrptw, 2000 iterations each, seed 1/);
      expect(printed).toMatch(/\| C1 \| 1 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| 0 \| mean ≤ 5 % ✔ \|/);
      expect(printed).toMatch(/\| RC1 \| 1 \|/);
    } finally {
      log.mockRestore();
    }
  });

  it('says where it looked when the instances are missing, and refuses unknown options', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await benchRoutes(['--instances', '/nonexistent/solomon'])).toBe(2);
      expect(String(error.mock.calls[0]![0])).toMatch(
        /no instances at \/nonexistent\/solomon.*\n.*BENCH_DATA/,
      );
    } finally {
      error.mockRestore();
    }
    await expect(benchRoutes(['--fast'])).rejects.toThrow(/unknown option --fast/);
  });
});
