import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoicesRepository } from '../src/db/repositories/invoices-repository.ts';
import { storesOn } from '../src/db/stores.ts';
import { createDeps } from '../src/deps.ts';
import { AlreadyWritten } from '../src/domain/orders/ports.ts';
import { pickupIdFor } from '../src/domain/pickups/pickup-day.ts';
import type { ScanActor, ScanInput } from '../src/domain/scans/ports.ts';
import { createServiceMetrics } from '../src/infra/metrics/service-metrics.ts';
import { Browser, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import {
  buildTestApp,
  call,
  createBrandWithKey,
  TEST_PICKUP_ADDRESS,
  type TestApp,
  type TestBrand,
} from './support/app.ts';
import { courierAuthor, testOperator } from './support/audit.ts';
import { createOrder, subscribeToWebhooks, VALID_ORDER } from './support/orders.ts';

const OPS = { authorization: 'Bearer ops-secret-token-0123456789abcdef' };
// Tuesday 24 November 2026, 10:00 in Paris (UTC+1): before the pickup cut-off.
let now = new Date('2026-11-24T09:00:00Z');
const setNow = (iso: string) => {
  now = new Date(iso);
};
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: 'ops-secret-token-0123456789abcdef' }, clock: () => now });
});
afterAll(() => t.close());

const OPERATOR: ScanActor = { courierId: null, locale: 'en', by: testOperator };

async function ordersOf(brand: TestBrand, n: number, body: object = VALID_ORDER): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < n; i++) {
    const created = await createOrder(t.app, brand, { ...body, reference: `CMD-${i + 1}` });
    expect(created.statusCode).toBe(200);
    refs.push(created.data.trackingRef);
  }
  return refs;
}

const scan = (
  context: string,
  code: string,
  happened_at: string,
  extra: Partial<ScanInput> = {},
): ScanInput => ({
  id: randomUUID(),
  context,
  code,
  happened_at,
  ...extra,
});

const statusOf = async (ref: string): Promise<string> =>
  (await t.pool.query('SELECT status FROM orders WHERE tracking_ref = $1', [ref])).rows[0]?.status;
const historyOf = async (ref: string): Promise<{ status: string; at: string; note: string | null }[]> =>
  (await t.pool.query('SELECT history FROM orders WHERE tracking_ref = $1', [ref])).rows[0]?.history;
const attemptsOf = async (ref: string) =>
  (
    await t.pool.query(
      `SELECT a.outcome, a.reason, a.happened_at, a.received_by, a.latitude::float8 AS latitude,
          a.longitude::float8 AS longitude, a.photo_key, a.signature_key, a.courier_id, a.scan_id
        FROM delivery_attempts a JOIN orders o ON o.id = a.order_id WHERE o.tracking_ref = $1 ORDER BY a.happened_at`,
      [ref],
    )
  ).rows;
const scanRows = async (ids: string[]) =>
  (await t.pool.query('SELECT id, result, problem FROM scans WHERE id = ANY($1::uuid[])', [ids])).rows;

/** Applied pickup, hub and loading scans: the order is out for delivery at `day` 08:00–10:00 Paris. */
async function outForDelivery(ref: string, day = '2026-11-25'): Promise<void> {
  const results = await t.deps.scans.apply(OPERATOR, [
    scan('pickup', ref, `${day}T07:00:00+01:00`),
    scan('hub', ref, `${day}T08:00:00+01:00`),
    scan('loading', ref, `${day}T09:00:00+01:00`),
  ]);
  expect(results.map((r) => r.result)).toEqual(['applied', 'applied', 'applied']);
}

async function courier(name: string): Promise<string> {
  const id = `cou_${randomBytes(8).toString('hex')}`;
  await t.pool.query(
    `INSERT INTO couriers (id, email, name, password_hash) VALUES ($1, $2, $3, 'not-a-hash')`,
    [id, `${id}@couriers.example.com`, name],
  );
  return id;
}

/** A round of `date` for `courierId` with these stops (orders by tracking ref, pickups by id). */
async function round(date: string, courierId: string | null, stops: { order?: string; pickup?: string }[]) {
  const id = `rnd_${randomBytes(8).toString('hex')}`;
  await t.pool.query(`INSERT INTO rounds (id, round_date, name, courier_id) VALUES ($1, $2, $1, $3)`, [
    id,
    date,
    courierId,
  ]);
  for (const [i, stop] of stops.entries()) {
    await t.pool.query(
      `INSERT INTO round_stops (round_id, round_date, position, kind, pickup_id, order_id)
        VALUES ($1, $2, $3, $4, $5, (SELECT id FROM orders WHERE tracking_ref = $6))`,
      [id, date, i + 1, stop.pickup ? 'pickup' : 'delivery', stop.pickup ?? null, stop.order ?? null],
    );
  }
  return id;
}

describe('scans', () => {
  it('each context moves the order, with the phone’s time in its history', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [a, b] = await ordersOf(brand, 2);
    setNow('2026-11-25T17:00:00Z');
    const results = await t.deps.scans.apply(OPERATOR, [
      scan('pickup', a!, '2026-11-24T15:10:00+01:00'),
      scan('hub', a!, '2026-11-24T19:00:00+01:00'),
      scan('loading', a!, '2026-11-25T08:30:00+01:00'),
      scan('door', a!, '2026-11-25T11:45:00+01:00', { outcome: 'delivered', received_by: 'Jane' }),
      scan('pickup', b!, '2026-11-24T15:11:00+01:00'),
    ]);
    expect(results.map((r) => [r.result, r.tracking_ref, r.status, r.problem])).toEqual([
      ['applied', a, 'picked_up', null],
      ['applied', a, 'in_transit', null],
      ['applied', a, 'out_for_delivery', null],
      ['applied', a, 'delivered', null],
      ['applied', b, 'picked_up', null],
    ]);
    const history = await historyOf(a!);
    expect(history.slice(1).map((e) => [e.status, new Date(e.at).toISOString(), e.note])).toEqual([
      ['picked_up', '2026-11-24T14:10:00.000Z', 'Scanned at the pickup'],
      ['in_transit', '2026-11-24T18:00:00.000Z', 'Scanned at the hub'],
      ['out_for_delivery', '2026-11-25T07:30:00.000Z', 'Loaded for delivery'],
      ['delivered', '2026-11-25T10:45:00.000Z', 'Scanned at the door'],
    ]);
    const [attempt] = await attemptsOf(a!);
    expect(attempt).toMatchObject({
      outcome: 'delivered',
      reason: null,
      received_by: 'Jane',
      happened_at: new Date('2026-11-25T10:45:00Z'),
      scan_id: results[3]!.id,
    });
  });

  it('a scan sent again answers the same and changes nothing (one history event)', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    setNow('2026-11-24T16:00:00Z');
    const pickup = scan('pickup', ref!, '2026-11-24T15:30:00+01:00');
    const first = await t.deps.scans.apply(OPERATOR, [pickup]);
    const again = await t.deps.scans.apply(OPERATOR, [pickup, pickup]);
    expect(again).toEqual([first[0], first[0]]);
    expect((await historyOf(ref!)).filter((e) => e.status === 'picked_up')).toHaveLength(1);
    // A refused scan sent again: the same refusal, even once its reason is gone.
    const unknown = scan('hub', 'DLV-0000000000', '2026-11-24T16:00:00+01:00');
    const refused = await t.deps.scans.apply(OPERATOR, [unknown]);
    expect(refused[0]!.problem!.code).toBe('unknown_code');
    expect(await t.deps.scans.apply(OPERATOR, [unknown])).toEqual(refused);
    // The same id sent twice at once is applied once.
    const hub = scan('hub', ref!, '2026-11-24T17:00:00+01:00');
    const both = await Promise.all([
      t.deps.scans.apply(OPERATOR, [hub]),
      t.deps.scans.apply(OPERATOR, [hub]),
    ]);
    expect(both[0]).toEqual(both[1]);
    expect((await historyOf(ref!)).filter((e) => e.status === 'in_transit')).toHaveLength(1);
  });

  it('a batch out of order is applied in the order the scans happened; answers in the order given', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    setNow('2026-11-25T12:00:00Z');
    const batch = [
      scan('loading', ref!, '2026-11-25T08:00:00+01:00'),
      scan('pickup', ref!, '2026-11-24T15:00:00+01:00'),
      // Same instant, another offset: earlier than the loading.
      scan('hub', ref!, '2026-11-24T20:00:00+02:00'),
    ];
    const results = await t.deps.scans.apply(OPERATOR, batch);
    expect(results.map((r) => [r.id, r.status])).toEqual([
      [batch[0]!.id, 'out_for_delivery'],
      [batch[1]!.id, 'picked_up'],
      [batch[2]!.id, 'in_transit'],
    ]);
    expect((await historyOf(ref!)).map((e) => e.status)).toEqual([
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
    ]);
  });

  it('the time is clamped: never after the server’s clock, never before the order’s last event', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    setNow('2026-11-24T15:00:00Z');
    // A phone an hour fast, then one whose clock is behind the order's creation.
    await t.deps.scans.apply(OPERATOR, [scan('pickup', ref!, '2026-11-24T17:00:00+01:00')]);
    setNow('2026-11-24T18:00:00Z');
    await t.deps.scans.apply(OPERATOR, [scan('hub', ref!, '2026-11-24T10:00:00+01:00')]);
    expect((await historyOf(ref!)).slice(1).map((e) => new Date(e.at).toISOString())).toEqual([
      '2026-11-24T15:00:00.000Z',
      '2026-11-24T15:00:00.000Z',
    ]);
  });

  it('each refusal says why and changes nothing but its own scan row', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    setNow('2026-11-24T09:00:00Z');
    const [pending, delivered, cancelled, elsewhere] = await ordersOf(brand, 4);
    await outForDelivery(delivered!, '2026-11-24');
    await outForDelivery(elsewhere!, '2026-11-24');
    setNow('2026-11-24T16:00:00Z');
    await t.deps.scans.apply(OPERATOR, [
      scan('door', delivered!, '2026-11-24T16:30:00+01:00', { outcome: 'delivered', received_by: 'Jo' }),
    ]);
    await call(t.app, {
      method: 'POST',
      url: `/public/v1/orders/${cancelled}/cancel`,
      headers: brand.headers,
    });
    const me = await courier('Ana');
    const other = await courier('Bob');
    await round('2026-11-24', other, [{ order: elsewhere }]);
    const courierActor: ScanActor = { courierId: me, locale: 'fr', by: courierAuthor(me) };
    // This brand's events only: the other test files write theirs to the same database meanwhile.
    const outboxOf = async () =>
      (
        await t.pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE brand_id = $1', [
          brand.brandId,
        ])
      ).rows[0].n as number;
    const outboxBefore = await outboxOf();
    const histories = await Promise.all([pending, delivered, cancelled, elsewhere].map((r) => historyOf(r!)));

    const batch = [
      scan('hub', 'DLV-0000000000', '2026-11-24T16:40:00+01:00'),
      scan('loading', 'not a parcel|X|1/1', '2026-11-24T16:40:00+01:00'),
      scan('door', elsewhere!, '2026-11-24T16:41:00+01:00', { outcome: 'failed_attempt', reason: 'absent' }),
      scan('door', delivered!, '2026-11-24T16:42:00+01:00', { outcome: 'delivered', received_by: 'Jo' }),
      scan('pickup', cancelled!, '2026-11-24T16:43:00+01:00'),
      scan('loading', pending!, '2026-11-24T16:44:00+01:00'),
      scan('door', elsewhere!, '2026-11-24T16:45:00+01:00', { outcome: 'delivered' }),
      scan('hub', pending!, '2026-11-10T10:00:00+01:00'),
    ];
    const results = await t.deps.scans.apply(courierActor, batch);
    expect(results.map((r) => [r.result, r.problem?.code, r.tracking_ref, r.status])).toEqual([
      ['refused', 'unknown_code', null, null],
      ['refused', 'unknown_code', null, null],
      ['refused', 'wrong_round', elsewhere, 'out_for_delivery'],
      ['refused', 'already_delivered', delivered, 'delivered'],
      ['refused', 'order_cancelled', cancelled, 'cancelled'],
      ['refused', 'invalid_transition', pending, 'pending'],
      ['refused', 'wrong_round', elsewhere, 'out_for_delivery'],
      ['refused', 'too_old', pending, 'pending'],
    ]);
    // In the courier's language.
    expect(results[4]!.problem!.message).toBe(
      `Le colis ${cancelled} a été annulé par l’expéditeur : ne pas le livrer.`,
    );
    expect(await Promise.all([pending, delivered, cancelled, elsewhere].map((r) => historyOf(r!)))).toEqual(
      histories,
    );
    expect(await outboxOf()).toBe(outboxBefore);
    expect(await attemptsOf(elsewhere!)).toEqual([]);
    expect((await scanRows(batch.map((s) => s.id))).every((r) => r.result === 'refused')).toBe(true);

    // The operator's tools (no courier) and the courier of that round are not refused wrong_round;
    // a delivery with nothing to prove it is refused proof_required.
    const proofless = await t.deps.scans.apply(OPERATOR, [
      scan('door', elsewhere!, '2026-11-24T16:50:00+01:00', { outcome: 'delivered' }),
    ]);
    expect(proofless[0]!.problem!.code).toBe('proof_required');
    const theirs = await t.deps.scans.apply({ courierId: other, locale: 'en', by: courierAuthor(other) }, [
      scan('door', elsewhere!, '2026-11-24T16:51:00+01:00', {
        outcome: 'failed_attempt',
        reason: 'no_access',
      }),
    ]);
    expect(theirs[0]!.status).toBe('failed_attempt');
    expect(
      (await t.pool.query('SELECT round_id FROM scans WHERE id = $1', [theirs[0]!.id])).rows[0].round_id,
    ).toMatch(/^rnd_/);
  });

  it('a back-dated scan cannot take a parcel on another courier’s round today (issue 36, item 2)', async () => {
    const brand = await createBrandWithKey(t.deps);
    // Wednesday 25 November, 10:00 in Paris: the parcel is on Bob's round today.
    setNow('2026-11-25T09:00:00Z');
    const [theirs, mineYesterday] = await ordersOf(brand, 2);
    const ana = await courier('Ana');
    const bob = await courier('Bob');
    await round('2026-11-25', bob, [{ order: theirs }]);
    const anaRound = await round('2026-11-24', ana, [{ order: mineYesterday }]);
    const anaActor: ScanActor = { courierId: ana, locale: 'en', by: courierAuthor(ana) };
    const before = await historyOf(theirs!);
    const street = (ref: string, at: string) => [
      scan('pickup', ref, at),
      scan('hub', ref, at),
      scan('loading', ref, at),
      scan('door', ref, at, { outcome: 'delivered', received_by: 'Ana' }),
    ];

    // Dated now: refused, as before.
    const now = await t.deps.scans.apply(anaActor, street(theirs!, '2026-11-25T10:00:00+01:00'));
    expect(now.map((r) => r.problem?.code)).toEqual([
      'wrong_round',
      'invalid_transition',
      'wrong_round',
      'wrong_round',
    ]);
    // Dated 26 hours back (a day without a round for it): refused the same, nothing moves.
    const backDated = await t.deps.scans.apply(anaActor, street(theirs!, '2026-11-24T08:00:00+01:00'));
    expect(backDated.map((r) => [r.result, r.problem?.code])).toEqual([
      ['refused', 'wrong_round'],
      ['refused', 'invalid_transition'],
      ['refused', 'wrong_round'],
      ['refused', 'wrong_round'],
    ]);
    expect(await statusOf(theirs!)).toBe('pending');
    expect(await historyOf(theirs!)).toEqual(before);
    expect(await attemptsOf(theirs!)).toEqual([]);

    // Bob's own scans, back-dated or not, are his round's.
    const bobs = await t.deps.scans.apply({ courierId: bob, locale: 'en', by: courierAuthor(bob) }, [
      scan('pickup', theirs!, '2026-11-24T08:00:00+01:00'),
    ]);
    expect(bobs[0]).toMatchObject({ result: 'applied', status: 'picked_up' });
    // Ana's parcel of yesterday's round (on no round today) still takes her queue of yesterday,
    // recorded on that round.
    const late = await t.deps.scans.apply(anaActor, [
      scan('pickup', mineYesterday!, '2026-11-24T18:00:00+01:00'),
    ]);
    expect(late[0]).toMatchObject({ result: 'applied', status: 'picked_up' });
    expect(
      (await t.pool.query('SELECT round_id FROM scans WHERE id = $1', [late[0]!.id])).rows[0].round_id,
    ).toBe(anaRound);
  });

  it('a malformed request names the field and writes nothing', async () => {
    const good = scan('hub', 'DLV-0000000000', '2026-11-24T10:00:00+01:00');
    const cases: [unknown, string][] = [
      [[], 'scans'],
      [Array(501).fill(good), 'scans'],
      [[good, { ...good, id: 'x' }], 'scans[1].id'],
      [[{ ...good, happened_at: '2026-11-24T10:00:00' }], 'scans[0].happened_at'],
      [[{ ...good, happened_at: 'yesterday' }], 'scans[0].happened_at'],
      [[{ ...good, context: 'van' }], 'scans[0].context'],
      [[{ ...good, context: 'door' }], 'scans[0].outcome'],
      [[{ ...good, context: 'door', outcome: 'failed_attempt' }], 'scans[0].reason'],
      [[{ ...good, reason: 'absent' }], 'scans[0].reason'],
      [[{ ...good, location: { latitude: 91, longitude: 2 } }], 'scans[0].location.latitude'],
      [[{ ...good, context: 'door', outcome: 'delivered', received_by: '' }], 'scans[0].received_by'],
    ];
    for (const [scans, field] of cases) {
      const err = await t.deps.scans.apply(OPERATOR, scans).catch((e) => e);
      expect(err.code, field).toBe('invalid_request');
      expect(err.details[0].field).toBe(field);
    }
    expect(await scanRows([good.id])).toEqual([]);
  });

  it('a status the server refuses (cancelled while the phone was offline) comes back with a message', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    // Scanned at 15:00 offline; the brand cancels at 15:30; the scan arrives at 16:00.
    setNow('2026-11-24T14:30:00Z');
    await call(t.app, { method: 'POST', url: `/public/v1/orders/${ref}/cancel`, headers: brand.headers });
    setNow('2026-11-24T15:00:00Z');
    const [result] = await t.deps.scans.apply(OPERATOR, [scan('pickup', ref!, '2026-11-24T14:00:00+01:00')]);
    expect(result).toMatchObject({
      result: 'refused',
      status: 'cancelled',
      problem: { code: 'order_cancelled' },
    });
    expect(result!.problem!.message).toBe(`Parcel ${ref} was cancelled by the sender: do not deliver it.`);
  });

  it('the third failed attempt returns the parcel; each attempt is a row with its facts', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    await outForDelivery(ref!, '2026-11-25');
    setNow('2026-11-28T12:00:00Z');
    const fail = (day: string, reason: string) =>
      scan('door', ref!, `${day}T11:00:00+01:00`, {
        outcome: 'failed_attempt',
        reason,
        location: { latitude: 48.865432, longitude: 2.378901 },
      });
    const results = await t.deps.scans.apply(OPERATOR, [
      fail('2026-11-25', 'absent'),
      scan('loading', ref!, '2026-11-26T08:00:00+01:00'),
      fail('2026-11-26', 'no_access'),
      scan('loading', ref!, '2026-11-27T08:00:00+01:00'),
      fail('2026-11-27', 'refused'),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'failed_attempt',
      'out_for_delivery',
      'failed_attempt',
      'out_for_delivery',
      'returned',
    ]);
    expect((await historyOf(ref!)).slice(-2).map((e) => [e.status, e.at])).toEqual([
      ['failed_attempt', '2026-11-27T10:00:00.000Z'],
      ['returned', '2026-11-27T10:00:00.000Z'],
    ]);
    const attempts = await attemptsOf(ref!);
    expect(attempts.map((a) => [a.outcome, a.reason, a.latitude, a.longitude])).toEqual([
      ['failed_attempt', 'absent', 48.865, 2.379],
      ['failed_attempt', 'no_access', 48.865, 2.379],
      ['failed_attempt', 'refused', 48.865, 2.379],
    ]);
    const events = await t.pool.query(
      `SELECT type, data FROM outbox_events WHERE brand_id = $1 AND type <> 'order.created' ORDER BY created_at, id`,
      [brand.brandId],
    );
    expect(events.rows.filter((e) => e.type === 'order.delivery_failed')).toHaveLength(3);
    const changes = events.rows.filter((e) => e.type === 'order.status_changed');
    expect(changes.map((e) => `${e.data.previous_status}>${e.data.order.status}`)).toContain(
      'failed_attempt>returned',
    );
    // A returned parcel is billed as a delivery (SPEC §10): it is on its month's invoice lines.
    const billed = await invoicesRepository(t.pool).billableLines(
      brand.brandId,
      new Date('2026-11-01T00:00:00+01:00'),
      new Date('2026-12-01T00:00:00+01:00'),
    );
    expect(billed.map((l) => l.trackingRef)).toEqual([ref]);
  });

  it('a delivery writes order.delivered with the attempt in the same transaction', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    await outForDelivery(ref!, '2026-11-25');
    setNow('2026-11-25T12:00:00Z');
    const door = scan('door', ref!, '2026-11-25T11:30:00+01:00', {
      outcome: 'delivered',
      location: { latitude: 48.8566, longitude: 2.3522 },
    });
    // Object keys never come from the wire: a sender's key could name another order's photo.
    await expect(
      t.deps.scans.apply(OPERATOR, [{ ...door, photo_key: 'proofs/other-order/photo.jpg' }]),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ field: 'scans[0].photo_key' }] });
    const [result] = await t.deps.scans.apply(OPERATOR, [door], {
      photoKey: 'proofs/abc.jpg',
      signatureKey: null,
    });
    expect(result!.status).toBe('delivered');
    const delivered = await t.pool.query(
      `SELECT data, created_at FROM outbox_events WHERE brand_id = $1 AND type = 'order.delivered'`,
      [brand.brandId],
    );
    expect(delivered.rows).toHaveLength(1);
    expect(delivered.rows[0].data.order).toMatchObject({ tracking_ref: ref, status: 'delivered' });
    // The webhook carries the proof (decision 0006): facts, and the photo's URL signed for 7 days.
    const proof = delivered.rows[0].data.order.proof_of_delivery;
    expect(proof).toMatchObject({
      delivered_at: '2026-11-25T10:30:00.000Z',
      location: { latitude: 48.857, longitude: 2.352 },
      signature_url: null,
    });
    const expires = Number(new URL(proof.photo_url).searchParams.get('expires'));
    expect(expires * 1000 - Date.parse('2026-11-25T12:00:00Z')).toBe(7 * 24 * 3600 * 1000);
    expect(new URL(proof.photo_url).pathname).toMatch(/^\/proofs\/att_[0-9a-f]{16}\/photo$/);
    const [attempt] = await attemptsOf(ref!);
    expect(attempt).toMatchObject({
      outcome: 'delivered',
      photo_key: 'proofs/abc.jpg',
      latitude: 48.857,
      longitude: 2.352,
      happened_at: new Date('2026-11-25T10:30:00Z'),
    });
    // The attempt and the status change are one transaction's: the same snapshot time.
    const tx = await t.pool.query(
      `SELECT (SELECT xmin::text FROM delivery_attempts WHERE scan_id = $1) AS attempt,
          (SELECT xmin::text FROM scans WHERE id = $1) AS scan,
          (SELECT xmin::text FROM orders WHERE tracking_ref = $2) AS orders`,
      [result!.id, ref],
    );
    expect(new Set(Object.values(tx.rows[0])).size).toBe(1);
  });

  it('a multi-unit parcel moves with one scan of any unit (DataMatrix text or typed reference)', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1, { ...VALID_ORDER, quantity: 3 });
    setNow('2026-11-25T12:00:00Z');
    const results = await t.deps.scans.apply(OPERATOR, [
      scan('pickup', `${ref}|PAR-11|2/3`, '2026-11-24T15:00:00+01:00'),
      scan('hub', `${ref}|PAR-11|3/3`, '2026-11-24T19:00:00+01:00'),
      scan('hub', `${ref}|PAR-11|1/3`, '2026-11-24T19:01:00+01:00'),
      scan('loading', ` ${ref!.toLowerCase().replace('-', ' ')} `, '2026-11-25T08:00:00+01:00'),
    ]);
    expect(results.map((r) => [r.result, r.status])).toEqual([
      ['applied', 'picked_up'],
      ['applied', 'in_transit'],
      ['applied', 'in_transit'],
      ['applied', 'out_for_delivery'],
    ]);
    expect((await historyOf(ref!)).map((e) => e.status)).toEqual([
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
    ]);
  });

  it('a pickup closes when all its parcels are scanned (after 12:00), or from the scans with the missing ones', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    setNow('2026-11-24T09:00:00Z');
    const all = await ordersOf(brand, 2);
    const id = pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    setNow('2026-11-24T15:00:00Z');
    await t.deps.scans.apply(
      OPERATOR,
      all.map((ref) => scan('pickup', ref, '2026-11-24T15:30:00+01:00')),
    );
    const closed = await t.pool.query(
      'SELECT status, collected_refs, missing_refs FROM pickups WHERE id = $1',
      [id],
    );
    expect(closed.rows[0]).toEqual({
      status: 'collected',
      collected_refs: all,
      missing_refs: [],
    });

    // Three parcels, two scanned: the courier closes it; the third is missing and moves on.
    const other = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const refs = await ordersOf(other, 3);
    const pickupId = pickupIdFor(other.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    // Before noon: the scans apply, the pickup stays planned.
    setNow('2026-11-24T10:30:00Z');
    await t.deps.scans.apply(OPERATOR, [scan('pickup', refs[0]!, '2026-11-24T11:30:00+01:00')]);
    setNow('2026-11-24T15:00:00Z');
    await t.deps.scans.apply(OPERATOR, [scan('pickup', refs[1]!, '2026-11-24T15:50:00+01:00')]);
    expect((await t.pool.query('SELECT status FROM pickups WHERE id = $1', [pickupId])).rows[0].status).toBe(
      'planned',
    );
    const me = await courier('Cleo');
    const stranger = await courier('Dan');
    await round('2026-11-24', me, [{ pickup: pickupId }]);
    await expect(
      t.deps.scans.closePickup({ courierId: stranger, locale: 'en', by: courierAuthor(stranger) }, pickupId),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    const pickup = await t.deps.scans.closePickup(
      { courierId: me, locale: 'en', by: courierAuthor(me) },
      pickupId,
    );
    expect(pickup).toMatchObject({ status: 'partially_collected', missingRefs: [refs[2]] });
    expect(await Promise.all(refs.map(statusOf))).toEqual(['picked_up', 'picked_up', 'pending']);
  });
});

describe('a scan written by its move’s own statement', () => {
  it('leaves the order unmoved when the scan’s id is already taken (AlreadyWritten), and moves it otherwise', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    setNow('2026-11-24T16:00:00Z');
    const stores = storesOn(t.pool);
    const order = (await stores.orders.findByRef(ref!, null))!;
    const taken = scan('hub', 'DLV-0000000000', '2026-11-24T15:00:00+01:00');
    await t.deps.scans.apply(OPERATOR, [taken]); // refused (unknown code), its row kept
    const row = (id: string) =>
      stores.scans.scanWithMove({
        id,
        courierId: null,
        roundId: null,
        context: 'pickup',
        code: ref!,
        orderId: order.id,
        outcome: null,
        reason: null,
        happenedAt: new Date('2026-11-24T15:30:00+01:00'),
        result: 'applied',
        statusAfter: 'picked_up',
        problem: null,
        message: null,
      });
    const change = { from: 'pending' as const, to: 'picked_up' as const, note: null, at: new Date() };
    await expect(stores.orders.transition(order.id, change, [], [row(taken.id)])).rejects.toThrow(
      AlreadyWritten,
    );
    expect((await stores.orders.findByRef(ref!, null))!.status).toBe('pending');
    const fresh = randomUUID();
    expect((await stores.orders.transition(order.id, change, [], [row(fresh)]))!.status).toBe('picked_up');
    expect((await scanRows([fresh])).length).toBe(1);
  });
});

describe('POST /ops/v1/scans', () => {
  const post = (payload: unknown, headers: Record<string, string> = OPS) =>
    call(t.app, { method: 'POST', url: '/ops/v1/scans', headers, payload: payload as object });

  it('applies the scans for a courier and answers one result per scan', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref, theirs] = await ordersOf(brand, 2);
    const me = await courier('Eve');
    const other = await courier('Finn');
    await round('2026-11-24', other, [{ order: theirs }]);
    setNow('2026-11-24T16:00:00Z');
    const batch = [
      scan('pickup', ref!, '2026-11-24T16:30:00+01:00'),
      scan('pickup', theirs!, '2026-11-24T16:31:00+01:00'),
    ];
    const answer = await post({ scans: batch, courier_id: me }, { ...OPS, 'accept-language': 'fr' });
    expect(answer.statusCode).toBe(200);
    expect(answer.data).toEqual({
      ok: true,
      results: [
        { id: batch[0]!.id, result: 'applied', tracking_ref: ref, status: 'picked_up', problem: null },
        {
          id: batch[1]!.id,
          result: 'refused',
          tracking_ref: theirs,
          status: 'pending',
          problem: {
            code: 'wrong_round',
            message: `Le colis ${theirs} est sur la tournée d’un autre livreur aujourd’hui.`,
          },
        },
      ],
    });
    expect(
      (await t.pool.query('SELECT courier_id FROM scans WHERE id = $1', [batch[0]!.id])).rows[0].courier_id,
    ).toBe(me);
    // Sent again (a phone that did not hear the answer): the same answer.
    expect((await post({ scans: batch, courier_id: me }, { ...OPS, 'accept-language': 'fr' })).data).toEqual(
      answer.data,
    );
  });

  it('refuses a malformed request naming the field, and writes nothing', async () => {
    const good = scan('hub', 'DLV-0000000000', '2026-11-24T10:00:00+01:00');
    const cases: [unknown, string][] = [
      [{ scans: [good, { ...good, happened_at: 'soon' }] }, 'scans[1].happened_at'],
      [{ scans: [{ ...good, extra: 1 }] }, 'scans[0].extra'],
      [{ scans: [] }, 'scans'],
      [{}, 'scans'],
      [{ scans: [good], courier_id: 'cou_0000000000000000' }, 'courier_id'],
      [{ scans: [good], courier_id: 'bob' }, 'courier_id'],
    ];
    for (const [payload, field] of cases) {
      const answer = await post(payload);
      expect(answer.statusCode, field).toBe(400);
      expect(answer.data.details[0].field, JSON.stringify(answer.data)).toBe(field);
    }
    expect(await scanRows([good.id])).toEqual([]);
    expect((await post({ scans: [good] }, {})).statusCode).toBe(401);
  });
});

describe('the courier app’s scans (/courier/api/v1)', () => {
  /** A signed-in courier: its id, and headers carrying its session cookie and CSRF token. */
  async function signedIn(locale: 'fr' | 'en') {
    const email = uniqueEmail('scanner');
    const { courier: c } = await t.deps.couriers.add(
      { email, name: 'Gil', password: PASSWORD, locale },
      testOperator,
    );
    const b = new Browser(t.app, `10.8.0.${Math.floor(Math.random() * 250)}`);
    expect((await b.submit('/courier/login', '/courier/login', { email, password: PASSWORD })).status).toBe(
      303,
    );
    const me = JSON.parse((await b.get('/courier/api/v1/me')).body);
    const cookie = `dlv_courier_session=${b.cookies.get('dlv_courier_session')}`;
    return { id: c.id, headers: { cookie, 'x-csrf-token': me.csrf_token as string } };
  }

  it('applies the session courier’s scans (CSRF required) and closes its pickup from the scans', async () => {
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const refs = await ordersOf(brand, 2);
    const pickupId = pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    const c = await signedIn('en');
    await round('2026-11-24', c.id, [{ pickup: pickupId }]);
    setNow('2026-11-24T15:00:00Z');
    const batch = [scan('pickup', refs[0]!, '2026-11-24T15:55:00+01:00')];
    const noCsrf = await call(t.app, {
      method: 'POST',
      url: '/courier/api/v1/scans',
      headers: { cookie: c.headers.cookie },
      payload: { scans: batch },
    });
    expect([noCsrf.statusCode, noCsrf.data.error]).toEqual([403, 'csrf_failed']);
    expect(await scanRows([batch[0]!.id])).toEqual([]);

    const answer = await call(t.app, {
      method: 'POST',
      url: '/courier/api/v1/scans',
      headers: c.headers,
      payload: { scans: batch },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.data.results[0]).toMatchObject({ result: 'applied', status: 'picked_up' });
    const row = await t.pool.query('SELECT courier_id, round_id FROM scans WHERE id = $1', [batch[0]!.id]);
    expect(row.rows[0].courier_id).toBe(c.id);
    expect(row.rows[0].round_id).toMatch(/^rnd_/);

    const bad = await call(t.app, {
      method: 'POST',
      url: '/courier/api/v1/scans',
      headers: c.headers,
      payload: { scans: [{ ...batch[0], id: randomUUID(), context: 'door' }] },
    });
    expect([bad.statusCode, bad.data.details[0].field]).toEqual([400, 'scans[0].outcome']);

    const closed = await call(t.app, {
      method: 'POST',
      url: `/courier/api/v1/pickups/${pickupId}/close`,
      headers: c.headers,
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.data.pickup).toMatchObject({ status: 'partially_collected', missing: [refs[1]] });
    const other = await signedIn('fr');
    const notTheirs = await call(t.app, {
      method: 'POST',
      url: `/courier/api/v1/pickups/${pickupId}/close`,
      headers: other.headers,
    });
    expect(notTheirs.statusCode).toBe(404);
  });
});

describe('dlv_scans_total', () => {
  it('counts each scan applied or refused once, by context (a replay is not counted again)', async () => {
    const metrics = createServiceMetrics();
    const deps = createDeps(t.deps.config, t.pool, () => now, { observers: { scans: metrics.scans } });
    const brand = await createBrandWithKey(t.deps);
    setNow('2026-11-24T09:00:00Z');
    const [ref] = await ordersOf(brand, 1);
    setNow('2026-11-24T16:00:00Z');
    const batch = [
      scan('pickup', ref!, '2026-11-24T16:30:00+01:00'),
      scan('hub', 'DLV-0000000000', '2026-11-24T16:31:00+01:00'),
    ];
    await deps.scans.apply(OPERATOR, batch);
    await deps.scans.apply(OPERATOR, batch);
    const body = (await metrics.exposition()).body;
    expect(body).toContain('dlv_scans_total{context="pickup",result="applied"} 1');
    expect(body).toContain('dlv_scans_total{context="hub",result="refused"} 1');
  });
});
