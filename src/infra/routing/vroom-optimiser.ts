import type {
  RoundOptimiser,
  RoutingProblem,
  RoutingSolution,
  SolveOptions,
  TaskStep,
} from '../../domain/routing/ports.ts';
import { checkProblem } from '../../domain/routing/problem-check.ts';
import { keepsFixedSteps, replayRoutes } from '../../domain/routing/replay.ts';
import { isAppError } from '../../errors.ts';

/**
 * The `RoundOptimiser` port on VROOM's HTTP API (vroom-express: `POST /` with the problem as JSON,
 * VROOM's docs/API.md). The problem is translated to VROOM's input: integer ids (jobs, shipments'
 * pickup and delivery, vehicles, breaks) and integer skills, `location_index` into `matrices` (whole
 * seconds and metres, as VROOM reads unsigned integers), a task pinned to a vehicle as a skill only
 * that vehicle has, a locked vehicle as one lacking the skill every other task gets, fixed steps as
 * the vehicle's `steps` (VROOM's starting route). The answer's routes are read back through the
 * in-process model (domain/routing/replay.ts), which times them on the problem's own matrices and
 * gives each unassigned task its reason (VROOM's `unassigned` names no reason).
 *
 * Anything else than a usable answer falls back to `fallback` (the in-process solver), told to
 * `onFallback` and logged once a minute per reason: a refused connection, a timeout, a 5xx
 * (`code` 1 internal, 3 routing), a 400 (`code` 2: an input error) or 413 (`code` 4: too many
 * locations or vehicles for vroom-express's limits), a malformed answer, or routes that break a
 * fixed step, a window, a shift or a capacity. A malformed problem is refused before anything is sent.
 */
export interface VroomOptions {
  baseUrl: string;
  timeoutMs: number;
  fallback: RoundOptimiser;
  log?: (message: string) => void;
  onFallback?: (reason: string) => void;
  now?: () => number;
}

interface VroomStep {
  type: string;
  id?: number;
}

interface VroomAnswer {
  code?: unknown;
  error?: unknown;
  routes?: { vehicle: number; steps: VroomStep[] }[];
  unassigned?: { id: number; type: string }[];
}

class VroomFailure extends Error {}

/** The problem in VROOM's words, and how to read its ids back. */
export function toVroomInput(problem: RoutingProblem) {
  const skillIds = new Map<string, number>();
  const skill = (name: string) => {
    let id = skillIds.get(name);
    if (id === undefined) {
      id = skillIds.size + 1;
      skillIds.set(name, id);
    }
    return id;
  };
  const pinSkill = (vehicle: string) => skill(`\u0000pin:${vehicle}`);
  const FREE = '\u0000free';
  const anyLocked = problem.vehicles.some((v) => v.locked);
  const jobIds = new Map<number, string>();
  const shipmentIds = new Map<number, string>();
  const vehicleIds = new Map<number, string>();
  const whole = (m: readonly (readonly number[])[]) =>
    m.map((row) => row.map((x) => Math.max(0, Math.round(x))));
  const fixedOnLocked = new Set(
    problem.vehicles.filter((v) => v.locked).flatMap((v) => (v.fixedSteps ?? []).map((s) => s.id)),
  );
  const taskSkills = (t: { id: string; skills?: readonly string[]; vehicle?: string }) => [
    ...(t.skills ?? []).map(skill),
    ...(t.vehicle ? [pinSkill(t.vehicle)] : []),
    ...(anyLocked && !fixedOnLocked.has(t.id) ? [skill(FREE)] : []),
  ];
  const windows = (w?: readonly (readonly [number, number])[]) =>
    w && w.length > 0 ? { time_windows: w.map(([a, b]) => [Math.round(a), Math.round(b)]) } : {};
  const jobNumber = new Map<string, number>();
  const jobs = (problem.jobs ?? []).map((j, i) => {
    jobIds.set(i + 1, j.id);
    jobNumber.set(j.id, i + 1);
    return {
      id: i + 1,
      description: j.id,
      location_index: j.location,
      service: Math.round(j.service ?? 0),
      ...(j.delivery && { delivery: j.delivery }),
      ...(j.pickup && { pickup: j.pickup }),
      skills: taskSkills(j),
      priority: j.priority ?? 0,
      ...windows(j.timeWindows),
    };
  });
  const shipmentNumber = new Map<string, number>();
  const shipments = (problem.shipments ?? []).map((s, i) => {
    shipmentIds.set(i + 1, s.id);
    shipmentNumber.set(s.id, i + 1);
    const place = (p: typeof s.pickup) => ({
      id: i + 1,
      description: s.id,
      location_index: p.location,
      service: Math.round(p.service ?? 0),
      ...windows(p.timeWindows),
    });
    return {
      pickup: place(s.pickup),
      delivery: place(s.delivery),
      ...(s.amount && { amount: s.amount }),
      skills: taskSkills(s),
      priority: s.priority ?? 0,
    };
  });
  const vehicles = problem.vehicles.map((v, i) => {
    vehicleIds.set(i + 1, v.id);
    const step = (t: TaskStep) => ({
      type: t.type,
      id: t.type === 'job' ? jobNumber.get(t.id) : shipmentNumber.get(t.id),
    });
    return {
      id: i + 1,
      description: v.id,
      profile: v.profile ?? 'car',
      ...(v.start !== undefined && { start_index: v.start }),
      ...(v.end !== undefined && { end_index: v.end }),
      ...(v.capacity && { capacity: v.capacity }),
      ...(v.timeWindow && { time_window: [Math.round(v.timeWindow[0]), Math.round(v.timeWindow[1])] }),
      skills: [
        ...(v.skills ?? []).map(skill),
        pinSkill(v.id),
        ...(anyLocked && !v.locked ? [skill(FREE)] : []),
      ],
      ...(v.breaks && {
        breaks: v.breaks.map((b, k) => ({
          id: k + 1,
          description: b.id,
          service: Math.round(b.service),
          ...windows(b.timeWindows),
        })),
      }),
      ...(v.costs && {
        costs: {
          ...(v.costs.fixed !== undefined && { fixed: Math.round(v.costs.fixed) }),
          ...(v.costs.perHour !== undefined && { per_hour: Math.round(v.costs.perHour) }),
          ...(v.costs.perKm !== undefined && { per_km: Math.round(v.costs.perKm) }),
        },
      }),
      ...(v.maxTasks !== undefined && { max_tasks: v.maxTasks }),
      ...(v.fixedSteps && v.fixedSteps.length > 0 && { steps: v.fixedSteps.map(step) }),
    };
  });
  const matrices = Object.fromEntries(
    Object.entries(problem.matrices).map(([profile, m]) => [
      profile,
      {
        durations: whole(m.durations),
        ...(m.distances && { distances: whole(m.distances) }),
        ...(m.costs && { costs: whole(m.costs) }),
      },
    ]),
  );
  return { input: { vehicles, jobs, shipments, matrices }, jobIds, shipmentIds, vehicleIds };
}

export function vroomOptimiser(options: VroomOptions): RoundOptimiser {
  const now = options.now ?? Date.now;
  const base = options.baseUrl.replace(/\/+$/, '');
  const logged = new Map<string, number>();

  function fellBack(reason: string) {
    options.onFallback?.(reason);
    if (now() - (logged.get(reason) ?? 0) < 60_000) return;
    logged.set(reason, now());
    options.log?.(`round optimiser ${base} failed (${reason}): rounds planned in-process`);
  }

  async function ask(problem: RoutingProblem): Promise<RoutingSolution> {
    const { input, jobIds, shipmentIds, vehicleIds } = toVroomInput(problem);
    let response: Response;
    try {
      response = await fetch(`${base}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      throw new VroomFailure((err as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
    }
    const body = (await response.json().catch(() => null)) as VroomAnswer | null;
    if (response.status !== 200 || body?.code !== 0) {
      const code = typeof body?.code === 'number' ? ` code ${body.code}` : '';
      throw new VroomFailure(`HTTP ${response.status}${code}`);
    }
    if (!Array.isArray(body.routes) || !Array.isArray(body.unassigned))
      throw new VroomFailure('malformed answer');
    const routes = body.routes.map((r) => {
      const vehicle = vehicleIds.get(r.vehicle);
      if (vehicle === undefined || !Array.isArray(r.steps)) throw new VroomFailure('malformed answer');
      const tasks: TaskStep[] = r.steps.flatMap((s): TaskStep[] => {
        if (s.type === 'job') {
          const id = jobIds.get(s.id ?? -1);
          if (id === undefined) throw new VroomFailure('malformed answer');
          return [{ type: 'job', id }];
        }
        if (s.type === 'pickup' || s.type === 'delivery') {
          const id = shipmentIds.get(s.id ?? -1);
          if (id === undefined) throw new VroomFailure('malformed answer');
          return [{ type: s.type, id }];
        }
        return [];
      });
      return { vehicle, tasks };
    });
    if (!keepsFixedSteps(problem, routes)) throw new VroomFailure('fixed steps not kept');
    try {
      return replayRoutes(problem, routes, { engine: 'vroom' });
    } catch (err) {
      if (isAppError(err)) throw new VroomFailure('routes not feasible');
      throw err;
    }
  }

  return {
    engine: 'vroom',
    async solve(problem: RoutingProblem, solveOptions?: SolveOptions) {
      checkProblem(problem);
      try {
        return await ask(problem);
      } catch (err) {
        if (!(err instanceof VroomFailure)) throw err;
        fellBack(err.message);
        return options.fallback.solve(problem, solveOptions);
      }
    },
  };
}
