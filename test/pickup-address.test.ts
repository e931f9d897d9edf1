/**
 * The pickup address: a real Île-de-France address, given with the order or the brand's default,
 * checked like the delivery address (one locating function), and nothing stored on refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { brandFootprint, createOrder, NOTHING_STORED, VALID_ORDER } from './support/orders.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const patch = (brand: TestBrand, ref: string, payload: object) =>
  call(t.app, { method: 'PATCH', url: `${API}/orders/${ref}`, headers: brand.headers, payload });

describe('pickup address on POST /orders', () => {
  it('refuses a pickup outside Île-de-France (out_of_zone) or without a French postcode (invalid_address)', async () => {
    const brand = await createBrandWithKey(t.deps);
    const cases: [string, string][] = [
      ['3 quai Saint-Antoine 69002 Lyon', 'out_of_zone'],
      ['nowhere', 'invalid_address'],
      ['12 rue X 75099 Paris', 'invalid_address'],
    ];
    for (const [pickup, code] of cases) {
      for (const body of [
        { ...VALID_ORDER, pickup_address: pickup },
        { customer_email: 'jane@example.com', pickup_address: pickup },
      ]) {
        const res = await createOrder(t.app, brand, body, {
          'idempotency-key': `p-${code}-${pickup.length}`,
        });
        expect(res.statusCode, pickup).toBe(422);
        expect(res.data.error, pickup).toBe(code);
        expect(res.data.details, pickup).toEqual([{ field: 'pickup_address', message: expect.any(String) }]);
        expect(res.data.message).toContain('pickup_address');
      }
    }
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
  });

  it('needs a pickup address when the brand has no default one', async () => {
    const brand = await createBrandWithKey(t.deps, { pickupAddress: null });
    for (const body of [
      VALID_ORDER,
      { customer_email: 'jane@example.com' },
      { ...VALID_ORDER, pickup_address: ' ' },
    ]) {
      const res = await createOrder(t.app, brand, body);
      expect(res.statusCode).toBe(422);
      expect(res.data.error).toBe('invalid_address');
      expect(res.data.details).toEqual([
        { field: 'pickup_address', message: expect.stringMatching(/required/) },
      ]);
      expect(res.data.message).toMatch(/default pickup address/);
    }
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
    const given = await createOrder(t.app, brand, {
      ...VALID_ORDER,
      pickup_address: '8 rue du Dépôt 94200 Ivry',
    });
    expect(given.statusCode).toBe(200);
    expect(given.data.order.pickup_address).toBe('8 rue du Dépôt 94200 Ivry');
  });

  it('reports both addresses when both are wrong: the code of the delivery address, a detail for each', async () => {
    const brand = await createBrandWithKey(t.deps);
    const res = await createOrder(t.app, brand, {
      ...VALID_ORDER,
      delivery_address: '12 rue sans code, Paris',
      pickup_address: '3 quai Saint-Antoine 69002 Lyon',
    });
    expect(res.statusCode).toBe(422);
    expect(res.data.error).toBe('invalid_address');
    expect(res.data.details.map((d: { field: string }) => d.field)).toEqual([
      'delivery_address',
      'pickup_address',
    ]);
    expect(await brandFootprint(t.pool, brand.brandId)).toEqual(NOTHING_STORED);
  });
});

describe('pickup address on PATCH /orders/{ref}', () => {
  it('checks a new pickup address and changes nothing when it is refused', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const before = (await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers }))
      .data;
    for (const [pickup, code] of [
      ['3 quai Saint-Antoine 69002 Lyon', 'out_of_zone'],
      ['nowhere', 'invalid_address'],
    ]) {
      const res = await patch(brand, ref, { pickup_address: pickup, delivery_recipient: 'Jeanne' });
      expect(res.statusCode, pickup).toBe(422);
      expect(res.data.error).toBe(code);
      expect(res.data.details).toEqual([{ field: 'pickup_address', message: expect.any(String) }]);
    }
    const removed = await patch(brand, ref, { pickup_address: null });
    expect(removed.statusCode).toBe(400);
    expect(removed.data.details[0].field).toBe('pickup_address');
    const after = (await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers }))
      .data;
    expect(after).toEqual(before);
    const moved = await patch(brand, ref, {
      pickup_address: '2 avenue du Général Leclerc 92100 Boulogne-Billancourt',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.data.order.pickup_address).toBe('2 avenue du Général Leclerc 92100 Boulogne-Billancourt');
  });
});

describe("the brand's default pickup address", () => {
  it('must be a real Île-de-France address', async () => {
    for (const [pickup, code] of [
      ['3 quai Saint-Antoine 69002 Lyon', 'out_of_zone'],
      ['nowhere', 'invalid_address'],
    ]) {
      await expect(
        t.deps.brands.create({ name: 'Maison Lemoine', pickupAddress: pickup }, testOperator),
        pickup,
      ).rejects.toMatchObject({
        code,
        details: [{ field: 'pickup_address', message: expect.any(String) }],
      });
    }
    const ok = await t.deps.brands.create(
      {
        name: 'Maison Lemoine',
        pickupAddress: ' 5 rue du Dépôt 93200 Saint-Denis ',
      },
      testOperator,
    );
    expect(ok.defaultPickupAddress).toBe('5 rue du Dépôt 93200 Saint-Denis');
  });
});
