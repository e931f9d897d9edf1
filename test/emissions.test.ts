import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMISSION_METHOD } from '../src/domain/emissions/emission-method.ts';
import { co2eInvoiceNote } from '../src/domain/emissions/invoice-note.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';

// Tuesday 24 November 2026, 10:00 in Paris.
const NOW = new Date('2026-11-24T09:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => NOW });
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
    // No round: one stop's default distance in Paris (1.5 km) × the diesel van's 316 g/km.
    expect(await stored(ref)).toEqual({
      co2e_grams: 474,
      co2e_data_level: 1,
      co2e_method: EMISSION_METHOD,
      co2e_vehicle: 'van',
      co2e_distance_m: 1500,
      co2e_at: NOW,
    });
    const detail = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(detail.data.order.co2e).toEqual({
      grams: 474,
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
    // Three stops: 1.5 + 3 + 1.5 km = 6 km × 316 g/km = 1896 g over 5 parcels (379.2 g each).
    const grams = await Promise.all([one, three, theirs].map(async (ref) => (await stored(ref)).co2e_grams));
    expect(grams).toEqual([379, 1138, 379]);
    expect(grams.reduce((a, b) => a + b, 0)).toBe(1896);

    const res = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions?period=2026-11`,
      headers: brand.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.emissions).toMatchObject({
      period: '2026-11',
      totals: { orders: 2, parcels: 4, distance_km: 4.8, co2e_kg: 1.517 },
      by_vehicle: [
        { vehicle: 'van', data_level: 1, orders: 2, parcels: 4, distance_km: 4.8, co2e_kg: 1.517 },
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
        `2026-11,van,1,2,4,4800,1517,${EMISSION_METHOD}\n` +
        `2026-11,total,,2,4,4800,1517,${EMISSION_METHOD}\n`,
    );

    const pdf = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions/pdf?period=2026-11`,
      headers: brand.headers,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('recomputes a month from the rounds as they are now', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = await newOrder(brand);
    await deliver(ref);
    expect((await stored(ref)).co2e_grams).toBe(474);
    // Put on a round afterwards with a second order of 4 parcels: 3 km of defaults, 948 g, 1 of 5 parcels.
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
    expect(byRef).toEqual({ [delivered]: 474, [pending]: null });
    expect(detail.data.invoice.co2e_grams).toBe(474);

    const note = co2eInvoiceNote([{ co2eGrams: 474 }, { co2eGrams: null }, { co2eGrams: 12_345 }]);
    expect(note).toEqual({
      subjectCode: 'AAI',
      text: expect.stringContaining("12 819 g CO₂e (grammes d'équivalent CO₂) pour les 2 livraison(s)"),
    });
    expect(co2eInvoiceNote([{ co2eGrams: null }])).toBeNull();
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
