import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersRepository } from '../src/db/repositories/orders-repository.ts';
import {
  orderDetailJson,
  orderEventJsonText,
  orderJson,
  orderLinks,
} from '../src/domain/orders/order-json.ts';
import type { OrderStatus } from '../src/domain/orders/state-machine.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

/**
 * The list route sends orders rendered to JSON by PostgreSQL (`listJson`); the detail route and
 * the webhooks render them in JavaScript (`orderJson` of `findByRef`). Both must say exactly the
 * same thing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
// Text as a brand may send it: accents, quotes, backslashes, emoji, the JSON-sensitive line
// separators and control characters (PostgreSQL text cannot hold NUL).
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      'é',
      '"',
      '\\',
      '/',
      '\n',
      '\t',
      '\u0001',
      '\u001f',
      '\u2028',
      '\u2029',
      '😀',
      '<',
      '&',
      "'",
    ),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});
const cents = fc.oneof(
  fc.constantFrom(0, 1, 5, 10, 99, 100, 101, 840, 1999, 123456789),
  fc.nat(2_000_000_000),
);
// Microseconds on purpose: the driver and to_char must drop the same digits.
const instant = fc
  .integer({ min: Date.UTC(2000, 0, 1) * 1000, max: Date.UTC(2099, 11, 31) * 1000 })
  .map((us) =>
    new Date(Math.floor(us / 1000)).toISOString().replace('Z', `${String(us % 1000).padStart(3, '0')}Z`),
  );

const orderRow = fc.record({
  status: fc.constantFrom('awaiting_address', 'pending', 'picked_up', 'in_transit', 'delivered', 'cancelled'),
  reference: nullable(text),
  customer_email: nullable(text),
  amount_cents: nullable(cents),
  pickup_address: nullable(text),
  delivery_address: nullable(text),
  delivery_postcode: nullable(fc.constantFrom('75011', '93100', '77000')),
  delivery_city: nullable(text),
  delivery_recipient: nullable(text),
  delivery_phone: nullable(fc.constantFrom('+33612345678', '+33102030405')),
  delivery_email: nullable(text),
  service: fc.constantFrom('express', 'standard', 'economy'),
  unit_type: fc.constantFrom('parcel', 'envelope', 'bulky', 'pallet'),
  quantity: fc.integer({ min: 1, max: 1000 }),
  unit_weight_grams: fc.integer({ min: 1, max: 2_000_000_000 }),
  price_excl_tax_cents: cents,
  vat_cents: cents,
  price_cents: cents,
  promised_date: fc.date({ min: new Date('2020-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
  created_at: instant,
  updated_at: instant,
  // Where the address is (migration 0046): any 6-decimal point of the region, each column maybe null
  // (the JSON says null unless all four are set), and warnings whose text JSON and SQL escape alike.
  delivery_lat: nullable(fc.integer({ min: 48_120_000, max: 49_240_000 }).map((x) => x / 1e6)),
  delivery_lng: nullable(fc.integer({ min: 1_440_000, max: 3_560_000 }).map((x) => x / 1e6)),
  delivery_location_precision: nullable(fc.constantFrom('rooftop', 'street', 'locality', 'postcode')),
  delivery_location_source: nullable(fc.constantFrom('brand', 'geocoder', 'delivery', 'postcode')),
  address_warnings: fc.array(
    fc.oneof(
      fc.record({ code: fc.constantFrom('address_uncertain', 'postcode_mismatch'), message: text }),
      // What a fix by hand may leave: a member missing or not a string, an entry not an object.
      fc.record({ code: fc.oneof(text, fc.integer()), extra: text }, { requiredKeys: [] }),
      text,
    ),
    { maxLength: 3 },
  ),
});

let counter = 0;
// A base with characters JSON and SQL could each escape their own way.
const LINKS = orderLinks('https://suivi.example.fr/é\'"x');

/** The brand's first page as PostgreSQL renders it, each beside the same order read by findByRef. */
async function renderings(repo: ReturnType<typeof ordersRepository>, brandId: string) {
  const page = await repo.listJson(brandId, { status: null, limit: 10, after: null }, LINKS);
  return Promise.all(
    page.map(async ({ id, json }) => {
      const order = await repo.findByRef(
        (JSON.parse(json) as { tracking_ref: string }).tracking_ref,
        brandId,
      );
      if (!order) throw new Error(`order ${id} rendered but not found`);
      const detail = await repo.findDetailJson(order.trackingRef, brandId, LINKS);
      return { id, sql: json, order, detail };
    }),
  );
}

describe('orders rendered by PostgreSQL (GET /orders)', () => {
  it('equal orderJson of the same rows, byte for byte, for every kind of order', async () => {
    const brand = await createBrandWithKey(t.deps);
    const repo = ordersRepository(t.pool);
    await fc.assert(
      fc.asyncProperty(fc.array(orderRow, { minLength: 1, maxLength: 5 }), async (rows) => {
        await t.pool.query('DELETE FROM orders WHERE brand_id = $1', [brand.brandId]);
        for (const r of rows) {
          await t.pool.query(
            `INSERT INTO orders (tracking_ref, brand_id, status, reference, customer_email, amount_cents, pickup_address,
                delivery_address, delivery_postcode, delivery_city, delivery_zone, delivery_recipient, delivery_phone,
                delivery_email, service, unit_type, quantity, unit_weight_grams, price_excl_tax_cents, vat_cents,
                price_cents, promised_date, created_at, updated_at, priced_at, history, delivery_lat, delivery_lng,
                delivery_location_precision, delivery_location_source, address_warnings)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'paris', $11, $12, $13, $14, $15, $16, $17, $18, $19,
                $20, $21, $22, $23, $22, $24, $25, $26, $27, $28, $29)`,
            [
              `DLV-${(++counter).toString(16).toUpperCase().padStart(10, '0')}`,
              brand.brandId,
              r.status,
              r.reference,
              r.customer_email,
              r.amount_cents,
              r.pickup_address,
              r.delivery_address,
              r.delivery_postcode,
              r.delivery_city,
              r.delivery_recipient,
              r.delivery_phone,
              r.delivery_email,
              r.service,
              r.unit_type,
              r.quantity,
              r.unit_weight_grams,
              r.price_excl_tax_cents,
              r.vat_cents,
              r.price_cents,
              r.promised_date.toISOString().slice(0, 10),
              r.created_at,
              r.updated_at,
              // A history entry whose note is any text (the detail renders the events too).
              `[${orderEventJsonText({ status: r.status as OrderStatus, at: new Date(r.updated_at), note: r.delivery_recipient })}]`,
              r.delivery_lat,
              r.delivery_lng,
              r.delivery_location_precision,
              r.delivery_location_source,
              JSON.stringify(r.address_warnings),
            ],
          );
        }
        // Rows written without their JSON (as before migration 0023) are rendered from their columns;
        // once refreshed, from the text stored with them: the same bytes either way.
        for (const stored of [false, true]) {
          if (stored) await t.deps.orders.refreshStoredJson();
          const pairs = await renderings(repo, brand.brandId);
          expect(pairs).toHaveLength(rows.length);
          for (const { id, sql, order, detail } of pairs) {
            expect(id).toBe(order.id);
            expect(JSON.parse(sql)).toStrictEqual(orderJson(order, LINKS));
            expect(sql).toBe(JSON.stringify(orderJson(order, LINKS)));
            expect(detail).toBe(JSON.stringify(orderDetailJson(order, LINKS)));
          }
          const { rows: kept } = await t.pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM orders WHERE brand_id = $1 AND json_rest IS NOT NULL',
            [brand.brandId],
          );
          expect(kept[0]!.n).toBe(stored ? rows.length : 0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("answers an order's creation with its detail, byte for byte, without rendering it twice", async () => {
    const brand = await createBrandWithKey(t.deps);
    const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          reference: nullable(text.filter((r) => r.trim() !== '')),
          delivery_recipient: nullable(text),
          amount_eur: nullable(fc.integer({ min: 0, max: 10_000_000 }).map((c) => c / 100)),
          delivery_address: nullable(
            fc.constantFrom('12 rue Oberkampf 75011 Paris', '3 rue de la Paix 93100 Montreuil'),
          ),
          // The brand's point of the delivery (SPEC §11), given with an address only.
          point: nullable(fc.constantFrom([48.858828, 2.379506], [48.86415, 2.44322], [48.9, 2.3])),
        }),
        async ({ point, ...input }) => {
          const prepared = await t.deps.orders.prepare(context, {
            customer_email: 'a@example.com',
            ...input,
            ...(point && input.delivery_address ? { delivery_lat: point[0], delivery_lng: point[1] } : {}),
          });
          const { order, json } = await t.deps.orders.insertRendered(prepared);
          const read = await t.deps.orders.get(brand.brandId, order.trackingRef);
          expect(json).toBe(JSON.stringify(t.deps.orders.detailJson(read)));
          expect(json).toBe(JSON.stringify(t.deps.orders.detailJson(order)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('renders the orders created through the API the same way too', async () => {
    const brand = await createBrandWithKey(t.deps);
    const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
    await t.deps.orders.create(context, {
      customer_email: 'Ana@Example.com',
      delivery_address: '12, rue Oberkampf 75011 PARIS CEDEX',
      amount_eur: 49.99,
      reference: 'Cde « 42 »',
      delivery_phone: '06 12 34 56 78',
      unit_weight: '2.5kg',
    });
    const later = await t.deps.orders.create(context, { customer_email: 'no-address@example.com' });
    const expectSame = async () => {
      const pairs = await renderings(ordersRepository(t.pool), brand.brandId);
      expect(pairs).toHaveLength(2);
      for (const { sql, order, detail } of pairs) {
        expect(sql).toBe(JSON.stringify(orderJson(order, LINKS)));
        // GET /orders/{ref}: the detail with its events, rendered by PostgreSQL too.
        expect(detail).toBe(JSON.stringify(orderDetailJson(order, LINKS)));
      }
    };
    await expectSame();
    // Each kind of write stores the JSON again: completing the address (which prices the order),
    // editing details, moving it on.
    await t.deps.orders.update(brand.brandId, later.trackingRef, {
      delivery_address: '3 rue de la Paix 93100 Montreuil',
    });
    await t.deps.orders.update(brand.brandId, later.trackingRef, {
      reference: 'R \\ "2"',
      delivery_phone: null,
    });
    // The brand's point, then back to where the address says.
    await t.deps.orders.update(brand.brandId, later.trackingRef, {
      delivery_lat: 48.86415,
      delivery_lng: 2.44322,
    });
    await expectSame();
    await t.deps.orders.update(brand.brandId, later.trackingRef, { delivery_lat: null, delivery_lng: null });
    await t.deps.orders.setStatus(later.trackingRef, 'picked_up', 'Scanned « at the hub »', testOperator);
    await expectSame();
    // A fix by hand, which does not store the JSON: the stored text is marked stale, not served.
    await t.pool.query("UPDATE orders SET reference = 'By hand' WHERE tracking_ref = $1", [
      later.trackingRef,
    ]);
    await expectSame();
    const { rows } = await t.pool.query<{ priced: boolean; events: number }>(
      // Billable from the change that priced it (the address completed: its second event).
      "SELECT priced_at = (history->1->>'at')::timestamptz AS priced, json_array_length(history) AS events FROM orders WHERE tracking_ref = $1",
      [later.trackingRef],
    );
    expect(rows[0]).toEqual({ priced: true, events: 6 });
  });

  it('are rewritten by refresh_order_json: every row once per rendering version, then rows marked stale', async () => {
    const brand = await createBrandWithKey(t.deps);
    const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
    const order = await t.deps.orders.create(context, {
      customer_email: 'refresh@example.com',
      delivery_address: '12 rue Oberkampf 75011 Paris',
    });
    const stored = async () =>
      (
        await t.pool.query<{ json_rest: string; json_version: number | null }>(
          'SELECT json_rest, json_version FROM orders WHERE id = $1',
          [order.id],
        )
      ).rows[0]!;
    const rendered = await stored();
    // As an older release would have stored it (another version, other members).
    const olderRelease = () =>
      t.pool.query('UPDATE orders SET json_rest = $2, json_version = 12345 WHERE id = $1', [
        order.id,
        '"status":"from an older release"',
      ]);
    await olderRelease();
    await t.pool.query('DELETE FROM order_json_passes');
    // Read meanwhile: rendered from the columns, not from the older text.
    const [pair] = await renderings(ordersRepository(t.pool), brand.brandId);
    expect(pair!.sql).toBe(JSON.stringify(orderJson(pair!.order, LINKS)));

    expect(await t.deps.orders.refreshStoredJson()).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual(rendered);
    // The pass is recorded: the next runs look only at the rows marked stale (an index of them).
    await olderRelease();
    expect(await t.deps.orders.refreshStoredJson()).toBe(0);
    await t.pool.query("UPDATE orders SET reference = 'fixed by hand' WHERE id = $1", [order.id]);
    expect((await stored()).json_version).toBeNull();
    expect(await t.deps.orders.refreshStoredJson()).toBe(1);
    expect((await stored()).json_rest).toContain('"reference":"fixed by hand"');
  });
});
