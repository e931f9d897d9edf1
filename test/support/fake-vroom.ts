import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A fake of VROOM behind vroom-express (VROOM-Project/vroom docs/API.md, vroom-express src/index.js)
 * on 127.0.0.1: `POST /` with a problem in VROOM's input format (custom `matrices` per profile,
 * `location_index`, integer ids and skills, `time_windows`, `capacity`, `delivery`/`pickup`,
 * shipments) answers `{code: 0, summary, unassigned, routes}` with steps (`start`, `job`, `pickup`,
 * `delivery`, `end`: `arrival`, `duration`, `distance`, `waiting_time`, `service`, `load`). Its
 * solver is a greedy insertion at the end of routes (a fake's, not VROOM's quality), honouring
 * skills, capacities, time windows and shifts. Its errors are vroom-express's: malformed JSON or no
 * `vehicles`/`jobs`/`shipments`, 400 `{code: 2, error}`; over `maxLocations` (jobs + 2 × shipments)
 * or `maxVehicles`, 413 `{code: 4}`; VROOM's input errors (duplicate ids, an index outside the
 * matrices, a profile without matrices), 400 `{code: 2}`; its internal errors, 500 `{code: 1}` (here:
 * `breaks`, which this fake does not plan). Slow, failing (500, code 1) and down on demand.
 */
type Mode =
  | { kind: 'normal' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'failing' }
  | { kind: 'down' }
  | { kind: 'wrong' };

export interface FakeVroom {
  url: string;
  requests: any[];
  setMode(mode: Mode): void;
  close(): Promise<void>;
}

const send = (res: import('node:http').ServerResponse, status: number, body: object) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

function solve(input: any): { status: number; body: object } {
  const input_error = (error: string) => ({ status: 400, body: { code: 2, error } });
  const jobs: any[] = input.jobs ?? [];
  const shipments: any[] = input.shipments ?? [];
  const vehicles: any[] = input.vehicles;
  if (vehicles.some((v) => v.breaks?.length))
    return { status: 500, body: { code: 1, error: 'Breaks are not planned by this fake.' } };
  const seen = new Set<number>();
  for (const j of jobs) {
    if (seen.has(j.id)) return input_error(`Duplicate job id: ${j.id}.`);
    seen.add(j.id);
  }
  const matrices = input.matrices ?? {};
  for (const v of vehicles)
    if (!matrices[v.profile ?? 'car'])
      return { status: 500, body: { code: 3, error: 'Failed to connect to OSRM' } };
  const size = (matrices[Object.keys(matrices)[0]!]?.durations ?? []).length;
  const indices = [
    ...jobs.map((j) => j.location_index),
    ...shipments.flatMap((s) => [s.pickup.location_index, s.delivery.location_index]),
    ...vehicles.flatMap((v) => [v.start_index, v.end_index].filter((x) => x !== undefined)),
  ];
  const bad = indices.find((i) => !Number.isInteger(i) || i < 0 || i >= size);
  if (bad !== undefined) return input_error(`location_index exceeding matrix size for value ${bad}.`);
  const dims = (vehicles[0]?.capacity ?? []).length;
  const zero = () => new Array(dims).fill(0);
  const add = (a: number[], b?: number[]) => a.map((x, i) => x + (b?.[i] ?? 0));
  const fits = (load: number[], cap?: number[]) => !cap || load.every((x, i) => x <= cap[i]!);
  const skilled = (v: any, t: any) => (t.skills ?? []).every((s: number) => (v.skills ?? []).includes(s));
  type Task = {
    type: 'job' | 'pickup' | 'delivery';
    id: number;
    loc: number;
    service: number;
    tw?: number[][];
    delivery?: number[];
    pickup?: number[];
  };
  const routes = vehicles.map((v) => ({ v, tasks: [] as Task[] }));
  // Timing of a route: [feasible, steps].
  const schedule = (v: any, tasks: Task[]) => {
    const m = matrices[v.profile ?? 'car'];
    const dur = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? 0 : m.durations[a][b];
    const dist = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined || !m.distances ? 0 : m.distances[a][b];
    const [open, close] = v.time_window ?? [0, Number.MAX_SAFE_INTEGER];
    let load = tasks.reduce((l, t) => add(l, t.type === 'job' ? t.delivery : undefined), zero());
    if (!fits(load, v.capacity)) return null;
    let time = open;
    let at = v.start_index;
    let travel = 0;
    let distance = 0;
    const steps: any[] = [
      {
        type: 'start',
        location_index: v.start_index,
        arrival: time,
        duration: 0,
        distance: 0,
        setup: 0,
        service: 0,
        waiting_time: 0,
        load: [...load],
        violations: [],
      },
    ];
    for (const t of tasks) {
      travel += dur(at, t.loc);
      distance += dist(at, t.loc);
      const arrival = time + dur(at, t.loc);
      const window = t.tw?.find((w) => arrival <= w[1]!) ?? (t.tw ? null : [0, Number.MAX_SAFE_INTEGER]);
      if (!window) return null;
      const start = Math.max(arrival, window[0]!);
      load = add(
        add(load, t.pickup),
        t.delivery?.map((x) => -x),
      );
      if (!fits(load, v.capacity)) return null;
      steps.push({
        type: t.type,
        id: t.id,
        location_index: t.loc,
        arrival,
        duration: travel,
        distance,
        setup: 0,
        service: t.service,
        waiting_time: start - arrival,
        load: [...load],
        violations: [],
      });
      time = start + t.service;
      at = t.loc;
    }
    travel += dur(at, v.end_index);
    distance += dist(at, v.end_index);
    time += dur(at, v.end_index);
    if (time > close) return null;
    steps.push({
      type: 'end',
      location_index: v.end_index,
      arrival: time,
      duration: travel,
      distance,
      setup: 0,
      service: 0,
      waiting_time: 0,
      load: [...load],
      violations: [],
    });
    return { steps, travel, distance };
  };
  const unassigned: any[] = [];
  const units: { skills?: number[]; priority?: number; tasks: Task[]; label: any[] }[] = [
    ...jobs.map((j) => ({
      skills: j.skills,
      tasks: [
        {
          type: 'job' as const,
          id: j.id,
          loc: j.location_index,
          service: j.service ?? 0,
          tw: j.time_windows,
          delivery: j.delivery,
          pickup: j.pickup,
        },
      ],
      label: [{ id: j.id, type: 'job', location_index: j.location_index }],
    })),
    ...shipments.map((s) => ({
      skills: s.skills,
      tasks: [
        {
          type: 'pickup' as const,
          id: s.pickup.id,
          loc: s.pickup.location_index,
          service: s.pickup.service ?? 0,
          tw: s.pickup.time_windows,
          pickup: s.amount,
        },
        {
          type: 'delivery' as const,
          id: s.delivery.id,
          loc: s.delivery.location_index,
          service: s.delivery.service ?? 0,
          tw: s.delivery.time_windows,
          delivery: s.amount,
        },
      ],
      label: [
        { id: s.pickup.id, type: 'pickup', location_index: s.pickup.location_index },
        { id: s.delivery.id, type: 'delivery', location_index: s.delivery.location_index },
      ],
    })),
  ];
  for (const u of units) {
    let best: { r: (typeof routes)[number]; cost: number } | null = null;
    for (const r of routes) {
      if (!skilled(r.v, u)) continue;
      if (r.v.max_tasks !== undefined && r.tasks.length + u.tasks.length > r.v.max_tasks) continue;
      const before = schedule(r.v, r.tasks);
      const after = schedule(r.v, [...r.tasks, ...shipmentSafe(u.tasks)]);
      if (!before || !after) continue;
      const cost = after.travel - before.travel;
      if (!best || cost < best.cost) best = { r, cost };
    }
    if (best) best.r.tasks.push(...shipmentSafe(u.tasks));
    else unassigned.push(...u.label);
  }
  const out = routes
    .filter((r) => r.tasks.length > 0)
    .map((r) => {
      const s = schedule(r.v, r.tasks)!;
      const service = r.tasks.reduce((n, t) => n + t.service, 0);
      const waiting = s.steps.reduce((n: number, st: any) => n + st.waiting_time, 0);
      return {
        vehicle: r.v.id,
        cost: s.travel,
        setup: 0,
        service,
        duration: s.travel,
        waiting_time: waiting,
        priority: 0,
        distance: s.distance,
        steps: s.steps,
        violations: [],
      };
    });
  const sum = (k: string) => out.reduce((n, r: any) => n + r[k], 0);
  return {
    status: 200,
    body: {
      code: 0,
      summary: {
        cost: sum('cost'),
        routes: out.length,
        unassigned: unassigned.length,
        setup: 0,
        service: sum('service'),
        duration: sum('duration'),
        waiting_time: sum('waiting_time'),
        priority: 0,
        distance: sum('distance'),
        violations: [],
        computing_times: { loading: 1, solving: 1, routing: 0 },
      },
      unassigned,
      routes: out,
    },
  };
}

// A shipment's pickup carries its amount until its delivery: in the fake's load arithmetic, the
// pickup adds it and the delivery removes it (a job's `delivery` is on board from the start).
function shipmentSafe(tasks: any[]): any[] {
  if (tasks.length < 2) return tasks;
  const [p, d] = tasks;
  return [
    { ...p, delivery: undefined, pickup: p.pickup },
    { ...d, pickup: d.delivery?.map((x: number) => -x), delivery: undefined },
  ];
}

export async function startFakeVroom(
  options: { maxLocations?: number; maxVehicles?: number } = {},
): Promise<FakeVroom> {
  const maxLocations = options.maxLocations ?? 1000;
  const maxVehicles = options.maxVehicles ?? 200;
  const requests: any[] = [];
  let mode: Mode = { kind: 'normal' };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (mode.kind === 'down') {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (mode.kind === 'slow')
        await new Promise((r) => setTimeout(r, (mode as { delayMs: number }).delayMs));
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, {
          code: 2,
          error:
            'Invalid JSON object in request, please add vehicles and jobs or shipments to the object body',
        });
      }
      requests.push(body);
      if (req.method !== 'POST' || (req.url ?? '/') !== '/')
        return send(res, 404, { code: 2, error: 'Not found' });
      if (!(('jobs' in body || 'shipments' in body) && 'vehicles' in body))
        return send(res, 400, {
          code: 2,
          error:
            'Invalid JSON object in request, please add vehicles and jobs or shipments to the object body',
        });
      const locations = (body.jobs?.length ?? 0) + 2 * (body.shipments?.length ?? 0);
      if (locations > maxLocations)
        return send(res, 413, {
          code: 4,
          error: `Too many locations ( ${locations} ) in query, maximum is set to ${maxLocations}`,
        });
      if (body.vehicles.length > maxVehicles)
        return send(res, 413, {
          code: 4,
          error: `Too many vehicles ( ${body.vehicles.length} ) in query, maximum is set to ${maxVehicles}`,
        });
      if (mode.kind === 'failing') return send(res, 500, { code: 1, error: 'Internal error' });
      const answer = solve(body);
      if (mode.kind === 'wrong' && answer.status === 200) {
        // An answer whose first route takes every task, over its capacity: not to be trusted.
        const routes = (answer.body as any).routes;
        const tasks = routes.flatMap((r: any) =>
          r.steps.filter((st: any) => st.type !== 'start' && st.type !== 'end'),
        );
        routes[0].steps = [routes[0].steps[0], ...tasks, routes[0].steps.at(-1)];
        routes.splice(1);
      }
      send(res, answer.status, answer.body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode: (m) => {
      mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
