/**
 * The bench's own judge of a VRPTW answer, independent of the solver: from the instance's data
 * alone (coordinates, demands, windows, service times, fleet) it recomputes each route's cost by
 * the TSPLIB rule, its load and its schedule, and checks that every customer is served exactly
 * once by at most the fleet's routes. Times are compared in the instance's units scaled by SCALE,
 * as its edge weights are (README of the Solomon set: travel time = the truncated distance).
 */
import type { VrptwInstance } from './vrptw-instance.ts';

export interface VrptwVerdict {
  cost: number;
  routes: number;
  violations: string[];
}

/** The TSPLIB edge weight between two nodes. */
export function edgeWeight(instance: VrptwInstance, a: number, b: number): number {
  const p = instance.nodes[a]!;
  const q = instance.nodes[b]!;
  const exact = instance.scale * Math.hypot(p.x - q.x, p.y - q.y);
  return instance.edgeWeightType === 'FLOOR_2D' ? Math.floor(exact) : exact;
}

/**
 * Checks routes given as lists of node ids (the file's numbers), depot excluded; each route starts
 * and ends at the depot.
 */
export function validateVrptw(instance: VrptwInstance, routes: readonly (readonly number[])[]): VrptwVerdict {
  const violations: string[] = [];
  const index = new Map(instance.nodes.map((n, i) => [n.id, i]));
  const depot = instance.depot;
  const scale = instance.scale;
  const eps = instance.edgeWeightType === 'EXACT_2D' ? 1e-6 : 0;
  const served = new Map<number, number>();
  let cost = 0;
  let used = 0;
  routes.forEach((route, r) => {
    if (route.length === 0) return;
    used++;
    let at = depot;
    let time = instance.nodes[depot]!.ready * scale;
    let load = 0;
    for (const id of route) {
      const i = index.get(id);
      if (i === undefined || i === depot) {
        violations.push(`route ${r}: ${id} is not a customer`);
        continue;
      }
      served.set(id, (served.get(id) ?? 0) + 1);
      const node = instance.nodes[i]!;
      const travel = edgeWeight(instance, at, i);
      cost += travel;
      const arrival = time + travel;
      if (arrival > node.due * scale + eps)
        violations.push(
          `route ${r}: customer ${id} reached at ${arrival / scale}, after its due time ${node.due}`,
        );
      time = Math.max(arrival, node.ready * scale) + node.service * scale;
      load += node.demand;
      at = i;
    }
    const back = edgeWeight(instance, at, depot);
    cost += back;
    if (time + back > instance.nodes[depot]!.due * scale + eps)
      violations.push(
        `route ${r}: back at the depot at ${(time + back) / scale}, after ${instance.nodes[depot]!.due}`,
      );
    if (load > instance.capacity)
      violations.push(`route ${r}: load ${load} over the capacity ${instance.capacity}`);
  });
  if (used > instance.vehicles) violations.push(`${used} routes for a fleet of ${instance.vehicles}`);
  for (const [i, node] of instance.nodes.entries()) {
    if (i === depot) continue;
    const times = served.get(node.id) ?? 0;
    if (times === 0) violations.push(`customer ${node.id} is not served`);
    if (times > 1) violations.push(`customer ${node.id} is served ${times} times`);
  }
  return { cost, routes: used, violations };
}
