import { randomBytes } from 'node:crypto';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate } from '../src/domain/emissions/allocation.ts';
import { EMISSION_METHOD } from '../src/domain/emissions/emission-method.ts';
import { co2eInvoiceNote } from '../src/domain/emissions/invoice-note.ts';
import { estimatedMatrix } from '../src/domain/places/travel-estimate.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';

const OPS_TOKEN = 'test-ops-token-0123456789abcdefgh';
// Tuesday 24 November 2026, 10:00 in Paris.
const NOW = new Date('2026-11-24T09:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => NOW, config: { opsToken: OPS_TOKEN } });
});
afterAll(() => t.close());

async function newOrder(brand: TestBrand, body: object = VALID_ORDER): Promise<string> {
  const res = await createOrder(t.app, brand, body);
  expect(res.statusCode).toBe(200);
  return res.data.order.tracking_ref;
}

async function deliver(ref: string) {
  for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered']) {
    await t.deps.orders.setStatus(ref, status, null, testOperator);
  }
}

/** A round of the day with these orders' stops, in this order (as the planner writes them). */
async function roundOf(refs: readonly string[]) {
  const id = `rnd_${randomBytes(8).toString('hex')}`;
  await t.pool.query(`INSERT INTO rounds (id, round_date, name) VALUES ($1, '2026-11-24', $2)`, [id, id]);
  for (const [i, ref] of refs.entries()) {
    await t.pool.query(
      `INSERT INTO round_stops (round_id, round_date, position, kind, order_id)
        SELECT $1, '2026-11-24', $2, 'delivery', id FROM orders WHERE tracking_ref = $3`,
      [id, i + 1, ref],
    );
  }
  return id;
}

const stored = async (ref: string) =>
  (
    await t.pool.query(
      `SELECT co2e_grams, co2e_data_level, co2e_method, co2e_vehicle, co2e_distance_m, co2e_at
        FROM orders WHERE tracking_ref = $1`,
      [ref],
    )
  ).rows[0];

describe('CO₂e per delivered order', () => {
  it('is stored by the delivery itself and shown on the order', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = await newOrder(brand);
    expect(
      (await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers })).data.order
        .co2e,
    ).toBeNull();
    await deliver(ref);
    // No round: one stop's default distance in Paris (1.5 km) × the diesel van's 317 g/km = 475.5 g.
    expect(await stored(ref)).toEqual({
      co2e_grams: 476,
      co2e_data_level: 1,
      co2e_method: EMISSION_METHOD,
      co2e_vehicle: 'van',
      co2e_distance_m: 1500,
      co2e_at: NOW,
    });
    const detail = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(detail.data.order.co2e).toEqual({
      grams: 476,
      data_level: 1,
      method: EMISSION_METHOD,
      vehicle: 'van',
    });
    const list = await call(t.app, { method: 'GET', url: `${API}/orders`, headers: brand.headers });
    expect(list.data.orders[0].co2e).toEqual(detail.data.order.co2e);
  });

  it("shares the round's distance by parcel, and the monthly statement sums the orders", async () => {
    const brand = await createBrandWithKey(t.deps);
    const one = await newOrder(brand);
    const three = await newOrder(brand, { ...VALID_ORDER, quantity: 3 });
    const other = await createBrandWithKey(t.deps);
    const theirs = await newOrder(other, {
      ...VALID_ORDER,
      delivery_address: '3 rue Lecourbe 92130 Issy-les-Moulineaux',
    });
    await roundOf([one, theirs, three]);
    for (const ref of [one, three, theirs]) await deliver(ref);
    // Three stops: 1.5 + 3 + 1.5 km = 6 km × 317 g/km = 1902 g over 5 parcels (380.4 g each).
    const grams = await Promise.all([one, three, theirs].map(async (ref) => (await stored(ref)).co2e_grams));
    expect(grams).toEqual([381, 1141, 380]);
    expect(grams.reduce((a, b) => a + b, 0)).toBe(1902);

    const res = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions?period=2026-11`,
      headers: brand.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.emissions).toMatchObject({
      period: '2026-11',
      totals: { orders: 2, parcels: 4, distance_km: 4.8, co2e_kg: 1.522 },
      by_vehicle: [
        { vehicle: 'van', data_level: 1, orders: 2, parcels: 4, distance_km: 4.8, co2e_kg: 1.522 },
      ],
      data_levels: [1],
      method: EMISSION_METHOD,
    });
    expect(res.data.emissions.method_text).toContain('ISO 14083');

    const csv = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions?period=2026-11&format=csv`,
      headers: brand.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe(
      'period,vehicle,data_level,orders,parcels,distance_m,co2e_grams,method\n' +
        `2026-11,van,1,2,4,4800,1522,${EMISSION_METHOD}\n` +
        `2026-11,total,,2,4,4800,1522,${EMISSION_METHOD}\n`,
    );

    const pdf = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions/pdf?period=2026-11`,
      headers: brand.headers,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Its unit said: the same grams, as kilograms (never grams labelled kg).
    const text = (await new PDFParse({ data: new Uint8Array(pdf.rawPayload) }).getText()).text;
    expect(text).toContain('Total : 1,522 kg CO₂e');
    expect(text).toMatch(/CO₂e \(kg\)/);
    expect(text).toMatch(/Total 2 4 4,8 1,522/);
  });

  it('recomputes a month from the rounds as they are now', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = await newOrder(brand);
    await deliver(ref);
    expect((await stored(ref)).co2e_grams).toBe(476);
    // Put on a round afterwards with a second order of 4 parcels: 3 km of defaults, 951 g, 1 of 5 parcels.
    const later = await newOrder(brand, { ...VALID_ORDER, quantity: 4 });
    await roundOf([ref, later]);
    await t.pool.query('UPDATE orders SET co2e_grams = NULL WHERE tracking_ref = $1', [ref]);
    const result = await t.deps.emissions.recompute('2026-11');
    expect(result.orders).toBeGreaterThanOrEqual(1);
    expect((await stored(ref)).co2e_grams).toBe(190);
    const detail = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(detail.data.order.co2e.grams).toBe(190);
  });

  it("sums the lines' CO₂e on the invoice, and says it in the e-invoice's notes", async () => {
    const brand = await createBrandWithKey(t.deps);
    const delivered = await newOrder(brand);
    const pending = await newOrder(brand);
    await deliver(delivered);
    const list = await call(t.app, { method: 'GET', url: `${API}/invoices`, headers: brand.headers });
    const draft = list.data.invoices[0];
    const detail = await call(t.app, {
      method: 'GET',
      url: `${API}/invoices/${draft.id}`,
      headers: brand.headers,
    });
    expect(detail.statusCode).toBe(200);
    const byRef = Object.fromEntries(
      detail.data.invoice.lines.map((l: any) => [l.tracking_ref, l.co2e_grams]),
    );
    expect(byRef).toEqual({ [delivered]: 476, [pending]: null });
    expect(detail.data.invoice.co2e_grams).toBe(476);

    const note = co2eInvoiceNote([{ co2eGrams: 474 }, { co2eGrams: null }, { co2eGrams: 12_345 }]);
    expect(note).toEqual({
      subjectCode: 'AAI',
      text: expect.stringContaining("12 819 g CO₂e (grammes d'équivalent CO₂) pour les 2 livraison(s)"),
    });
    expect(co2eInvoiceNote([{ co2eGrams: null }])).toBeNull();
  });

  it('stores the distance a finished round was driven, in the order its stops were delivered, and uses it (level 3)', async () => {
    const brand = await createBrandWithKey(t.deps);
    const refs = [
      await newOrder(brand),
      await newOrder(brand, { ...VALID_ORDER, quantity: 2 }),
      await newOrder(brand),
    ];
    const hex = () => randomBytes(8).toString('hex');
    const hub = { id: `hub_${hex()}`, lat: 48.9362, lng: 2.3574 }; // Saint-Denis
    const vehicle = `veh_${hex()}`;
    await t.pool.query(
      `INSERT INTO hubs (id, name, address, lat, lng) VALUES ($1, $1, 'Saint-Denis', $2, $3)`,
      [hub.id, hub.lat, hub.lng],
    );
    await t.pool.query(
      `INSERT INTO vehicles (id, name, kind, capacity_parcels, capacity_kg, hub_id) VALUES ($1, $1, 'van', 100, 800, $2)`,
      [vehicle, hub.id],
    );
    const places = [
      { lat: 48.8656, lng: 2.378 }, // Oberkampf
      { lat: 48.842, lng: 2.295 }, // Lecourbe
      { lat: 48.8867, lng: 2.3431 }, // Montmartre
    ];
    for (const [i, ref] of refs.entries())
      await t.pool.query('UPDATE orders SET delivery_lat = $2, delivery_lng = $3 WHERE tracking_ref = $1', [
        ref,
        places[i]!.lat,
        places[i]!.lng,
      ]);
    const round = await roundOf(refs);
    await t.pool.query('UPDATE rounds SET vehicle_id = $2, planned_distance_m = 30000 WHERE id = $1', [
      round,
      vehicle,
    ]);

    // Delivered in the order 3rd, 1st, 2nd (not the planned one), the last one still out.
    for (const ref of refs.slice(0, 2)) await deliver(ref);
    const deliveredAt = async (ref: string, at: string) =>
      t.pool.query(
        `UPDATE orders SET history = (SELECT json_agg(CASE WHEN e->>'status' = 'delivered'
            THEN jsonb_set(e::jsonb, '{at}', to_jsonb($2::text)) ELSE e::jsonb END) FROM json_array_elements(history) e)
          WHERE tracking_ref = $1`,
        [ref, at],
      );
    await deliveredAt(refs[0]!, '2026-11-24T09:00:00Z');
    await deliveredAt(refs[1]!, '2026-11-24T09:30:00Z');
    // Planned: 30 km × 317 g/km = 9510 g over 4 parcels; level 2 (its vehicle, its planned distance).
    expect(await stored(refs[0]!)).toMatchObject({ co2e_grams: 2378, co2e_data_level: 2 });
    expect(await t.deps.emissions.recordDrivenDistances()).toEqual({ rounds: 0, orders: 0 });

    await deliver(refs[2]!);
    await deliveredAt(refs[2]!, '2026-11-24T08:30:00Z');
    expect(await t.deps.emissions.recordDrivenDistances()).toEqual({ rounds: 1, orders: 3 });
    // Hub → 3rd → 1st → 2nd → hub, each leg from the travel-times port (here the estimate).
    const path = [hub, places[2]!, places[0]!, places[1]!, hub];
    const { distances } = estimatedMatrix(path, 'van');
    const legs = [0, 1, 2, 3].map((i) => distances[i]![i + 1]!);
    const driven = legs.reduce((a, b) => a + b, 0);
    const { rows } = await t.pool.query(
      `SELECT r.driven_distance_m, s.position, s.driven_position, s.driven_leg_m
         FROM rounds r JOIN round_stops s ON s.round_id = r.id WHERE r.id = $1 ORDER BY s.position`,
      [round],
    );
    expect(rows).toEqual([
      { driven_distance_m: driven, position: 1, driven_position: 2, driven_leg_m: legs[1] },
      { driven_distance_m: driven, position: 2, driven_position: 3, driven_leg_m: legs[2] },
      { driven_distance_m: driven, position: 3, driven_position: 1, driven_leg_m: legs[0] },
    ]);
    expect(driven).not.toBe(30000);
    const grams = allocate((driven / 1000) * 317, [1, 2, 1]);
    for (const [i, ref] of refs.entries())
      expect(await stored(ref)).toMatchObject({
        co2e_grams: grams[i],
        co2e_data_level: 3,
        co2e_vehicle: 'van',
      });
    const detail = await call(t.app, {
      method: 'GET',
      url: `${API}/orders/${refs[1]}`,
      headers: brand.headers,
    });
    expect(detail.data.order.co2e).toMatchObject({ grams: grams[1], data_level: 3 });
    // The operator reads it on the round.
    const listed = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/rounds?date=2026-11-24',
      headers: { authorization: `Bearer ${OPS_TOKEN}` },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.data.rounds.find((r: { id: string }) => r.id === round)).toMatchObject({
      driven_distance_m: driven,
      planned_distance_m: 30000,
    });
    // Once: the next run finds nothing to do.
    expect(await t.deps.emissions.recordDrivenDistances()).toEqual({ rounds: 0, orders: 0 });
  });

  it('refuses a period that is no month, with the error envelope', async () => {
    const brand = await createBrandWithKey(t.deps);
    const res = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions?period=2026-13`,
      headers: brand.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.data).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(res.data.message).toContain('period');
  });
});
