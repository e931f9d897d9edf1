import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { coalescedStatements } from '../src/db/coalesced-statements.ts';
import { findPage, type PageLookup } from '../src/db/repositories/order-pages.ts';
import { ordersRepository } from '../src/db/repositories/orders-repository.ts';
import { orderLinks, STORED_JSON_VERSION, storedOrderJson } from '../src/domain/orders/order-json.ts';
import { generateTrackingRef } from '../src/domain/orders/tracking-ref.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

/** A refusal as PostgreSQL sends it (the driver's error class, with a SQLSTATE). */
function refused(message: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), { code: '23514' });
}

/** A coalescer over fake writes that records each call. */
function recorded(
  many: (items: number[]) => Promise<string[]> = async (items) => items.map((i) => `many ${i}`),
) {
  const calls: string[] = [];
  const writes = coalescedStatements<number, string>({
    one: async (item) => {
      calls.push(`one ${item}`);
      if (item < 0) throw new Error(`bad ${item}`);
      return `one ${item}`;
    },
    many: async (items) => {
      calls.push(`many ${items.join(',')}`);
      return many(items);
    },
    maxBatch: 3,
  });
  return { calls, writes };
}

describe('coalesced statements', () => {
  it('runs the writes of one turn as one statement, each caller getting its own outcome', async () => {
    const { calls, writes } = recorded();
    expect(await Promise.all([writes.run(1), writes.run(2)])).toEqual(['many 1', 'many 2']);
    expect(calls).toEqual(['many 1,2']);
  });

  it('runs a write alone as it would without coalescing, and splits a crowd into batches of maxBatch', async () => {
    const { calls, writes } = recorded();
    expect(await writes.run(7)).toBe('one 7');
    const outcomes = await Promise.all([1, 2, 3, 4, 5, 6, 8].map((i) => writes.run(i)));
    expect(outcomes).toEqual(['many 1', 'many 2', 'many 3', 'many 4', 'many 5', 'many 6', 'one 8']);
    expect(calls).toEqual(['one 7', 'many 1,2,3', 'many 4,5,6', 'one 8']);
  });

  it('never puts items of different groups in one statement', async () => {
    const calls: string[] = [];
    const writes = coalescedStatements<number, number>({
      one: async (item) => {
        calls.push(`one ${item}`);
        return item;
      },
      many: async (items) => {
        calls.push(`many ${items.join(',')}`);
        return items;
      },
      maxBatch: 10,
      groupOf: (item) => (item % 2 === 0 ? 'even' : 'odd'),
    });
    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => writes.run(i)))).toEqual([1, 2, 3, 4, 5]);
    expect(calls.sort()).toEqual(['many 1,3,5', 'many 2,4']);
  });

  it('writes again one by one when PostgreSQL refuses the shared statement: only the bad item fails', async () => {
    const { calls, writes } = recorded(async () => {
      throw refused('new row violates check constraint');
    });
    const outcomes = await Promise.allSettled([writes.run(1), writes.run(-2), writes.run(3)]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'one 1',
      'bad -2',
      'one 3',
    ]);
    expect(calls).toEqual(['many 1,-2,3', 'one 1', 'one -2', 'one 3']);
  });

  it('does not write again after a failure that may have followed a commit (a lost connection)', async () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    const { calls, writes } = recorded(async () => {
      throw lost;
    });
    const outcomes = await Promise.allSettled([writes.run(1), writes.run(2)]);
    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(calls).toEqual(['many 1,2']);
  });
});

describe('orders created together (one INSERT for the crowd)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  // Streets of this run's own: an address another file's orders taught the shared cache of places
  // (address_points) costs its creation a lookup, which may land it in the next statement.
  const STREET = `rue du Lot-${randomUUID().slice(0, 8)}`;
  const BODIES = [
    { customer_email: 'a@example.com', delivery_address: `12 ${STREET} 75011 Paris` },
    { customer_email: 'b@example.com' }, // awaiting its address: no price, not billable yet
    {
      customer_email: 'c@example.com',
      delivery_address: `3 ${STREET} 93100 Montreuil`,
      reference: 'Cde « 42 » \\ "x" 😀',
      amount_eur: 49.99,
      delivery_phone: '06 12 34 56 78',
      delivery_recipient: 'Zoé \u2028 Ünal',
      unit_weight: '2.5kg',
      service: 'express',
    },
  ];

  it('are written by one statement, each row exactly as the order the caller got back', async () => {
    const brand = await createBrandWithKey(t.deps);
    const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
    // The brand's grid and subscribers cached, as they are on a running server: from here a
    // creation reads nothing before its INSERT, so those started together reach it together.
    await t.deps.orders.create(context, BODIES[0]!);
    const query = vi.spyOn(t.pool, 'query');
    const bodies = [...BODIES, ...BODIES, ...BODIES];
    const created = await Promise.all(bodies.map((body) => t.deps.orders.create(context, body)));
    const names = query.mock.calls.map(([config]) => (config as { name?: string }).name);
    query.mockRestore();
    expect(names.filter((n) => n === 'orders.insertBatch')).toHaveLength(1);
    expect(names.filter((n) => n === 'orders.insert')).toHaveLength(0);

    const repo = ordersRepository(t.pool);
    expect(new Set(created.map((o) => o.id)).size).toBe(bodies.length);
    for (const order of created) {
      // Every column holds the value the service sent: the order read back is the one returned.
      expect(await repo.findByRef(order.trackingRef, brand.brandId)).toEqual(order);
      const { rows } = await t.pool.query(
        `SELECT json_rest, json_version, history::text AS history, updated_at = created_at AS fresh,
                priced_at IS NOT DISTINCT FROM CASE WHEN price_cents IS NULL THEN NULL ELSE created_at END AS priced
           FROM orders WHERE id = $1`,
        [order.id],
      );
      expect(rows[0]).toEqual({
        json_rest: storedOrderJson({ ...order, updatedAt: order.createdAt }),
        json_version: STORED_JSON_VERSION,
        history: JSON.stringify(order.events.map((e) => ({ ...e, at: e.at.toISOString() }))),
        fresh: true,
        priced: true,
      });
    }
  });

  it("carry their events: each order written with its own order.created and its subscribers' jobs", async () => {
    const listened = await createBrandWithKey(t.deps);
    const quiet = await createBrandWithKey(t.deps);
    await t.deps.webhooks.add(
      { brandId: listened.brandId, url: 'https://93.184.216.34/hooks/orders' },
      testOperator,
    );
    const contexts = [listened, quiet].map((b) => ({
      id: b.brandId,
      defaultPickupAddress: '1 rue de Rivoli 75001 Paris',
    }));
    for (const context of contexts) await t.deps.orders.create(context, BODIES[0]!); // caches warm
    const query = vi.spyOn(t.pool, 'query');
    const created = await Promise.all(
      [...BODIES, ...BODIES].flatMap((body) =>
        contexts.map((context) => t.deps.orders.create(context, body)),
      ),
    );
    const names = query.mock.calls.map(([config]) => (config as { name?: string }).name);
    query.mockRestore();
    expect(names.filter((n) => n?.startsWith('orders.insert'))).toEqual(['orders.insertBatch.events']);

    const { rows } = await t.pool.query<{ ref: string; order: { tracking_ref: string }; jobs: number }>(
      `SELECT e.data->'order'->>'tracking_ref' AS ref, e.data->'order' AS order,
              (SELECT count(*)::int FROM ${QUEUED_JOBS} j
                WHERE j.task = 'webhooks_fan_out' AND j.payload->>'event_id' = e.id) AS jobs
         FROM outbox_events e WHERE e.type = 'order.created' AND e.brand_id = ANY($1)`,
      [[listened.brandId, quiet.brandId]],
    );
    const batch = created.filter((o) => o.brandId === listened.brandId);
    const events = rows.filter((r) => batch.some((o) => o.trackingRef === r.ref));
    expect(events).toHaveLength(batch.length);
    for (const order of batch) {
      const event = events.find((r) => r.ref === order.trackingRef)!;
      const { events: _history, ...json } = t.deps.orders.detailJson(order);
      expect(event.order).toEqual(json);
      expect(event.jobs).toBe(1);
    }
    // The brand nobody listens to: no event, no job.
    expect(
      rows.filter((r) => created.some((o) => o.brandId === quiet.brandId && o.trackingRef === r.ref)),
    ).toEqual([]);
  });

  it('one row PostgreSQL refuses fails alone; the others are written', async () => {
    const brand = await createBrandWithKey(t.deps);
    const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
    const rows = await Promise.all(
      BODIES.map(async (body) => (await t.deps.orders.prepare(context, body)).row),
    );
    const repo = ordersRepository(t.pool);
    // Past the service's validation, as a bug would be: the column's domain still refuses it.
    const broken = { ...rows[1]!, trackingRef: generateTrackingRef(), quantity: 0 };
    const query = vi.spyOn(t.pool, 'query');
    const outcomes = await Promise.allSettled([
      repo.insert({ ...rows[0]!, trackingRef: generateTrackingRef() }, 'Order created', null),
      repo.insert(broken, 'Order created', null),
      repo.insert({ ...rows[2]!, trackingRef: generateTrackingRef() }, 'Order created', null),
    ]);
    // Only the orders' statements: on a busy machine the pool may serve another query meanwhile
    // (a test helper's or a background read's), which is not what this is about.
    const names = query.mock.calls
      .map(([config]) => (config as { name?: string }).name)
      .filter((n) => n?.startsWith('orders.'));
    query.mockRestore();
    // Tried together, refused as a whole (nothing written), then each alone (a collectable order
    // joining its pickup in its statement; the second body awaits its address).
    expect(names).toEqual([
      'orders.insertBatch',
      'orders.insert.pickup',
      'orders.insert',
      'orders.insert.pickup',
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
      code: '23514',
      constraint: 'orders_quantity_check',
    });
    const { rows: stored } = await t.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE brand_id = $1',
      [brand.brandId],
    );
    expect(stored[0]!.n).toBe(2);
  });

  it('a tracking ref drawn twice, or already taken, gets null (the service draws again)', async () => {
    const brand = await createBrandWithKey(t.deps);
    const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
    const row = (await t.deps.orders.prepare(context, BODIES[0]!)).row;
    const taken = await t.deps.orders.create(context, BODIES[0]!);
    const repo = ordersRepository(t.pool);
    const twice = generateTrackingRef();
    const [first, second, old] = await Promise.all([
      repo.insert({ ...row, trackingRef: twice }, 'Order created', null),
      repo.insert(
        { ...row, trackingRef: twice, trackingToken: `${row.trackingToken.slice(0, -1)}x` },
        null,
        null,
      ),
      repo.insert({ ...row, trackingRef: taken.trackingRef, trackingToken: 'y'.repeat(22) }, null, null),
    ]);
    expect(first?.order.trackingRef).toBe(twice);
    expect(second).toBeNull();
    expect(old).toBeNull();
    const { rows } = await t.pool.query<{ note: string | null }>(
      "SELECT history->0->>'note' AS note FROM orders WHERE tracking_ref = $1",
      [twice],
    );
    expect(rows).toEqual([{ note: 'Order created' }]);
  });
});

describe('reads asked for together (one SELECT for the crowd)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const LINKS = orderLinks('https://suivi.example.fr');
  const OTHER_LINKS = orderLinks('https://ailleurs.example.fr');

  /** Two brands with orders of every kind the filters tell apart. */
  async function twoBrands() {
    const brands = [await createBrandWithKey(t.deps), await createBrandWithKey(t.deps)];
    const refs: string[][] = [[], []];
    for (const [b, brand] of brands.entries()) {
      const context = { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' };
      for (let i = 0; i < 12; i++) {
        const order = await t.deps.orders.create(context, {
          customer_email: `o${i}@example.com`,
          ...(i % 3 === 0 ? {} : { delivery_address: '12 rue Oberkampf 75011 Paris' }),
          reference: i % 2 === 0 ? `CMD-${b}-${i}` : `WEB-${i}`,
        });
        refs[b]!.push(order.trackingRef);
      }
    }
    return { brands, refs };
  }

  /** The statement names a call made on the pool. */
  async function namesOf<T>(work: () => Promise<T>): Promise<{ result: T; names: string[] }> {
    const query = vi.spyOn(t.pool, 'query');
    try {
      const result = await work();
      return { result, names: query.mock.calls.map(([config]) => (config as { name?: string }).name ?? '') };
    } finally {
      query.mockRestore();
    }
  }

  it('pages of every shape, brand and cursor: each as its own statement would give it', async () => {
    const { brands } = await twoBrands();
    const [a, b] = brands.map((brand) => brand.brandId) as [string, string];
    const firstPage = await findPage(t.pool, {
      brandId: a,
      q: { status: null, limit: 5, after: null },
      links: LINKS,
    });
    const after = firstPage[3]!.id;
    const lookups: PageLookup[] = [
      { brandId: a, q: { status: null, limit: 5, after: null }, links: LINKS },
      { brandId: b, q: { status: null, limit: 7, after: null }, links: OTHER_LINKS },
      { brandId: a, q: { status: null, limit: 5, after }, links: LINKS },
      // Another brand's cursor position finds nothing after it (the position is not the brand's).
      { brandId: b, q: { status: null, limit: 5, after }, links: LINKS },
      { brandId: a, q: { status: 'awaiting_address', limit: 3, after: null }, links: LINKS },
      { brandId: b, q: { status: 'pending', limit: 30, after: null }, links: LINKS },
      { brandId: a, q: { status: null, referencePrefix: 'CMD-0', limit: 4, after: null }, links: LINKS },
      { brandId: b, q: { status: null, referencePrefix: 'WEB-1', limit: 4, after: null }, links: LINKS },
      { brandId: a, q: { status: null, limit: 5, after: null }, links: LINKS },
    ];
    const repo = ordersRepository(t.pool);
    const { result: together, names } = await namesOf(() =>
      Promise.all(lookups.map((l) => repo.listJson(l.brandId, l.q, l.links))),
    );
    expect(names.filter((n) => n.startsWith('orders.listJsons.')).sort()).toEqual([
      'orders.listJsons.',
      'orders.listJsons.a',
      'orders.listJsons.r',
      'orders.listJsons.s',
    ]);
    const alone = [];
    for (const l of lookups) alone.push(await findPage(t.pool, l));
    expect(together).toEqual(alone);
    expect(together.map((page) => page.length)).toEqual([5, 7, 5, 0, 3, 8, 4, 2, 5]);
  });

  it("details: each brand gets its own orders, and not another brand's", async () => {
    const { brands, refs } = await twoBrands();
    const [a, b] = brands.map((brand) => brand.brandId) as [string, string];
    const repo = ordersRepository(t.pool);
    const asks: Array<[string, string, typeof LINKS]> = [
      [refs[0]![0]!, a, LINKS],
      [refs[1]![0]!, b, OTHER_LINKS],
      [refs[1]![1]!, a, LINKS], // b's order asked for by a: not found
      [refs[0]![0]!, a, LINKS], // twice in one turn
      ['DLV-0000000000', a, LINKS],
      [refs[0]![5]!, a, OTHER_LINKS],
    ];
    const { result: together, names } = await namesOf(() =>
      Promise.all(asks.map(([ref, brandId, links]) => repo.findDetailJson(ref, brandId, links))),
    );
    expect(names).toEqual(['orders.findDetailJsons']);
    const alone = [];
    for (const [ref, brandId, links] of asks) {
      // One at a time: each runs alone, by the single statement.
      alone.push(await repo.findDetailJson(ref, brandId, links));
    }
    expect(together).toEqual(alone);
    expect(
      together.map((json) =>
        json === null
          ? null
          : (JSON.parse(json) as { tracking_url: string }).tracking_url.split('/track/')[0],
      ),
    ).toEqual([
      'https://suivi.example.fr',
      'https://ailleurs.example.fr',
      null,
      'https://suivi.example.fr',
      null,
      'https://ailleurs.example.fr',
    ]);
  });
});
