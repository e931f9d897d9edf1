/**
 * The in-process round optimiser: the default `RoundOptimiser` and the fallback when an outside
 * engine is unavailable. It runs on the calling thread for as long as its budget allows (a time
 * limit, or an iteration budget that makes it deterministic); callers that must stay responsive
 * run it in a worker thread or a job.
 */
import { answer } from './answer.ts';
import { compileModel } from './compile.ts';
import type { RoundOptimiser, RoutingProblem, RoutingSolution, SolveOptions } from './ports.ts';
import { checkProblem } from './problem-check.ts';
import { Routes } from './routes.ts';
import { Search } from './search.ts';
import { DEFAULT_PARAMETERS, type SearchParameters } from './search-parameters.ts';
import { seedRoutes } from './seed-routes.ts';

/** Without any budget, the search stops after 5 s. */
const DEFAULT_TIME_LIMIT_MS = 5_000;

/**
 * Solves a routing problem in-process. Deterministic for a seed when only `maxIterations` bounds
 * it; with a time limit the answer depends on how much the machine could do in that time.
 */
export function solveRoutes(
  problem: RoutingProblem,
  options: SolveOptions = {},
  parameters: SearchParameters = DEFAULT_PARAMETERS,
): RoutingSolution {
  const clock = () => performance.now();
  const started = clock();
  checkProblem(problem);
  const seed = options.seed ?? 1;
  const maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY;
  const timeLimitMs =
    options.timeLimitMs ??
    (options.maxIterations === undefined ? DEFAULT_TIME_LIMIT_MS : Number.POSITIVE_INFINITY);
  const model = compileModel(problem);
  const routes = new Routes(model);
  seedRoutes(routes);
  const search = new Search(routes, seed, parameters);
  search.construct();
  const constructed = clock();
  // What compiling and constructing took comes out of the time limit.
  search.run({ maxIterations, timeLimitMs: timeLimitMs - (clock() - started), clock });
  return answer(routes, search.absentUnits(), {
    engine: 'in-process',
    iterations: search.iterations,
    millis: Math.round(clock() - started),
    bestMillis: Math.round(Math.max(search.bestAt, constructed) - started),
    seed,
  });
}

export function createInProcessOptimiser(): RoundOptimiser {
  return {
    engine: 'in-process',
    solve: async (problem, options) => solveRoutes(problem, options),
  };
}
