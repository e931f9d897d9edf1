import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProblem, type PlanningStop, readSolution } from '../src/domain/rounds/optimised-plan.ts';
import { createInProcessOptimiser } from '../src/domain/routing/in-process-optimiser.ts';
import { checkPlan } from '../src/domain/routing/plan-check.ts';
import type { RoutingProblem } from '../src/domain/routing/ports.ts';
import { toVroomInput, vroomOptimiser } from '../src/infra/routing/vroom-optimiser.ts';
import { type FakeVroom, startFakeVroom } from './support/fake-vroom.ts';

/**
 * The VROOM adapter (issue 37, docs/planning.md) against a fake vroom-express built from VROOM's
 * docs/API.md: the translation, the answer read back (with the reasons VROOM does not give), and
 * the fallback to the in-process solver on each of vroom-express's errors, a slow or a dead engine.
 */
let fake: FakeVroom;
const fallbacks: string[] = [];
const logs: string[] = [];

// A depot (0) and six doors on a line, 600 s apart; two vehicles of 3 parcels, a 2-hour shift.
const line = Array.from({ length: 7 }, (_, i) => Array.from({ length: 7 }, (_, j) => Math.abs(i - j) * 600));
const PROBLEM: RoutingProblem = {
  matrices: { van: { durations: line, distances: line.map((r) => r.map((x) => x * 5)) } },
  jobs: [
    { id: 'a', location: 1, service: 60, delivery: [1] },
    { id: 'b', location: 2, service: 60, delivery: [1] },
    { id: 'c', location: 3, service: 60, delivery: [1], timeWindows: [[1200, 3600]] },
    { id: 'd', location: 4, service: 60, delivery: [1] },
    { id: 'big', location: 2, service: 60, delivery: [9] },
    { id: 'late', location: 6, service: 60, delivery: [1], timeWindows: [[100, 200]] },
  ],
  vehicles: [
    { id: 'v1', profile: 'van', start: 0, end: 0, capacity: [3], timeWindow: [0, 7200] },
    { id: 'v2', profile: 'van', start: 0, end: 0, capacity: [3], timeWindow: [0, 7200] },
  ],
};

const adapter = (timeoutMs = 2000) =>
  vroomOptimiser({
    baseUrl: fake.url,
    timeoutMs,
    fallback: createInProcessOptimiser(),
    log: (m) => logs.push(m),
    onFallback: (reason) => fallbacks.push(reason),
  });

beforeAll(async () => {
  fake = await startFakeVroom({ maxLocations: 50 });
});
afterAll(async () => fake?.close());

describe('the VROOM adapter', () => {
  it('sends VROOM’s input: integer ids and skills, location_index into per-profile matrices', () => {
    const { input } = toVroomInput({
      ...PROBLEM,
      jobs: [{ ...PROBLEM.jobs![0]!, vehicle: 'v2', skills: ['cold'] }],
    });
    expect(input.jobs[0]).toMatchObject({
      id: 1,
      description: 'a',
      location_index: 1,
      service: 60,
      delivery: [1],
    });
    expect(input.vehicles[1]).toMatchObject({
      id: 2,
      profile: 'van',
      start_index: 0,
      end_index: 0,
      capacity: [3],
      time_window: [0, 7200],
    });
    // The pin is a skill only v2 has.
    const [cold, pin] = input.jobs[0]!.skills;
    expect(input.vehicles[1]!.skills).toContain(pin);
    expect(input.vehicles[0]!.skills).not.toContain(pin);
    expect(input.vehicles.every((v) => !v.skills.includes(cold!))).toBe(true);
    expect(Object.keys(input.matrices)).toEqual(['van']);
  });

  it('plans through VROOM; the answer is checked and each unassigned task has its reason', async () => {
    fallbacks.length = 0;
    const solution = await adapter().solve(PROBLEM);
    expect(fallbacks).toEqual([]);
    expect(solution.search.engine).toBe('vroom');
    expect(checkPlan(PROBLEM, solution)).toEqual([]);
    const reasons = Object.fromEntries(solution.unassigned.map((u) => [u.id, u.reason]));
    expect(reasons.big).toBe('capacity');
    // Unreachable in its window even alone: the reasons the in-process solver gives.
    const inProcess = await createInProcessOptimiser().solve(PROBLEM, { maxIterations: 100 });
    expect(reasons.late).toBe(inProcess.unassigned.find((u) => u.id === 'late')?.reason);
    expect(
      solution.routes.flatMap((r) => r.steps.filter((s) => s.type === 'job').map((s) => s.id)).sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
    expect(fake.requests.at(-1).jobs).toHaveLength(6);
  });

  it('answers vroom-express’s documented errors as the engine does', async () => {
    const post = (body: string) =>
      fetch(`${fake.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const noVehicles = await post(JSON.stringify({ jobs: [] }));
    expect(noVehicles.status).toBe(400);
    expect(await noVehicles.json()).toMatchObject({ code: 2 });
    expect((await post('{not json')).status).toBe(400);
    const many = await post(
      JSON.stringify({ vehicles: [{ id: 1 }], jobs: Array.from({ length: 60 }, (_, i) => ({ id: i })) }),
    );
    expect(many.status).toBe(413);
    expect(await many.json()).toMatchObject({
      code: 4,
      error: expect.stringContaining('Too many locations'),
    });
    const duplicate = await post(
      JSON.stringify({
        vehicles: [{ id: 1, start_index: 0 }],
        jobs: [
          { id: 1, location_index: 0 },
          { id: 1, location_index: 0 },
        ],
        matrices: { car: { durations: [[0]] } },
      }),
    );
    expect(await duplicate.json()).toMatchObject({ code: 2, error: 'Duplicate job id: 1.' });
  });

  it.each([
    ['failing', { kind: 'failing' as const }, 'HTTP 500 code 1'],
    ['down', { kind: 'down' as const }, 'unreachable'],
    ['slow', { kind: 'slow' as const, delayMs: 1500 }, 'timeout'],
    ['wrong', { kind: 'wrong' as const }, 'routes not feasible'],
  ])('falls back to the in-process solver when VROOM is %s, with a log line', async (_, mode, reason) => {
    fallbacks.length = 0;
    fake.setMode(mode);
    try {
      const solution = await adapter(500).solve(PROBLEM, { maxIterations: 200 });
      expect(solution.search.engine).toBe('in-process');
      expect(checkPlan(PROBLEM, solution)).toEqual([]);
      expect(fallbacks).toEqual([reason]);
      expect(logs.some((l) => l.includes(reason) && l.includes('planned in-process'))).toBe(true);
    } finally {
      fake.setMode({ kind: 'normal' });
    }
  });

  it('falls back on a 413 (too many locations for vroom-express)', async () => {
    fallbacks.length = 0;
    const many: RoutingProblem = {
      ...PROBLEM,
      jobs: Array.from({ length: 51 }, (_, i) => ({ id: `j${i}`, location: 1 + (i % 6), delivery: [0] })),
    };
    const solution = await adapter().solve(many, { maxIterations: 50 });
    expect(solution.search.engine).toBe('in-process');
    expect(fallbacks).toEqual(['HTTP 413 code 4']);
  });

  it('refuses a malformed problem before sending anything', async () => {
    const sent = fake.requests.length;
    await expect(
      adapter().solve({ ...PROBLEM, vehicles: [{ ...PROBLEM.vehicles[0]!, timeWindow: [10, 0] }] }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect(fake.requests.length).toBe(sent);
  });

  it('sends a same-day parcel as a VROOM shipment (pickup at the brand in its window, delivery at the recipient) and reads it back as one round, the pickup first', async () => {
    // The planner's problem (domain/rounds/optimised-plan.ts): a hub, the brand's pickup (with a
    // parcel for the hub), a same-day parcel collected there, and a plain delivery from the hub.
    const at = (lat: number, lng: number) => ({ lat, lng });
    const hub = { ...at(48.8541, 2.3722), id: 'hub_1', name: 'Hub', address: 'Hub', createdAt: new Date() };
    const pickup: PlanningStop = {
      stop: { kind: 'pickup', pickupId: 'pck_0123456789abcdef' },
      label: 'pck_0123456789abcdef',
      point: at(48.8647, 2.3795),
      parcels: 1,
      grams: 1000,
      window: [9 * 3600, 10.5 * 3600],
    };
    const plain: PlanningStop = {
      stop: { kind: 'delivery', orderId: '1' },
      label: 'DLV-PLAIN',
      point: at(48.8462, 2.3464),
      parcels: 1,
      grams: 500,
    };
    const sameDay: PlanningStop = {
      stop: { kind: 'delivery', orderId: '2' },
      label: 'DLV-SAMEDAY',
      point: at(48.8867, 2.3431),
      parcels: 2,
      grams: 3000,
    };
    const vehicles = [
      {
        courierId: 'cou_1',
        vehicle: {
          id: 'veh_1',
          name: 'Van 1',
          kind: 'van' as const,
          capacityParcels: 10,
          capacityKg: 50,
          hubId: hub.id,
          disabledAt: null,
          createdAt: new Date(),
        },
        hub,
        shift: [8 * 3600, 13 * 3600] as const,
        pinned: [],
      },
    ];
    // Straight lines at 5 m/s: enough for the shape.
    const matrix = async (points: readonly { lat: number; lng: number }[]) => {
      const m = points.map((a) =>
        points.map((b) => Math.round(Math.hypot((a.lat - b.lat) * 111_000, (a.lng - b.lng) * 73_000))),
      );
      return {
        distances: m,
        durations: m.map((r) => r.map((d) => Math.round(d / 5))),
        source: 'estimate' as const,
      };
    };
    const meta = await buildProblem([pickup, plain], vehicles, matrix, [
      { pickup: { ...pickup, parcels: 2, grams: 3000 }, delivery: sameDay },
    ]);
    const sent = fake.requests.length;
    fallbacks.length = 0;
    const solution = await adapter().solve(meta.problem);
    expect(fallbacks).toEqual([]);
    expect(solution.search.engine).toBe('vroom');
    expect(fake.requests.length).toBe(sent + 1);
    const body = fake.requests.at(-1);
    // VROOM's API: shipments of {amount, pickup: {id, location_index, time_windows, service}, delivery: {…}}.
    expect(body.jobs.map((j: any) => j.description).sort()).toEqual([
      'delivery:1',
      'pickup:pck_0123456789abcdef',
    ]);
    expect(body.shipments).toHaveLength(1);
    const [shipment] = body.shipments;
    const locations = (id: string) => meta.problem.shipments!.find((s) => s.id === id)!;
    expect(shipment).toMatchObject({
      amount: [2, 3000],
      pickup: {
        id: expect.any(Number),
        location_index: locations('delivery:2').pickup.location,
        time_windows: [[9 * 3600, 10.5 * 3600]],
        // The pickup's 600 s are on its job: this parcel adds its loading only.
        service: 60,
      },
      delivery: {
        id: expect.any(Number),
        location_index: locations('delivery:2').delivery.location,
        service: 180,
      },
    });
    expect(shipment.delivery.time_windows).toBeUndefined();
    // The pair's pickup end is at the brand's pickup, the same location as the pickup's job.
    expect(shipment.pickup.location_index).toBe(
      body.jobs.find((j: any) => j.description === 'pickup:pck_0123456789abcdef').location_index,
    );
    // Read back: both ends on the same vehicle, the pickup first, within the window.
    const route = solution.routes.find((r) => r.steps.some((s) => s.id === 'delivery:2'))!;
    const types = route.steps.filter((s) => s.id === 'delivery:2').map((s) => s.type);
    expect(types).toEqual(['pickup', 'delivery']);
    const pickedAt = route.steps.find((s) => s.type === 'pickup')!;
    expect(pickedAt.arrival + pickedAt.waitingTime).toBeGreaterThanOrEqual(9 * 3600);
    expect(pickedAt.arrival + pickedAt.waitingTime).toBeLessThanOrEqual(10.5 * 3600);
    expect(checkPlan(meta.problem, solution)).toEqual([]);
    const { rounds, unplaced } = readSolution(meta, vehicles, solution);
    expect(unplaced).toEqual([]);
    expect(rounds).toHaveLength(1);
    const order = rounds[0]!.stops.map((s) => (s.stop.kind === 'pickup' ? s.stop.pickupId : s.stop.orderId));
    // One stop for the pickup (its job and the pair's pickup end), then the same-day delivery.
    expect(order.filter((k) => k === 'pck_0123456789abcdef')).toHaveLength(1);
    expect(order.indexOf('2')).toBeGreaterThan(order.indexOf('pck_0123456789abcdef'));
    expect(order.sort()).toEqual(['1', '2', 'pck_0123456789abcdef']);
  });
});
