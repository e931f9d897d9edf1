import { describe, expect, it } from 'vitest';
import { compileModel } from './compile.ts';
import type { RoutingProblem } from './ports.ts';
import { Routes } from './routes.ts';
import { Search } from './search.ts';
import { DEFAULT_PARAMETERS } from './search-parameters.ts';
import { seedRoutes } from './seed-routes.ts';

/** 30 stops on a grid, tight enough (two small vans) that iterations move stops between routes. */
function grid(): RoutingProblem {
  const points = [
    [0, 0],
    ...Array.from({ length: 30 }, (_, i) => [10 * (i % 6) - 25, 10 * Math.floor(i / 6) - 20]),
  ];
  const matrix = points.map(([x1, y1]) =>
    points.map(([x2, y2]) => Math.round(Math.hypot(x1! - x2!, y1! - y2!))),
  );
  return {
    matrices: { car: { durations: matrix } },
    jobs: points.slice(1).map((_, i) => ({ id: `j${i}`, location: i + 1, service: 3, delivery: [1] })),
    vehicles: [0, 1, 2].map((k) => ({ id: `v${k}`, start: 0, end: 0, capacity: [11] })),
  };
}

describe('the search’s bookkeeping', () => {
  it('knows the route of every stop after every iteration, whichever way a refused one moved them', () => {
    const routes = new Routes(compileModel(grid()));
    seedRoutes(routes);
    const search = new Search(routes, 3, DEFAULT_PARAMETERS);
    search.construct();
    const wrong: string[] = [];
    for (let i = 1; i <= 300 && wrong.length === 0; i++) {
      search.run({ maxIterations: i, timeLimitMs: Number.POSITIVE_INFINITY, clock: () => 0 });
      const placed = new Set<number>();
      for (let r = 0; r < routes.len.length; r++) {
        for (let p = 0; p < routes.len[r]!; p++) {
          const node = routes.seq[r]![p]!;
          placed.add(node);
          if (routes.routeOf[node] !== r)
            wrong.push(`iteration ${i}: node ${node} in route ${r}, routeOf ${routes.routeOf[node]}`);
        }
      }
      for (let node = 0; node < routes.routeOf.length; node++)
        if (!placed.has(node) && routes.routeOf[node] !== -1)
          wrong.push(`iteration ${i}: node ${node} in no route`);
    }
    expect(wrong).toEqual([]);
  });
});
