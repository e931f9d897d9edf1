import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { call, createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

/**
 * Rounds end to end on a database of their own (planning reads every order of the day): the
 * planning rule, the operator's edits, the external planner's rounds, the courier's day, the CLI.
 */
let t: ScratchTestApp;
let brand: TestBrand;
let day: string;
const refs: Record<string, string> = {};
let pickupId: string;

const OPS = { authorization: 'Bearer test-ops-token-0123456789abcdefgh' };
const ops = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
  call(t.app, {
    method,
    url: `/ops/v1${url}`,
    headers: OPS,
    ...(payload !== undefined && { payload: payload as object }),
  });

const ADDRESSES = {
  oberkampf12: '12 rue Oberkampf 75011 Paris',
  oberkampf9: '9 rue Oberkampf 75011 Paris',
  alibert: '2 rue Alibert 75010 Paris',
  saintDenis: '1 place Victor Hugo 93200 Saint-Denis',
};

async function orderAt(address: string): Promise<string> {
  const res = await createOrder(t.app, brand, { ...VALID_ORDER, delivery_address: address });
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.data.order.tracking_ref as string;
  await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
  // Due on the planned day (the pickup's), whatever the service level promised.
  await t.pool.query('UPDATE orders SET promised_date = $2 WHERE tracking_ref = $1', [ref, day]);
  return ref;
}

const roundCount = async () => Number((await t.pool.query('SELECT count(*) FROM rounds')).rows[0].count);
const stopCount = async () => Number((await t.pool.query('SELECT count(*) FROM round_stops')).rows[0].count);
const stopsOf = (round: { stops: any[] }) =>
  round.stops.map((s) => (s.kind === 'pickup' ? s.pickup.id : s.order.tracking_ref));

async function newCourier() {
  const email = uniqueEmail('courier');
  const { courier } = await t.deps.couriers.add(
    {
      email,
      name: `Courier ${email.slice(8, 20)}`,
      password: PASSWORD,
    },
    testOperator,
  );
  const b = new Browser(t.app, `10.8.0.${Math.floor(Math.random() * 250)}`);
  return { ...courier, b };
}

beforeAll(async () => {
  t = await buildScratchTestApp({ config: { opsToken: 'test-ops-token-0123456789abcdefgh' } });
  brand = await createBrandWithKey(t.deps, { pickupAddress: '5 rue Oberkampf 75011 Paris' });
  const first = await createOrder(t.app, brand, { ...VALID_ORDER, delivery_address: ADDRESSES.oberkampf12 });
  const row = await t.pool.query(
    `SELECT p.id, to_char(p.pickup_date, 'YYYY-MM-DD') AS day FROM pickups p WHERE p.brand_id = $1`,
    [brand.brandId],
  );
  pickupId = row.rows[0].id;
  day = row.rows[0].day;
  refs.oberkampf12 = first.data.order.tracking_ref;
  await t.deps.orders.setStatus(refs.oberkampf12!, 'picked_up', null, testOperator);
  await t.pool.query('UPDATE orders SET promised_date = $2 WHERE tracking_ref = $1', [refs.oberkampf12, day]);
  refs.oberkampf9 = await orderAt(ADDRESSES.oberkampf9);
  refs.alibert = await orderAt(ADDRESSES.alibert);
  refs.saintDenis = await orderAt(ADDRESSES.saintDenis);
}, 60_000);
afterAll(() => t.close());

describe('planning a day', () => {
  it('refuses a bad date with 400 naming it, and writes nothing', async () => {
    for (const body of [{ date: 'tomorrow' }, { date: '2026-02-30' }, {}, { date: day, assign: 'yes' }]) {
      const res = await ops('POST', '/rounds/plan', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.details[0].field).toMatch(/date|assign/);
    }
    expect((await ops('GET', '/rounds?date=x')).statusCode).toBe(400);
    expect(await roundCount()).toBe(0);
  });

  it('groups by sort code, pickups first then deliveries by postcode and address', async () => {
    const res = await ops('POST', '/rounds/plan', { date: day });
    expect(res.statusCode, res.body).toBe(200);
    const rounds = res.data.rounds as any[];
    expect(rounds.map((r) => [r.name, r.sort_codes, r.courier_id, r.date])).toEqual([
      ['PAR-10', ['PAR-10'], null, day],
      ['PAR-11', ['PAR-11'], null, day],
      ['PC-93', ['PC-93'], null, day],
    ]);
    expect(stopsOf(rounds[1])).toEqual([pickupId, refs.oberkampf12, refs.oberkampf9]);
    const pickupStop = rounds[1].stops[0];
    expect(pickupStop).toEqual({
      position: 1,
      // Planned by sort code: no planned time nor leg, nothing pinned.
      pinned: false,
      planned_arrival: null,
      leg_distance_m: null,
      kind: 'pickup',
      pickup: {
        id: pickupId,
        brand_name: expect.any(String),
        pickup_address: '5 rue Oberkampf 75011 Paris',
        window: { start: '14:00', end: '18:00' },
        status: 'planned',
        parcels: [refs.oberkampf12, refs.oberkampf9, refs.alibert, refs.saintDenis],
      },
    });
    expect(rounds[1].stops[1]).toEqual({
      position: 2,
      pinned: false,
      planned_arrival: null,
      leg_distance_m: null,
      kind: 'delivery',
      order: {
        tracking_ref: refs.oberkampf12,
        status: 'picked_up',
        recipient: 'Jane Doe',
        address: ADDRESSES.oberkampf12,
        postcode: '75011',
        city: 'Paris',
        // No geocoder in this suite: the postcode's point (SPEC §11), for the courier's navigation.
        delivery_location: { lat: 48.8574, lng: 2.3795, precision: 'postcode', source: 'postcode' },
        phone: '+33612345678',
        sort_code: 'PAR-11',
        quantity: 1,
        failed_attempts: 0,
        instructions: null,
        safe_place: null,
      },
    });
  });

  it('re-planning keeps the operator’s order and courier, and adds a new order at the end', async () => {
    const courier = await newCourier();
    const par11 = (await ops('GET', `/rounds?date=${day}`)).data.rounds.find((r: any) => r.name === 'PAR-11');
    const reordered = await ops('PUT', `/rounds/${par11.id}/stops`, {
      stops: [{ tracking_ref: refs.oberkampf9 }, { pickup_id: pickupId }, { tracking_ref: refs.oberkampf12 }],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(stopsOf(reordered.data.round)).toEqual([refs.oberkampf9, pickupId, refs.oberkampf12]);
    expect(
      (await ops('PATCH', `/rounds/${par11.id}`, { courier_id: courier.email })).data.round.courier_id,
    ).toBe(courier.id);
    refs.late = await orderAt('20 rue Oberkampf 75011 Paris');
    const again = await ops('POST', '/rounds/plan', { date: day });
    const after = again.data.rounds.find((r: any) => r.name === 'PAR-11');
    expect(after.id).toBe(par11.id);
    expect(after.courier_id).toBe(courier.id);
    expect(stopsOf(after)).toEqual([refs.oberkampf9, pickupId, refs.oberkampf12, refs.late]);
    expect(again.data.rounds).toHaveLength(3);
  });

  it('assigns rounds without a courier round-robin among enabled couriers only', async () => {
    const disabled = await newCourier();
    await t.deps.couriers.disable(disabled.id, testOperator);
    const res = await ops('POST', '/rounds/plan', { date: day, assign: true });
    const couriers = (res.data.rounds as any[]).map((r) => r.courier_id);
    expect(couriers.every((c) => typeof c === 'string')).toBe(true);
    expect(couriers).not.toContain(disabled.id);
    const perCourier = new Map<string, number>();
    for (const c of couriers) perCourier.set(c, (perCourier.get(c) ?? 0) + 1);
    expect(Math.max(...perCourier.values()) - Math.min(...perCourier.values())).toBeLessThanOrEqual(1);
  });
});

describe('an external planner’s rounds and the operator’s edits', () => {
  it('refuses an order already on another round that day (422 naming it), writing nothing', async () => {
    const before = [await roundCount(), await stopCount()];
    const res = await ops('POST', '/rounds', {
      date: day,
      name: 'External 1',
      stops: [{ tracking_ref: refs.saintDenis }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.data.error).toBe('already_on_round');
    expect(res.data.details).toEqual([{ field: 'stops[0]', message: 'is already on round PC-93 that day' }]);
    expect([await roundCount(), await stopCount()]).toEqual(before);
  });

  it('refuses a new stop with nothing left to deliver (422 naming it), but keeps a delivered stop when reordering', async () => {
    const delivered = await orderAt(ADDRESSES.oberkampf12);
    await t.deps.orders.setStatus(delivered, 'in_transit', null, testOperator);
    await t.deps.orders.setStatus(delivered, 'out_for_delivery', null, testOperator);
    await t.deps.orders.setStatus(delivered, 'delivered', null, testOperator);
    const before = [await roundCount(), await stopCount()];
    const refused = await ops('POST', '/rounds', {
      date: day,
      name: 'External delivered',
      stops: [{ tracking_ref: delivered }],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.data.error).toBe('invalid_stops');
    expect(refused.data.details).toEqual([
      {
        field: 'stops[0].tracking_ref',
        message: `order ${delivered} is delivered; only an order still to deliver can be a stop`,
      },
    ]);
    expect([await roundCount(), await stopCount()]).toEqual(before);

    // Delivered while on a round: the operator reorders that round, and the stop stays.
    const onRound = await orderAt(ADDRESSES.oberkampf12);
    const created = await ops('POST', '/rounds', {
      date: day,
      name: 'External reorder',
      stops: [{ tracking_ref: onRound }],
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const status of ['in_transit', 'out_for_delivery', 'delivered'])
      await t.deps.orders.setStatus(onRound, status, null, testOperator);
    const kept = await ops('PUT', `/rounds/${created.data.round.id}/stops`, {
      stops: [{ tracking_ref: onRound }],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const added = await ops('PUT', `/rounds/${created.data.round.id}/stops`, {
      stops: [{ tracking_ref: onRound }, { tracking_ref: delivered }],
    });
    expect(added.statusCode).toBe(422);
    expect(added.data.error).toBe('invalid_stops');
  });

  it('refuses bad stops, names and couriers, writing nothing', async () => {
    const before = [await roundCount(), await stopCount()];
    const disabled = await newCourier();
    await t.deps.couriers.disable(disabled.id, testOperator);
    const cases: [unknown, number, string][] = [
      [{ date: day, name: 'X', stops: [{}] }, 400, 'invalid_request'],
      [{ date: day, name: 'X', stops: [{ tracking_ref: 'nope' }] }, 400, 'invalid_request'],
      [{ date: day, name: '', stops: [] }, 400, 'invalid_request'],
      [{ date: day, name: 'X', stops: [{ tracking_ref: 'DLV-0000000000' }] }, 422, 'unknown_stops'],
      [{ date: day, name: 'X', stops: [{ pickup_id: 'pck_0000000000000000' }] }, 422, 'unknown_stops'],
      [{ date: day, name: 'PAR-11', stops: [] }, 400, 'invalid_request'],
      [{ date: day, name: 'X', courier_id: 'cou_0000000000000000', stops: [] }, 400, 'invalid_request'],
      [{ date: day, name: 'X', courier_id: disabled.id, stops: [] }, 422, 'courier_disabled'],
    ];
    for (const [body, status, code] of cases) {
      const res = await ops('POST', '/rounds', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.data.error).toBe(code);
    }
    const par11 = (await ops('GET', `/rounds?date=${day}`)).data.rounds.find((r: any) => r.name === 'PAR-11');
    const twice = await ops('PUT', `/rounds/${par11.id}/stops`, {
      stops: [{ tracking_ref: refs.late }, { tracking_ref: refs.late }],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.data.details[0].field).toBe('stops[1]');
    const stolen = await ops('PUT', `/rounds/${par11.id}/stops`, { stops: [{ tracking_ref: refs.alibert }] });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.data.error).toBe('already_on_round');
    expect((await ops('PATCH', `/rounds/${par11.id}`, { courier_id: disabled.id })).statusCode).toBe(422);
    expect((await ops('GET', '/rounds/rnd_0000000000000000')).statusCode).toBe(404);
    expect((await ops('PUT', '/rounds/rnd_0000000000000000/stops', { stops: [] })).statusCode).toBe(404);
    expect([await roundCount(), await stopCount()]).toEqual(before);
    expect(stopsOf((await ops('GET', `/rounds/${par11.id}`)).data.round)).toEqual([
      refs.oberkampf9,
      pickupId,
      refs.oberkampf12,
      refs.late,
    ]);
  });

  it('takes a changed set whole: stops moved off a round can go on an external one', async () => {
    const par11 = (await ops('GET', `/rounds?date=${day}`)).data.rounds.find((r: any) => r.name === 'PAR-11');
    const shrunk = await ops('PUT', `/rounds/${par11.id}/stops`, {
      stops: [{ pickup_id: pickupId }, { tracking_ref: refs.oberkampf12 }, { tracking_ref: refs.oberkampf9 }],
    });
    expect(shrunk.statusCode).toBe(200);
    const external = await ops('POST', '/rounds', {
      date: day,
      name: 'External late',
      stops: [{ tracking_ref: refs.late }],
    });
    expect(external.statusCode, external.body).toBe(201);
    expect(external.data.round).toMatchObject({
      name: 'External late',
      courier_id: null,
      sort_codes: ['PAR-11'],
    });
    expect(await t.deps.rounds.roundOfOrder(await orderId(refs.late!), day)).toEqual({
      roundId: external.data.round.id,
      courierId: null,
    });
  });
});

const orderId = async (ref: string) =>
  (await t.pool.query('SELECT id::text FROM orders WHERE tracking_ref = $1', [ref])).rows[0].id as string;

describe('the courier’s day', () => {
  it('shows only the signed-in courier’s rounds, in the contract’s shape', async () => {
    const a = await newCourier();
    const b = await newCourier();
    const rounds = (await ops('GET', `/rounds?date=${day}`)).data.rounds as any[];
    const par10 = rounds.find((r) => r.name === 'PAR-10');
    await ops('PATCH', `/rounds/${par10.id}`, { courier_id: a.id });
    for (const c of [a, b]) {
      expect(
        (await c.b.submit('/courier/login', '/courier/login', { email: c.email, password: PASSWORD })).status,
      ).toBe(303);
    }
    const dayOfA = JSON.parse((await a.b.get(`/courier/api/v1/day?date=${day}`)).body);
    expect(dayOfA).toEqual({
      date: day,
      rounds: [
        {
          id: par10.id,
          name: 'PAR-10',
          sort_codes: ['PAR-10'],
          // The operator's stops, and the way to each delivery (docs/courier-app.md): Navigate to
          // the address as written at postcode precision, the distance to the next stop, no
          // estimate before the round leaves.
          stops: par10.stops.map((stop: any, i: number, all: any[]) => ({
            ...stop,
            navigation: expect.objectContaining({
              geo: `geo:0,0?q=${encodeURIComponent(stop.order.address)}`,
            }),
            next_stop_distance_m: i < all.length - 1 ? expect.any(Number) : null,
            eta: null,
          })),
        },
      ],
    });
    const dayOfB = JSON.parse((await b.b.get(`/courier/api/v1/day?date=${day}`)).body);
    expect(dayOfB).toEqual({ date: day, rounds: [] });
    // The app's shell (public, cached offline) holds no stop: the day comes only from the JSON above.
    const page = await a.b.get(`/courier/?date=${day}`);
    expect(page.status).toBe(200);
    for (const stop of par10.stops) expect(page.body).not.toContain(stop.order.tracking_ref);
    const bad = await a.b.get('/courier/api/v1/day?date=nope');
    expect(bad.status).toBe(400);
    await t.deps.couriers.disable(a.id, testOperator);
    expect((await a.b.get(`/courier/api/v1/day?date=${day}`)).status).toBe(401);
  });
});

describe('dlv couriers and dlv rounds', () => {
  it('adds (one-time password once), lists, disables; plans, lists and assigns rounds', async () => {
    const env = { DATABASE_URL: t.databaseUrl };
    const email = uniqueEmail('cli');
    const added = await runDlv(
      ['couriers', 'add', '--email', email, '--name', 'Cli Courier', '--phone', '06 12 34 56 78', '--json'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const json = JSON.parse(added.stdout);
    expect(json.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    // The phone as the orders' are: E.164, whatever the operator typed.
    expect(json.courier).toMatchObject({
      email,
      name: 'Cli Courier',
      phone: '+33612345678',
      locale: 'fr',
      must_choose_password: true,
      disabled_at: null,
    });
    const badPhone = await runDlv(
      ['couriers', 'add', '--email', uniqueEmail('cli'), '--name', 'X', '--phone', '06 12'],
      env,
    );
    expect(badPhone.code).not.toBe(0);
    expect(badPhone.stderr).toContain('phone: must be a valid phone number');
    // A new one-time password: the first one stops working.
    const reset = await runDlv(['couriers', 'reset-password', email, '--json'], env);
    expect(reset.code, reset.stderr).toBe(0);
    const resetJson = JSON.parse(reset.stdout);
    expect(resetJson.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(resetJson.one_time_password).not.toBe(json.one_time_password);
    const humanReset = await runDlv(['couriers', 'reset-password', email], env);
    expect(humanReset.stdout).toContain('It opens one sign-in within 72 hours');
    const human = await runDlv(['couriers', 'add', '--email', uniqueEmail('cli'), '--name', 'Other'], env);
    expect(human.stdout).toMatch(/one-time password \(shown once, give it to the courier\): [a-z2-9-]{19}/);
    const bad = await runDlv(['couriers', 'add', '--email', 'nope', '--name', 'X', '--locale', 'de'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/email|locale/);
    const list = JSON.parse((await runDlv(['couriers', 'list', '--json'], env)).stdout);
    expect(list.couriers.some((c: any) => c.id === json.courier.id)).toBe(true);
    const badDate = await runDlv(['rounds', 'plan', '--date', '2026-13-01'], env);
    expect(badDate.code).not.toBe(0);
    expect(badDate.stderr).toContain('date');
    const plan = await runDlv(['rounds', 'plan', '--date', day, '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout).rounds as any[];
    expect(planned.map((r) => r.name)).toEqual(expect.arrayContaining(['PAR-10', 'PAR-11', 'PC-93']));
    const pc93 = planned.find((r) => r.name === 'PC-93');
    const assign = await runDlv(['rounds', 'assign', pc93.id, email, '--json'], env);
    expect(assign.code, assign.stderr).toBe(0);
    expect(JSON.parse(assign.stdout).round.courier_id).toBe(json.courier.id);
    const listed = await runDlv(['rounds', 'list', '--date', day], env);
    expect(listed.stdout).toContain(json.courier.id);
    const disabled = await runDlv(['couriers', 'disable', email, '--json'], env);
    expect(JSON.parse(disabled.stdout).courier.disabled_at).not.toBeNull();
    const refused = await runDlv(['rounds', 'assign', pc93.id, email], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('disabled');
  }, 60_000);
});
