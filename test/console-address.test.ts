import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBoardRepository } from '../src/db/repositories/console-board-repository.ts';
import { pickupKeyFor } from '../src/domain/pickups/pickup-day.ts';
import { csrfOf } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';
import { type FakeBan, startFakeBan } from './support/fake-ban.ts';
import { subscribeToWebhooks } from './support/orders.ts';

/**
 * The console's Exceptions resolved (issue 39): a flagged address corrected by an operator through
 * the brand's own correction (PATCH /orders/{ref}), and a parcel missing at its pickup found or
 * cancelled as not handed over; each audited, with the brand told as it would be otherwise. The
 * fake Base Adresse Nationale answers from real addresses (test/fixtures/addresses).
 */
let t: TestApp;
let ban: FakeBan;
// The console's sessions live at the real time; a pickup's closing moves the clock for a moment.
let clock = new Date();
const now = () => clock;
let admin: ConsoleOperator;
let dispatcher: ConsoleOperator;
let support: ConsoleOperator;
let finance: ConsoleOperator;
let brand: TestBrand;
const PICKUP = '1 rue de Rivoli 75001 Paris';
const ARBRE_SEC = "19 Rue de l'Arbre Sec, 75001 Paris";

beforeAll(async () => {
  ban = await startFakeBan();
  t = await buildTestApp({
    clock: now,
    config: { geocoder: { url: ban.url, timeoutMs: 5000, ratePerSecond: 40, budgetMs: 2000 } },
  });
  admin = await consoleOperator(t.app, t.deps, 'admin', now, '10.96.0.1');
  dispatcher = await consoleOperator(t.app, t.deps, 'dispatcher', now, '10.96.0.2');
  support = await consoleOperator(t.app, t.deps, 'support', now, '10.96.0.3');
  finance = await consoleOperator(t.app, t.deps, 'finance', now, '10.96.0.4');
  brand = await createBrandWithKey(t.deps, { name: `Maison Adresse ${randomBytes(3).toString('hex')}` });
  await subscribeToWebhooks(t.pool, brand.brandId);
});
afterAll(async () => {
  await t?.close();
  await ban?.close();
});

const create = (address: string) =>
  t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: PICKUP },
    { customer_email: 'jane@example.com', delivery_recipient: 'Jane Doe', delivery_address: address },
  );
const orderRow = async (ref: string) =>
  (
    await t.pool.query(
      `SELECT status, delivery_address, delivery_postcode, address_warnings, price_cents
         FROM orders WHERE tracking_ref = $1`,
      [ref],
    )
  ).rows[0];
const auditOf = async (ref: string, action: string) =>
  (
    await t.pool.query(
      'SELECT actor_id, object_id, order_refs, changes FROM audit_events WHERE $1 = ANY (order_refs) AND action = $2 ORDER BY id',
      [ref, action],
    )
  ).rows;
const flaggedEvents = async (ref: string) =>
  (
    await t.pool.query<{ data: { order: { address_warnings: { code: string }[] } } }>(
      `SELECT data FROM outbox_events WHERE brand_id = $1 AND type = 'order.address_flagged'
          AND data->'order'->>'tracking_ref' = $2 ORDER BY created_at`,
      [brand.brandId, ref],
    )
  ).rows.map((r) => r.data.order.address_warnings.map((w) => w.code));
const correct = (who: ConsoleOperator, ref: string, csrf: string | undefined, address: string) =>
  who.b.post(`/console/orders/${ref}/address`, {
    ...(csrf ? { _csrf: csrf } : {}),
    delivery_address: address,
  });

describe('a flagged address', () => {
  it('is listed with its correction, which places it again through the brand’s own path, audited', async () => {
    const order = await create('19 Rue Imaginaire 75001 Paris');
    expect(order.addressWarnings.map((w) => w.code)).toEqual(['address_uncertain']);
    expect(await flaggedEvents(order.trackingRef)).toEqual([['address_uncertain']]);
    const list = await dispatcher.b.get('/console/exceptions');
    expect(list.body).toContain(`/console/orders/${order.trackingRef}#address`);
    const page = await dispatcher.b.get(`/console/orders/${order.trackingRef}`);
    expect(page.body).toContain(`action="/console/orders/${order.trackingRef}/address"`);
    expect(page.body).toContain('address_uncertain');

    const done = await correct(dispatcher, order.trackingRef, csrfOf(page.body), ARBRE_SEC);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/console/orders/${order.trackingRef}?done=address`);
    expect((await dispatcher.b.get(done.location!)).body).toContain('The address was corrected.');
    const row = await orderRow(order.trackingRef);
    expect(row).toMatchObject({ status: 'pending', delivery_address: ARBRE_SEC, address_warnings: [] });
    // The order's history says what the brand's own PATCH says.
    const history = await t.deps.orders.get(brand.brandId, order.trackingRef);
    expect(history.events.at(-1)?.note).toBe('Updated delivery_address');
    // The address itself is a person's data: "changed"; its warnings before and after.
    expect(await auditOf(order.trackingRef, 'order.address_corrected')).toEqual([
      {
        actor_id: dispatcher.id,
        object_id: order.trackingRef,
        order_refs: [order.trackingRef],
        changes: {
          delivery_address: 'changed',
          address_warnings: { before: ['address_uncertain'], after: [] },
        },
      },
    ]);
    // Cleared: off the list.
    expect((await dispatcher.b.get('/console/exceptions')).body).not.toContain(
      `/console/orders/${order.trackingRef}#address`,
    );
  });

  it('corrected to an address flagged again: the brand hears `order.address_flagged` as after its own PATCH', async () => {
    const order = await create('21 Rue Imaginaire 75001 Paris');
    const page = await support.b.get(`/console/orders/${order.trackingRef}`);
    const done = await correct(
      support,
      order.trackingRef,
      csrfOf(page.body),
      '12 Place Léon Blum, 75012 Paris',
    );
    expect(done.status).toBe(303);
    expect((await support.b.get(done.location!)).body).toContain('still flagged: postcode_mismatch');
    expect(await flaggedEvents(order.trackingRef)).toEqual([['address_uncertain'], ['postcode_mismatch']]);
    const [audit] = await auditOf(order.trackingRef, 'order.address_corrected');
    expect(audit.actor_id).toBe(support.id);
    expect(audit.changes).toMatchObject({
      delivery_postcode: { before: '75001', after: '75012' },
      address_warnings: { before: ['address_uncertain'], after: ['postcode_mismatch'] },
    });
  });

  it('refuses an address in another département with its reason on the form; nothing written', async () => {
    const order = await create('23 Rue Imaginaire 75001 Paris');
    const before = await orderRow(order.trackingRef);
    const page = await admin.b.get(`/console/orders/${order.trackingRef}`);
    const typed = "1 Rue de la Légion d'Honneur 75011";
    const refused = await correct(admin, order.trackingRef, csrfOf(page.body), typed);
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('Saint-Denis');
    // What was typed stays in the field, to be corrected.
    expect(refused.body).toContain('value="1 Rue de la Légion d&#39;Honneur 75011"');
    const empty = await correct(admin, order.trackingRef, csrfOf(page.body), '  ');
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('delivery_address');
    expect(await orderRow(order.trackingRef)).toEqual(before);
    expect(await auditOf(order.trackingRef, 'order.address_corrected')).toEqual([]);
  });

  it('is refused without CSRF (403), to finance (403), and once the parcel is collected (the PATCH rule); nothing written', async () => {
    const order = await create('25 Rue Imaginaire 75001 Paris');
    const before = await orderRow(order.trackingRef);
    expect((await correct(dispatcher, order.trackingRef, undefined, ARBRE_SEC)).status).toBe(403);
    expect((await correct(dispatcher, order.trackingRef, 'forged', ARBRE_SEC)).status).toBe(403);
    const own = await finance.b.get(`/console/orders/${order.trackingRef}`);
    expect(own.body).not.toContain('/address"');
    expect((await correct(finance, order.trackingRef, csrfOf(own.body), ARBRE_SEC)).status).toBe(403);
    expect((await finance.b.get('/console/exceptions')).status).toBe(403);
    expect(await orderRow(order.trackingRef)).toEqual(before);

    await t.deps.orders.setStatus(order.trackingRef, 'picked_up', null, testOperator);
    const page = await dispatcher.b.get(`/console/orders/${order.trackingRef}`);
    expect(page.body).not.toContain(`action="/console/orders/${order.trackingRef}/address"`);
    expect(page.body).toContain('only while the order is pending');
    const late = await correct(dispatcher, order.trackingRef, csrfOf(page.body), ARBRE_SEC);
    expect(late.status).toBe(422);
    expect(late.body).toContain('can only be edited while awaiting_address or pending');
    expect((await orderRow(order.trackingRef)).delivery_address).toBe(before.delivery_address);
    expect(await auditOf(order.trackingRef, 'order.address_corrected')).toEqual([]);
  });
});

describe('parcels missing at a pickup', () => {
  it('are listed while still missing, each found (collected) or cancelled as not handed over, audited', async () => {
    const own = await createBrandWithKey(t.deps, { name: `Maison Manque ${randomBytes(3).toString('hex')}` });
    const make = () =>
      t.deps.orders.create(
        { id: own.brandId, defaultPickupAddress: PICKUP },
        { customer_email: 'jane@example.com', delivery_address: ARBRE_SEC },
      );
    const [found, lost, scanned] = [await make(), await make(), await make()];
    // The pickup is closed from noon (Paris) on its day, the courier having scanned one parcel.
    const { id, date } = pickupKeyFor(own.brandId, PICKUP, clock);
    const real = clock;
    clock = new Date(`${date}T15:00:00Z`);
    try {
      await t.deps.pickups.close(id, [scanned.trackingRef], testOperator);
    } finally {
      clock = real;
    }
    // The Today board counts them as the list does: missing until found or cancelled.
    const board = () => consoleBoardRepository(t.pool).board(date, new Date(`${date}T15:00:00Z`));
    const before = await board();
    expect(before.pickups.find((p) => p.id === id)?.missing).toBe(2);
    const page = await dispatcher.b.get('/console/exceptions');
    for (const ref of [found.trackingRef, lost.trackingRef]) {
      expect(page.body).toContain(`/console/orders/${ref}"`);
    }
    expect(page.body).toContain('Found: collected');
    expect(page.body).toContain('Cancel: not handed over');
    // Support reads the list, without the actions (orders:write).
    expect((await support.b.get('/console/exceptions')).body).not.toContain('name="why"');

    const status = (ref: string, why: string, csrf = csrfOf(page.body)) =>
      dispatcher.b.post(`/console/orders/${ref}/status`, { _csrf: csrf, why, back: 'exceptions' });
    expect((await status(found.trackingRef, 'found', 'forged')).status).toBe(403);
    expect((await orderRow(found.trackingRef)).status).toBe('pending');

    const wasFound = await status(found.trackingRef, 'found');
    expect(wasFound.status).toBe(303);
    expect(wasFound.location).toBe('/console/exceptions?done=found');
    const notHanded = await status(lost.trackingRef, 'not_handed_over');
    expect(notHanded.location).toBe('/console/exceptions?done=notHandedOver');
    expect((await orderRow(found.trackingRef)).status).toBe('picked_up');
    expect((await orderRow(lost.trackingRef)).status).toBe('cancelled');
    expect((await t.deps.orders.get(own.brandId, lost.trackingRef)).events.at(-1)?.note).toBe(
      'Not handed over at its pickup',
    );
    expect(await auditOf(found.trackingRef, 'order.status_changed')).toContainEqual({
      actor_id: dispatcher.id,
      object_id: found.trackingRef,
      order_refs: [found.trackingRef],
      changes: { status: { before: 'pending', after: 'picked_up' } },
    });
    // Resolved: off the list, and off the board's counts.
    const resolved = await board();
    expect(resolved.pickups.find((p) => p.id === id)?.missing).toBe(0);
    expect(resolved.counters.missingParcels).toBe(before.counters.missingParcels - 2);
    const after = await dispatcher.b.get(wasFound.location!);
    expect(after.body).toContain('recorded as collected');
    expect(after.body).not.toContain(`/console/orders/${found.trackingRef}"`);
    expect(after.body).not.toContain(`/console/orders/${lost.trackingRef}"`);
  });
});
