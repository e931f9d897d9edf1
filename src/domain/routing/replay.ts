/**
 * An outside engine's routes read back through the in-process model: each route's tasks, in the
 * engine's order, become the vehicle's fixed steps; the model times them (its schedules, loads,
 * distances) and gives each task left out its reason, as the in-process solver's answer would. A
 * route the model cannot keep (a window, the shift or a capacity broken by the matrices the problem
 * gave) is an `invalid_request` AppError: the caller does not trust such an answer.
 */
import { answer } from './answer.ts';
import { compileModel } from './compile.ts';
import type { RoutingProblem, RoutingSolution, TaskStep } from './ports.ts';
import { checkProblem } from './problem-check.ts';
import { Routes } from './routes.ts';
import { seedRoutes } from './seed-routes.ts';

export function replayRoutes(
  problem: RoutingProblem,
  routes: readonly { vehicle: string; tasks: readonly TaskStep[] }[],
  search: RoutingSolution['search'],
): RoutingSolution {
  const byVehicle = new Map(routes.map((r) => [r.vehicle, r.tasks]));
  const replayed: RoutingProblem = {
    ...problem,
    vehicles: problem.vehicles.map((v) => ({ ...v, fixedSteps: byVehicle.get(v.id) ?? [] })),
  };
  checkProblem(replayed);
  const model = compileModel(replayed);
  const R = new Routes(model);
  seedRoutes(R);
  const served = new Set(routes.flatMap((r) => r.tasks.map((t) => t.id)));
  const absent: number[] = [];
  for (let u = 0; u < model.unitCount; u++)
    if (!served.has(model.source[model.unitFirst[u]!]!.id)) absent.push(u);
  return answer(R, absent, search);
}

/** Whether each vehicle's fixed steps appear in its route, in their order. */
export function keepsFixedSteps(
  problem: RoutingProblem,
  routes: readonly { vehicle: string; tasks: readonly TaskStep[] }[],
): boolean {
  const byVehicle = new Map(routes.map((r) => [r.vehicle, r.tasks]));
  return problem.vehicles.every((v) => {
    const fixed = v.fixedSteps ?? [];
    if (fixed.length === 0) return true;
    const tasks = byVehicle.get(v.id) ?? [];
    let i = 0;
    for (const t of tasks) if (i < fixed.length && t.type === fixed[i]!.type && t.id === fixed[i]!.id) i++;
    if (i < fixed.length) return false;
    // A locked vehicle takes nothing else.
    return !v.locked || tasks.length === fixed.length;
  });
}
