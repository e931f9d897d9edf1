import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pickupIdFor } from '../src/domain/pickups/pickup-day.ts';
import {
  API,
  buildTestApp,
  call,
  createBrandWithKey,
  TEST_PICKUP_ADDRESS,
  type TestApp,
  type TestBrand,
  testDatabaseUrl,
} from './support/app.ts';
import { decodeBarcodes } from './support/barcodes.ts';
import { createOrder, subscribeToWebhooks, VALID_ORDER } from './support/orders.ts';
import { POPPLER, pdfPagesToPng, pdfText } from './support/pdf-pages.ts';
import { runDlv } from './support/run-cli.ts';

const OPS = { authorization: 'Bearer ops-secret-token-0123456789abcdef' };
// Tuesday 24 November 2026, 10:00 in Paris (UTC+1): before the cut-off.
let now = new Date('2026-11-24T09:00:00Z');
const at = (iso: string) => {
  now = new Date(iso);
};
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: 'ops-secret-token-0123456789abcdef' }, clock: () => now });
});
afterAll(() => t.close());

async function ordersOf(brand: TestBrand, n: number, body: object = VALID_ORDER): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < n; i++) {
    const created = await createOrder(t.app, brand, { ...body, reference: `CMD-${i + 1}` });
    expect(created.statusCode).toBe(200);
    refs.push(created.data.trackingRef);
  }
  return refs;
}

const pickupsOn = (brand: TestBrand, date: string) =>
  call(t.app, { method: 'GET', url: `${API}/pickups?date=${date}`, headers: brand.headers });
const close = (id: string, scanned: string[]) =>
  call(t.app, { method: 'POST', url: `/ops/v1/pickups/${id}/close`, headers: OPS, payload: { scanned } });
const statusOf = async (ref: string) =>
  (await t.pool.query('SELECT status FROM orders WHERE tracking_ref = $1', [ref])).rows[0]?.status;

describe('pickups', () => {
  it('orders join the pickup of their day: before 12:00 today, after it the next business day', async () => {
    const brand = await createBrandWithKey(t.deps);
    at('2026-11-24T10:59:00Z'); // 11:59 Paris
    const [early] = await ordersOf(brand, 1);
    at('2026-11-24T11:00:00Z'); // 12:00 Paris
    const [late] = await ordersOf(brand, 1);
    at('2026-11-27T11:30:00Z'); // Friday 12:30
    const [friday] = await ordersOf(brand, 1);
    const waiting = await createOrder(t.app, brand, { customer_email: 'w@example.com' });
    expect(waiting.data.order.status).toBe('awaiting_address');

    const today = await pickupsOn(brand, '2026-11-24');
    expect(today.statusCode).toBe(200);
    expect(today.data.pickups).toEqual([
      {
        id: pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-11-24'),
        date: '2026-11-24',
        pickup_address: TEST_PICKUP_ADDRESS,
        window: { start: '14:00', end: '18:00' },
        status: 'planned',
        requested: false,
        orders: [early],
        missing: [],
        closed_at: null,
      },
    ]);
    expect((await pickupsOn(brand, '2026-11-25')).data.pickups[0].orders).toEqual([late]);
    expect((await pickupsOn(brand, '2026-11-30')).data.pickups[0].orders).toEqual([friday]);

    // Completing the address makes it collectable: it joins the pickup due now (Friday after noon → Monday).
    const completed = await call(t.app, {
      method: 'PATCH',
      url: `${API}/orders/${waiting.data.trackingRef}`,
      headers: brand.headers,
      payload: { delivery_address: '3 rue de la Paix 75002 Paris' },
    });
    expect(completed.data.order.status).toBe('pending');
    // A cancelled order leaves its pickup.
    const cancelled = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${late}/cancel`,
      headers: brand.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await pickupsOn(brand, '2026-11-25')).data.pickups).toEqual([]);
    expect((await pickupsOn(brand, '2026-11-30')).data.pickups[0].orders).toEqual([
      friday,
      waiting.data.trackingRef,
    ]);
  });

  it('closed with 3 of 5 scanned: partially collected, 2 missing, the event, and the 2 join the next day', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    at('2026-11-24T09:00:00Z');
    const refs = await ordersOf(brand, 5);
    const id = pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    const other = await createBrandWithKey(t.deps);
    const [foreign] = await ordersOf(other, 1);

    expect((await close(id, refs.slice(0, 3))).data.error).toBe('pickup_not_due');
    at('2026-11-24T15:30:00Z'); // 16:30 Paris, the courier has come

    const stray = await close(id, [refs[0]!, foreign!, 'DLV-0000000000']);
    expect(stray.statusCode).toBe(422);
    expect(stray.data.error).toBe('not_in_pickup');
    expect(stray.data.details.map((d: { field: string }) => d.field)).toEqual(['scanned[1]', 'scanned[2]']);
    expect(stray.data.message).toContain(foreign);
    const malformed = await close(id, ['not a ref']);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.data.details[0].field).toBe('scanned[0]');
    expect(await Promise.all(refs.map(statusOf))).toEqual(Array(5).fill('pending'));
    expect((await pickupsOn(brand, '2026-11-24')).data.pickups[0].status).toBe('planned');

    // Lower case and a missing dash are read as a scanner may send them.
    const closed = await close(id, [refs[0]!.toLowerCase(), refs[1]!.replace('-', ''), refs[2]!, refs[2]!]);
    expect(closed.statusCode).toBe(200);
    expect(closed.data.brand_id).toBe(brand.brandId);
    expect(closed.data.pickup).toMatchObject({
      status: 'partially_collected',
      orders: refs,
      missing: refs.slice(3),
    });
    expect(await Promise.all(refs.map(statusOf))).toEqual([
      'picked_up',
      'picked_up',
      'picked_up',
      'pending',
      'pending',
    ]);
    const shown = await call(t.app, { method: 'GET', url: `${API}/pickups/${id}`, headers: brand.headers });
    expect(shown.data.pickup.missing).toEqual(refs.slice(3));
    expect(shown.data.pickup.closed_at).toBe('2026-11-24T15:30:00.000Z');

    const events = await t.pool.query(
      `SELECT type, data FROM outbox_events WHERE brand_id = $1 AND type = 'pickup.completed'`,
      [brand.brandId],
    );
    expect(events.rows).toEqual([
      {
        type: 'pickup.completed',
        data: {
          pickup: {
            id,
            date: '2026-11-24',
            pickup_address: TEST_PICKUP_ADDRESS,
            status: 'partially_collected',
            collected: refs.slice(0, 3),
            missing: refs.slice(3),
          },
        },
      },
    ]);
    // Each collected parcel moved as a scan moves it: its own status events for the subscribers.
    const moves = await t.pool.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE brand_id = $1 AND type = 'order.status_changed'`,
      [brand.brandId],
    );
    expect(moves.rows[0].n).toBe(3);

    // The two missing ones are in Wednesday's pickup, with the orders made after today's cut-off.
    const [afterNoon] = await ordersOf(brand, 1);
    const tomorrow = (await pickupsOn(brand, '2026-11-25')).data.pickups;
    expect(tomorrow).toHaveLength(1);
    expect(tomorrow[0].orders).toEqual([...refs.slice(3), afterNoon]);
    expect(tomorrow[0].missing).toEqual([]);

    const again = await close(id, refs.slice(0, 3));
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe('pickup_closed');

    // Wednesday: none scanned → missed; the three move on to Thursday, listed missing once each.
    at('2026-11-25T16:00:00Z');
    const missed = await close(tomorrow[0].id, []);
    expect(missed.data.pickup).toMatchObject({ status: 'missed', missing: tomorrow[0].orders });
    expect((await pickupsOn(brand, '2026-11-26')).data.pickups[0].orders).toEqual(tomorrow[0].orders);
    const first = (await pickupsOn(brand, '2026-11-24')).data.pickups[0];
    expect(first.missing).toEqual(refs.slice(3));
  });

  it('orders created together (one INSERT for the crowd) join their pickup all the same', async () => {
    const brand = await createBrandWithKey(t.deps);
    at('2026-12-02T08:00:00Z');
    const query = vi.spyOn(t.pool, 'query');
    const created = await Promise.all(Array.from({ length: 12 }, () => createOrder(t.app, brand)));
    const names = query.mock.calls.map(([config]) => (config as { name?: string }).name);
    query.mockRestore();
    expect(names).toContain('orders.insertBatch');
    expect(created.map((c) => c.statusCode)).toEqual(Array(12).fill(200));
    const listed = (await pickupsOn(brand, '2026-12-02')).data.pickups;
    expect(listed).toHaveLength(1);
    expect([...listed[0].orders].sort()).toEqual(created.map((c) => c.data.trackingRef).sort());
  });

  it('all scanned → collected', async () => {
    const brand = await createBrandWithKey(t.deps);
    at('2026-12-01T08:00:00Z');
    const refs = await ordersOf(brand, 2);
    at('2026-12-01T14:00:00Z');
    const done = await close(pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-12-01'), refs);
    expect(done.data.pickup).toMatchObject({ status: 'collected', missing: [] });
    expect(done.data.pickup.closed_at).not.toBeNull();
  });

  it('POST /pickups: a business day before its cut-off, a window within hours; each bad value named, nothing stored', async () => {
    const brand = await createBrandWithKey(t.deps);
    at('2026-11-24T10:30:00Z'); // Tuesday 11:30 Paris
    const post = (payload: unknown, headers: Record<string, string> = {}) =>
      call(t.app, {
        method: 'POST',
        url: `${API}/pickups`,
        headers: { ...brand.headers, ...headers },
        payload: payload as object,
      });
    const refusals: Array<[unknown, number, string, string]> = [
      [{ date: '2026-11-23' }, 422, 'date_in_past', 'date'],
      [{ date: '2026-11-28' }, 422, 'not_a_business_day', 'date'],
      [{ date: '2026-12-25' }, 422, 'not_a_business_day', 'date'],
      [{ date: '2026-02-30' }, 400, 'invalid_request', 'date'],
      [{ date: '24/11/2026' }, 400, 'invalid_request', 'date'],
      [{}, 400, 'invalid_request', 'date'],
      [
        { date: '2026-11-25', window: { start: '07:00', end: '12:00' } },
        400,
        'invalid_request',
        'window.start',
      ],
      [
        { date: '2026-11-25', window: { start: '14:00', end: '20:00' } },
        400,
        'invalid_request',
        'window.end',
      ],
      [
        { date: '2026-11-25', window: { start: '14:00', end: '15:00' } },
        400,
        'invalid_request',
        'window.end',
      ],
      [
        { date: '2026-11-25', window: { start: '2pm', end: '18:00' } },
        400,
        'invalid_request',
        'window.start',
      ],
      [{ date: '2026-11-25', window: { start: '14:00' } }, 400, 'invalid_request', 'window.end'],
      [{ date: '2026-11-25', extra: 1 }, 400, 'invalid_request', 'extra'],
    ];
    for (const [payload, status, code, field] of refusals) {
      const refused = await post(payload);
      expect([refused.statusCode, refused.data.error], JSON.stringify(payload)).toEqual([status, code]);
      expect(
        refused.data.details.map((d: { field: string }) => d.field),
        JSON.stringify(payload),
      ).toContain(field);
    }
    expect(
      (await t.pool.query('SELECT count(*)::int AS n FROM pickups WHERE brand_id = $1', [brand.brandId]))
        .rows[0].n,
    ).toBe(0);

    const today = await post({ date: '2026-11-24' }, { 'idempotency-key': 'pickup-1' });
    expect(today.statusCode).toBe(200);
    expect(today.data.pickup).toMatchObject({
      date: '2026-11-24',
      status: 'planned',
      requested: true,
      window: { start: '14:00', end: '18:00' },
      orders: [],
    });
    const replay = await post({ date: '2026-11-24' }, { 'idempotency-key': 'pickup-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(today.data);
    const reused = await post({ date: '2026-11-25' }, { 'idempotency-key': 'pickup-1' });
    expect(reused.data.error).toBe('idempotency_key_reused');
    const narrower = await post({ date: '2026-11-24', window: { start: '15:00', end: '17:30' } });
    expect(narrower.data.pickup).toMatchObject({
      id: today.data.pickup.id,
      window: { start: '15:00', end: '17:30' },
    });
    expect((await pickupsOn(brand, '2026-11-24')).data.pickups).toHaveLength(1);

    at('2026-11-24T11:00:00Z'); // 12:00 Paris: today is over
    const late = await post({ date: '2026-11-24' });
    expect([late.statusCode, late.data.error, late.data.details[0].field]).toEqual([
      422,
      'pickup_cutoff_passed',
      'date',
    ]);
    const tomorrow = await post({ date: '2026-11-25' });
    expect(tomorrow.statusCode).toBe(200);

    const nowhere = await createBrandWithKey(t.deps, { pickupAddress: null });
    const noAddress = await call(t.app, {
      method: 'POST',
      url: `${API}/pickups`,
      headers: nowhere.headers,
      payload: { date: '2026-11-25' },
    });
    expect([noAddress.statusCode, noAddress.data.error, noAddress.data.details[0].field]).toEqual([
      422,
      'no_pickup_address',
      'pickup_address',
    ]);

    // A closed pickup cannot be asked for again.
    at('2026-11-25T15:00:00Z');
    expect((await close(tomorrow.data.pickup.id, [])).data.pickup.status).toBe('missed');
    at('2026-11-25T10:00:00Z');
    const closedAgain = await post({ date: '2026-11-25' });
    expect([closedAgain.statusCode, closedAgain.data.error]).toEqual([409, 'pickup_closed']);
  });

  it("another brand's pickup is a 404 everywhere; scopes: orders:read to read, orders:write to ask", async () => {
    const owner = await createBrandWithKey(t.deps);
    const other = await createBrandWithKey(t.deps);
    at('2026-11-24T09:00:00Z');
    await ordersOf(owner, 1);
    const id = pickupIdFor(owner.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    for (const url of [
      `${API}/pickups/${id}`,
      `${API}/pickups/${id}/manifest`,
      `${API}/pickups/pck_0000000000000000`,
    ]) {
      const seen = await call(t.app, { method: 'GET', url, headers: other.headers });
      expect([seen.statusCode, seen.data.error], url).toEqual([404, 'not_found']);
    }
    expect((await pickupsOn(other, '2026-11-24')).data.pickups).toEqual([]);
    expect((await close('pck_0000000000000000', [])).statusCode).toBe(404);

    const reader = await createBrandWithKey(t.deps, { scopes: ['orders:read'] });
    const asked = await call(t.app, {
      method: 'POST',
      url: `${API}/pickups`,
      headers: reader.headers,
      payload: { date: '2026-11-25' },
    });
    expect(asked.statusCode).toBe(403);
    expect((await pickupsOn(reader, '2026-11-24')).statusCode).toBe(200);
  });

  it.skipIf(!POPPLER)(
    'the manifest: every parcel with a Code 128 that reads back, totals, signatures; pages as needed',
    async () => {
      const brand = await createBrandWithKey(t.deps, { name: 'Maison Lemoine' });
      at('2026-11-24T09:00:00Z');
      const refs = await ordersOf(brand, 5, { ...VALID_ORDER, quantity: 2, unit_weight: '1.5kg' });
      const id = pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
      const manifest = await call(t.app, {
        method: 'GET',
        url: `${API}/pickups/${id}/manifest`,
        headers: brand.headers,
      });
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['content-type']).toBe('application/pdf');
      const pages = await pdfPagesToPng(manifest.rawPayload);
      expect(pages).toHaveLength(1);
      const decoded = await decodeBarcodes(pages[0]!);
      expect(
        decoded
          .filter((b) => b.format === 'Code128')
          .map((b) => b.text)
          .sort(),
      ).toEqual([...refs].sort());
      const text = await pdfText(manifest.rawPayload);
      for (const expected of [
        'BORDEREAU DE REMISE',
        'Maison Lemoine',
        TEST_PICKUP_ADDRESS,
        '24/11/2026',
        '14:00 – 18:00',
        id,
        'CMD-1',
        '75011',
        '3,00 kg',
        'Total : 5 envoi(s) / parcel(s), 10 colis / unit(s), 15,00 kg',
        'Chauffeur / Courier',
        'Expéditeur / Brand',
        'Signature',
        'Page 1 / 1',
      ]) {
        expect(text).toContain(expected);
      }
      for (const ref of refs) expect(text).toContain(ref);

      // Thirty parcels need more than one page; every page's barcodes read back.
      const big = await createBrandWithKey(t.deps);
      const many = await ordersOf(big, 30);
      const bigId = pickupIdFor(big.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
      const long = await call(t.app, {
        method: 'GET',
        url: `${API}/pickups/${bigId}/manifest`,
        headers: big.headers,
      });
      const longPages = await pdfPagesToPng(long.rawPayload);
      expect(longPages).toHaveLength(3);
      const longText = await pdfText(long.rawPayload);
      for (const page of ['Page 1 / 3', 'Page 2 / 3', 'Page 3 / 3']) expect(longText).toContain(page);
      const seen = new Set<string>();
      for (const page of longPages) {
        // The reader stops at 8 symbols a page; a page holds 8 to 11 rows.
        const onPage = (await decodeBarcodes(page)).map((b) => b.text);
        expect(onPage.length).toBeGreaterThanOrEqual(8);
        for (const ref of onPage) seen.add(ref);
      }
      expect([...seen].every((ref) => many.includes(ref))).toBe(true);
      expect(seen.size).toBeGreaterThanOrEqual(24);
      expect(many).toHaveLength(30);
    },
  );

  it("dlv pickups list and close (the machine's clock: long after 2026-11-24)", async () => {
    const brand = await createBrandWithKey(t.deps);
    at('2026-11-24T09:00:00Z');
    const refs = await ordersOf(brand, 3);
    const id = pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    const env = {
      DATABASE_URL: testDatabaseUrl(),
      PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      LOG_LEVEL: 'silent',
    };
    const listed = await runDlv(
      ['pickups', 'list', '--date', '2026-11-24', '--brand', brand.brandId, '--json'],
      env,
    );
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).pickups).toEqual([
      expect.objectContaining({
        brand_id: brand.brandId,
        pickup: expect.objectContaining({ id, orders: refs }),
      }),
    ]);
    const stray = await runDlv(['pickups', 'close', id, '--scanned', `${refs[0]},DLV-0000000000`], env);
    expect(stray.code).not.toBe(0);
    expect(stray.stderr).toContain('DLV-0000000000');
    expect(await statusOf(refs[0]!)).toBe('pending');
    const closed = await runDlv(['pickups', 'close', id, '--scanned', `${refs[0]},${refs[1]}`], env);
    expect(closed.code).toBe(0);
    expect(closed.stdout).toContain('partially_collected');
    expect(closed.stdout).toContain(`missing: ${refs[2]}`);
    const twice = await runDlv(['pickups', 'close', id, '--scanned', refs[0]!], env);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toMatch(/already closed/);
    const text = await runDlv(['pickups', 'list', '--date', '2026-11-24', '--brand', brand.brandId], env);
    expect(text.stdout).toMatch(new RegExp(`${id}.*partially_collected\\s+3\\s+1`));
  }, 180_000);
});
