/**
 * A VRPTW instance as a `RoutingProblem`: one location per node, the TSPLIB edge weights as both
 * travel time and distance (and so as cost), windows and service times scaled like them, the fleet
 * as that many identical vehicles at the depot, its window as their shift. The weights are computed
 * here, not by the validator, so that a mistake in one is caught by the other.
 */
import type { RoutingProblem } from '../../src/domain/routing/ports.ts';
import type { VrptwInstance } from './vrptw-instance.ts';

function weight(instance: VrptwInstance, a: number, b: number): number {
  const p = instance.nodes[a]!;
  const q = instance.nodes[b]!;
  const d = instance.scale * Math.sqrt((p.x - q.x) ** 2 + (p.y - q.y) ** 2);
  return instance.edgeWeightType === 'FLOOR_2D' ? Math.floor(d) : d;
}

export function vrptwProblem(instance: VrptwInstance): RoutingProblem {
  const n = instance.nodes.length;
  const weights = Array.from({ length: n }, (_, a) =>
    Array.from({ length: n }, (_, b) => weight(instance, a, b)),
  );
  const s = instance.scale;
  const depot = instance.nodes[instance.depot]!;
  return {
    matrices: { car: { durations: weights, distances: weights } },
    jobs: instance.nodes.flatMap((node, i) =>
      i === instance.depot
        ? []
        : [
            {
              id: String(node.id),
              location: i,
              service: node.service * s,
              delivery: [node.demand],
              timeWindows: [[node.ready * s, node.due * s] as const],
            },
          ],
    ),
    vehicles: Array.from({ length: instance.vehicles }, (_, k) => ({
      id: `vehicle-${k + 1}`,
      start: instance.depot,
      end: instance.depot,
      capacity: [instance.capacity],
      timeWindow: [depot.ready * s, depot.due * s] as const,
    })),
  };
}
