import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { pickupIdFor } from '../src/domain/pickups/pickup-day.ts';
import { Browser, createUser, csrfOf, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { API, call, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

/**
 * The audit trail (issue 38): each kind of change by an operator's credential, the CLI, a courier
 * and a brand's person writes its row with the right author, in the change's own transaction; a
 * failed change writes none; the public API's own writes write none. A database of its own: it
 * issues every brand's invoices and plans whole days.
 */
let t: ScratchTestApp;
// Wednesday 14 October 2026, 10:00 in Paris: October's orders, invoiced on 1 November.
let now = new Date('2026-10-14T08:00:00Z');
const OPS_TOKEN = 'audit-ops-token-0123456789abcdefghij';
const OPS = { authorization: `Bearer ${OPS_TOKEN}`, 'user-agent': 'audit-test/1.0' };
const CLI_LABEL = `${os.userInfo().username}@${os.hostname()}`;
// Nobody's data may reach the trail: the orders below carry these.
const RECIPIENT = { delivery_recipient: 'Camille Tracepersonne', delivery_phone: '06 98 76 54 32' };
const ORDER = { ...VALID_ORDER, ...RECIPIENT, customer_email: 'camille.trace@example.com' };

let brand: TestBrand;

beforeAll(async () => {
  t = await buildScratchTestApp({ config: { opsToken: OPS_TOKEN }, clock: () => now });
  brand = await createBrandWithKey(t.deps, { name: 'Maison Audit' });
}, 60_000);
afterAll(() => t.close());

interface Row {
  id: string;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  action: string;
  object_type: string;
  object_id: string;
  brand_id: string | null;
  order_refs: string[];
  changes: Record<string, unknown> | null;
  details: Record<string, unknown> | null;
}

/** The trail's rows matching `where`, oldest first. */
async function rows(where: string, values: unknown[] = []): Promise<Row[]> {
  const { rows } = await t.pool.query<Row>(
    `SELECT id::text, actor_kind, actor_id, actor_label, client_address, user_agent, request_id, action,
        object_type, object_id, brand_id, order_refs, changes, details
      FROM audit_events WHERE ${where} ORDER BY id`,
    values,
  );
  return rows;
}
const ofOrder = (ref: string) => rows('$1 = ANY(order_refs)', [ref]);
const lastId = async () =>
  (await t.pool.query('SELECT coalesce(max(id), 0)::text AS id FROM audit_events')).rows[0].id;
const since = (id: string, where = 'true', values: unknown[] = []) =>
  rows(`id > $${values.length + 1} AND ${where}`, [...values, id]);

const BOOTSTRAP = { actor_kind: 'bootstrap', actor_id: null, actor_label: 'OPS_TOKEN' };
const CLI = { actor_kind: 'cli', actor_id: CLI_LABEL, actor_label: CLI_LABEL };

interface RoundJson {
  id: string;
  stops: (
    | { kind: 'pickup'; pickup: { id: string } }
    | { kind: 'delivery'; order: { tracking_ref: string } }
  )[];
}
const stopsOf = (r: RoundJson) =>
  r.stops.map((s) => (s.kind === 'pickup' ? s.pickup.id : s.order.tracking_ref));
const deliveries = (r: RoundJson) =>
  r.stops.flatMap((s) => (s.kind === 'delivery' ? [s.order.tracking_ref] : []));

const ops = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  call(t.app, {
    method,
    url: `/ops/v1${url}`,
    headers: OPS,
    remoteAddress: '10.20.30.40',
    ...(payload !== undefined && { payload }),
  });

async function newOrder(owner: TestBrand = brand, body: object = ORDER): Promise<string> {
  const res = await createOrder(t.app, owner, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.data.trackingRef as string;
}

describe("the brand's own writes", () => {
  it('an order created or cancelled with its API key writes no row: the hot path does no more work', async () => {
    const ref = await newOrder();
    const cancelled = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${ref}/cancel`,
      headers: brand.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await ofOrder(ref)).toEqual([]);
  });
});

describe('the operations API (the bootstrap OPS_TOKEN)', () => {
  it("records a read of the recipient's data and a status move, with where they came from; a refused move writes nothing", async () => {
    const ref = await newOrder();
    const read = await ops('GET', `/orders/${ref}`);
    expect(read.statusCode).toBe(200);
    const moved = await ops('POST', `/orders/${ref}/status`, {
      status: 'picked_up',
      note: 'Camille at the depot',
    });
    expect(moved.statusCode).toBe(200);
    const refused = await ops('POST', `/orders/${ref}/status`, { status: 'delivered' });
    expect(refused.statusCode).toBe(422);
    const unknown = await ops('POST', `/orders/${ref}/status`, { status: 'lost' });
    expect(unknown.statusCode).toBe(400);

    const [readRow, movedRow, ...more] = await ofOrder(ref);
    expect(more).toEqual([]);
    expect(readRow).toMatchObject({
      ...BOOTSTRAP,
      client_address: '10.20.30.40',
      user_agent: 'audit-test/1.0',
      request_id: read.headers['x-request-id'],
      action: 'recipient.read',
      object_type: 'order',
      object_id: ref,
      brand_id: brand.brandId,
      changes: null,
      details: { view: 'order' },
    });
    expect(movedRow).toMatchObject({
      ...BOOTSTRAP,
      request_id: moved.headers['x-request-id'],
      action: 'order.status_changed',
      order_refs: [ref],
      changes: { status: { before: 'pending', after: 'picked_up' } },
    });
  });

  it('writes the row in the change’s own statement: when the row cannot be written, the order does not move', async () => {
    const ref = await newOrder();
    // A row refused by the database (as a full disk or a lost connection would) fails its change.
    await t.pool.query(`CREATE FUNCTION audit_refuse_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit row refused for the test'; END $$`);
    await t.pool.query(`CREATE TRIGGER audit_refuse_test BEFORE INSERT ON audit_events FOR EACH ROW
      WHEN (NEW.object_id IN ('${ref}', 'cou_refused_000000')) EXECUTE FUNCTION audit_refuse_test()`);
    try {
      const moved = await ops('POST', `/orders/${ref}/status`, { status: 'picked_up' });
      expect(moved.statusCode).toBe(500);
      const order = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
      expect(order.data.order.status).toBe('pending');
      expect(order.data.order.events).toHaveLength(1);
    } finally {
      await t.pool.query('DROP TRIGGER audit_refuse_test ON audit_events');
      await t.pool.query('DROP FUNCTION audit_refuse_test()');
    }
    expect(await ofOrder(ref)).toEqual([]);
  });

  it("issues a month by `system`, and the operator's cancellation of a billed order writes its credit note's row", async () => {
    const ref = await newOrder();
    now = new Date('2026-11-01T00:10:00Z');
    const issued = await t.deps.invoices.issueDue();
    const invoiceId = invoiceIdFor(brand.brandId, '2026-10');
    expect(issued.issued.map((i) => i.id)).toEqual([invoiceId]);
    expect(await rows('object_id = $1', [invoiceId])).toMatchObject([
      {
        actor_kind: 'system',
        actor_id: 'invoices_issue_due',
        action: 'invoice.issued',
        brand_id: brand.brandId,
        changes: {
          status: { before: 'draft', after: 'issued' },
          number: { before: null, after: 'F2026-000001' },
        },
      },
    ]);

    const cancelled = await ops('POST', `/orders/${ref}/status`, { status: 'cancelled' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Both rows are the cancellation's transaction's; found by action, not by their order of writing.
    const written = await ofOrder(ref);
    expect(written).toHaveLength(2);
    const move = written.find((row) => row.action === 'order.status_changed');
    const credit = written.find((row) => row.action === 'credit_note.issued');
    expect(move).toMatchObject({ ...BOOTSTRAP, action: 'order.status_changed' });
    expect(credit).toMatchObject({
      ...BOOTSTRAP,
      action: 'credit_note.issued',
      object_type: 'credit_note',
      request_id: cancelled.headers['x-request-id'],
      changes: { number: { before: null, after: 'A2026-000001' } },
      details: { invoice_id: invoiceId },
    });
  });

  it('records the couriers, the scans, the pickups and the rounds it changes, and the rounds it reads', async () => {
    // Tuesday 24 November 2026, 10:00 in Paris: the day's pickup, then the rounds.
    now = new Date('2026-11-24T09:00:00Z');
    const day = '2026-11-24';
    const [a, b, c] = [await newOrder(), await newOrder(), await newOrder()];
    const pickupId = pickupIdFor(brand.brandId, TEST_PICKUP_ADDRESS, day);

    const added = await ops('POST', '/couriers', {
      email: uniqueEmail('audit.courier'),
      name: 'Sam Livreur',
    });
    expect(added.statusCode, added.body).toBe(201);
    const courierId = added.data.courier.id as string;
    const reset = await ops('POST', `/couriers/${courierId}/password`);
    expect(reset.statusCode).toBe(200);
    const courierRows = await rows('object_id = $1', [courierId]);
    expect(courierRows.map((r) => [r.action, r.actor_kind, r.changes])).toEqual([
      [
        'courier.added',
        'bootstrap',
        { name: 'changed', email: 'changed', locale: { before: null, after: 'fr' } },
      ],
      ['courier.password_reset', 'bootstrap', { password: 'changed' }],
    ]);

    const pickupScan = {
      id: randomUUID(),
      context: 'pickup',
      code: a,
      happened_at: '2026-11-24T10:30:00+01:00',
    };
    const scanned = await ops('POST', '/scans', { scans: [pickupScan] });
    expect(scanned.data.results[0].result).toBe('applied');
    expect(await rows('object_id = $1', [pickupScan.id])).toMatchObject([
      {
        ...BOOTSTRAP,
        action: 'scan.recorded',
        object_type: 'scan',
        order_refs: [a],
        changes: { status: { before: 'pending', after: 'picked_up' } },
        details: { context: 'pickup', courier_id: null },
      },
    ]);

    now = new Date('2026-11-24T15:00:00Z');
    const closed = await ops('POST', `/pickups/${pickupId}/close`, { scanned: [b] });
    expect(closed.statusCode, closed.body).toBe(200);
    const [pickupRow] = await rows("action = 'pickup.closed' AND object_id = $1", [pickupId]);
    expect(pickupRow).toMatchObject({
      ...BOOTSTRAP,
      changes: { status: { before: 'planned', after: 'partially_collected' } },
      details: { collected: 2, missing: 1 },
    });
    expect([...pickupRow!.order_refs].sort()).toEqual([a, b, c].sort());
    expect((await ofOrder(b)).map((r) => [r.action, r.actor_kind])).toEqual([
      ['order.status_changed', 'bootstrap'],
      ['pickup.closed', 'bootstrap'],
    ]);

    await t.pool.query('UPDATE orders SET promised_date = $2 WHERE tracking_ref = ANY($1)', [[a, b], day]);
    const planned = await ops('POST', '/rounds/plan', { date: day });
    expect(planned.statusCode, planned.body).toBe(200);
    // Every order due that day is planned (this file's earlier ones too): one sort code, one round.
    const round = (planned.data.rounds as RoundJson[]).find((r) => deliveries(r).includes(a))!;
    const due = deliveries(round);
    expect(due).toEqual(expect.arrayContaining([a, b]));
    const [planRow] = await rows("action = 'round.planned' AND object_id = $1", [round.id]);
    expect(planRow).toMatchObject({ ...BOOTSTRAP, details: { date: day } });
    expect([...planRow!.order_refs].sort()).toEqual([...due].sort());
    expect(planRow!.changes).toEqual({ stops: { before: null, after: stopsOf(round) } });

    const before = await lastId();
    expect((await ops('GET', `/rounds?date=${day}`)).statusCode).toBe(200);
    expect((await ops('GET', `/rounds/${round.id}`)).statusCode).toBe(200);
    const reads = await since(before);
    const dayRefs = (planned.data.rounds as RoundJson[]).flatMap(deliveries).sort();
    expect(
      reads.map((r) => [r.action, r.object_type, r.object_id, r.actor_kind, [...r.order_refs].sort()]),
    ).toEqual([
      ['recipient.read', 'day', day, 'bootstrap', dayRefs],
      ['recipient.read', 'round', round.id, 'bootstrap', [...due].sort()],
    ]);

    const assigned = await ops('PATCH', `/rounds/${round.id}`, { courier_id: courierId });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await rows("action = 'round.assigned' AND object_id = $1", [round.id])).toMatchObject([
      { ...BOOTSTRAP, changes: { courier_id: { before: null, after: courierId } } },
    ]);
    const reordered = await ops('PUT', `/rounds/${round.id}/stops`, { stops: [{ tracking_ref: b }] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(await rows("action = 'round.stops_set' AND object_id = $1", [round.id])).toMatchObject([
      {
        ...BOOTSTRAP,
        order_refs: due.filter((r) => r !== b),
        changes: { stops: { before: stopsOf(round), after: [b] } },
      },
    ]);
    const created = await ops('POST', '/rounds', {
      date: '2026-11-25',
      name: 'Extra',
      stops: [{ tracking_ref: a }],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await rows("action = 'round.created' AND object_id = $1", [created.data.round.id])).toMatchObject([
      {
        ...BOOTSTRAP,
        order_refs: [a],
        changes: {
          name: { before: null, after: 'Extra' },
          date: { before: null, after: '2026-11-25' },
          stops: { before: null, after: [a] },
        },
      },
    ]);

    const disabled = await ops('POST', `/couriers/${courierId}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect((await ops('POST', `/couriers/${courierId}/disable`)).statusCode).toBe(200);
    expect(await rows("action = 'courier.disabled' AND object_id = $1", [courierId])).toHaveLength(1);
    // A refused change writes nothing: a round for a disabled courier.
    const before2 = await lastId();
    expect((await ops('PATCH', `/rounds/${round.id}`, { courier_id: courierId })).statusCode).toBe(422);
    expect(await since(before2)).toEqual([]);
  });
});

describe('the courier app (a signed-in courier)', () => {
  it("records the courier's scans under their own id, with their phone's address and browser", async () => {
    now = new Date('2026-11-24T09:00:00Z');
    // A brand of its own: its pickup holds only this parcel.
    const ref = await newOrder(await createBrandWithKey(t.deps));
    const email = uniqueEmail('audit.scanner');
    const { courier } = await t.deps.couriers.add(
      { email, name: 'Gil', password: PASSWORD, locale: 'en' },
      testOperator,
    );
    const browser = new Browser(t.app, '10.8.0.77');
    expect(
      (await browser.submit('/courier/login', '/courier/login', { email, password: PASSWORD })).status,
    ).toBe(303);
    const me = JSON.parse((await browser.get('/courier/api/v1/me')).body);
    const headers = {
      cookie: `dlv_courier_session=${browser.cookies.get('dlv_courier_session')}`,
      'x-csrf-token': me.csrf_token as string,
      'user-agent': 'courier-phone/2.0',
    };
    const scans = [
      { id: randomUUID(), context: 'pickup', code: ref, happened_at: '2026-11-24T10:00:00+01:00' },
      { id: randomUUID(), context: 'hub', code: ref, happened_at: '2026-11-24T10:05:00+01:00' },
    ];
    const answer = await call(t.app, {
      method: 'POST',
      url: '/courier/api/v1/scans',
      headers,
      remoteAddress: '10.8.0.77',
      payload: { scans },
    });
    expect(answer.data.results.map((r: { result: string }) => r.result)).toEqual(['applied', 'applied']);
    const found = await ofOrder(ref);
    expect(found.map((r) => [r.action, r.object_id, r.changes])).toEqual([
      ['scan.recorded', scans[0]!.id, { status: { before: 'pending', after: 'picked_up' } }],
      ['scan.recorded', scans[1]!.id, { status: { before: 'picked_up', after: 'in_transit' } }],
    ]);
    for (const row of found)
      expect(row).toMatchObject({
        actor_kind: 'courier',
        actor_id: courier.id,
        client_address: '10.8.0.77',
        user_agent: 'courier-phone/2.0',
        request_id: answer.headers['x-request-id'],
        details: { courier_id: courier.id },
      });
  });
});

describe('dlv (the operating system user at its host)', () => {
  const env = () => ({
    DATABASE_URL: t.databaseUrl,
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    WEBHOOKS_ALLOW_INSECURE: '1',
  });
  async function dlv(...args: string[]) {
    const res = await runDlv([...args, '--json'], env());
    expect(res.code, `dlv ${args.join(' ')}: ${res.stderr}`).toBe(0);
    return JSON.parse(res.stdout);
  }
  /** The rows `dlv …` wrote: each by the CLI, none with an origin. */
  async function written(after: string) {
    const found = await since(after);
    for (const row of found)
      expect(row).toMatchObject({ ...CLI, client_address: null, user_agent: null, request_id: null });
    return found.map((r) => [r.action, r.object_id]);
  }

  it('records brands, keys, grids and webhooks as the CLI changes them', async () => {
    let mark = await lastId();
    const created = await dlv('brands', 'create', '--name', 'Maison Ligne de commande');
    const brandId = created.id as string;
    await dlv('brands', 'allow-webhooks', brandId);
    const key = await dlv('keys', 'create', '--brand', brandId, '--scopes', 'orders:read');
    await dlv('keys', 'revoke', key.id);
    const grid = fileURLToPath(new URL('../data/example-grid.csv', import.meta.url));
    await dlv('grids', 'import', grid, '--brand', brandId);
    expect(await written(mark)).toEqual([
      ['brand.created', brandId],
      ['brand.settings_changed', brandId],
      ['api_key.created', key.id],
      ['api_key.revoked', key.id],
      ['grid.imported', brandId],
    ]);
    const [, allowed, keyRow, , gridRow] = await since(mark);
    expect(allowed!.changes).toEqual({ webhooks_allowed: { before: false, after: true } });
    expect(keyRow!.changes).toEqual({ scopes: { before: null, after: ['orders:read'] } });
    expect(gridRow!.details).toEqual({ source: 'example-grid.csv', format: 'csv' });
    expect(JSON.stringify(keyRow)).not.toContain(key.key);

    mark = await lastId();
    const hook = await dlv('webhooks', 'add', '--brand', brandId, '--url', 'http://127.0.0.1:9/hook');
    await dlv('webhooks', 'disable', hook.id);
    await dlv('webhooks', 'enable', hook.id);
    const rotated = await dlv('webhooks', 'rotate-secret', hook.id);
    await dlv(
      'webhooks',
      'replay',
      '--since',
      new Date(Date.now() - 3600_000).toISOString(),
      '--endpoint',
      hook.id,
    );
    await dlv('brands', 'disable', brandId);
    expect(await written(mark)).toEqual([
      ['webhook.endpoint_added', hook.id],
      ['webhook.endpoint_disabled', hook.id],
      ['webhook.endpoint_enabled', hook.id],
      ['webhook.secret_rotated', hook.id],
      ['webhook.replayed', hook.id],
      ['brand.disabled', brandId],
    ]);
    const all = JSON.stringify(await since(mark));
    expect(all).not.toContain(hook.secret);
    expect(all).not.toContain(rotated.secret);
  }, 120_000);

  it("records the sort codes, the brands' webhook requests answered and the recipients' opt-outs", async () => {
    const requestId = `whr_${randomBytes(8).toString('hex')}`;
    await t.pool.query(
      `INSERT INTO webhook_requests (id, brand_id, url, event_types, message, created_at)
        VALUES ($1, $2, 'https://hooks.example.com/in', '{order.created}', 'please', now())`,
      [requestId, brand.brandId],
    );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'audit-sort-codes-'));
    const table = path.join(dir, 'codes.csv');
    await writeFile(table, 'postcode,sort_code\n75011,EST-11\n93,NORD-93\n');
    const optedOut = uniqueEmail('opt.out');
    const mark = await lastId();
    try {
      await dlv('sort-codes', 'import', table);
      await dlv('webhooks', 'requests', 'close', requestId, '--declined');
      await dlv('recipients', 'opt-out', '--email', optedOut);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(await written(mark)).toEqual([
      ['sort_codes.imported', 'table'],
      ['webhook.request_closed', requestId],
      ['recipient.opted_out', 'request by email'],
    ]);
    const [codes, request, optOut] = await since(mark);
    expect(codes!.changes).toEqual({ rules: { before: 0, after: 2 } });
    expect(request).toMatchObject({
      brand_id: brand.brandId,
      changes: { status: { before: 'open', after: 'declined' } },
    });
    expect(optOut!.details).toEqual({ channel: 'email' });
    expect(JSON.stringify(optOut)).not.toContain(optedOut);
  }, 60_000);

  it("records orders, couriers, rounds, pickups, invoices and erasures, and the operator's reads", async () => {
    now = new Date('2026-11-24T09:00:00Z');
    const other = await createBrandWithKey(t.deps, { name: 'Maison CLI' });
    const [ref, kept] = [await newOrder(other), await newOrder(other)];
    const pickupId = pickupIdFor(other.brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    const invoiceId = invoiceIdFor(brand.brandId, '2026-10');

    const mark = await lastId();
    await dlv('orders', 'show', ref);
    await dlv('recipients', 'notifications', ref);
    await dlv('pickups', 'close', pickupId, '--scanned', ref);
    await dlv('orders', 'set-status', ref, 'in_transit');
    const courier = await dlv('couriers', 'add', '--email', uniqueEmail('cli.courier'), '--name', 'Lou');
    const courierId = courier.courier.id as string;
    await dlv('couriers', 'reset-password', courierId);
    await t.pool.query('UPDATE orders SET promised_date = $2 WHERE tracking_ref = $1', [ref, '2026-11-26']);
    const plan = await dlv('rounds', 'plan', '--date', '2026-11-26');
    const roundId = (plan.rounds as { id: string; stops: unknown[] }[])[0]!.id;
    await dlv('rounds', 'list', '--date', '2026-11-26');
    await dlv('rounds', 'assign', roundId, courierId);
    await dlv('couriers', 'disable', courierId);
    await dlv('invoices', 'mark-paid', invoiceId);
    expect(await written(mark)).toEqual([
      ['recipient.read', ref],
      ['recipient.read', ref],
      ['order.status_changed', ref],
      ['pickup.closed', pickupId],
      ['order.status_changed', ref],
      ['courier.added', courierId],
      ['courier.password_reset', courierId],
      ['round.planned', roundId],
      ['recipient.read', '2026-11-26'],
      ['round.assigned', roundId],
      ['courier.disabled', courierId],
      ['invoice.paid', invoiceId],
    ]);
    const found = await since(mark);
    expect(found[1]!.details).toEqual({ view: 'notifications' });
    expect(found[3]!.order_refs.sort()).toEqual([ref, kept].sort());
    expect(found[4]!.changes).toEqual({ status: { before: 'picked_up', after: 'in_transit' } });
    expect(found[11]!.changes).toMatchObject({ status: { before: 'issued', after: 'paid' } });

    // An erasure names the orders it erased, never whose data it was.
    const email = uniqueEmail('erase.me');
    const erasable = await newOrder(other, { ...ORDER, customer_email: email });
    await call(t.app, { method: 'POST', url: `${API}/orders/${erasable}/cancel`, headers: other.headers });
    const before = await lastId();
    const erased = await dlv('recipients', 'erase', '--email', email);
    expect(erased.orders).toEqual([erasable]);
    const [erasure] = await since(before);
    expect(erasure).toMatchObject({
      ...CLI,
      action: 'recipient.erased',
      object_type: 'recipient',
      object_id: 'request by email',
      order_refs: [erasable],
      details: { orders: 1 },
    });
    expect(JSON.stringify(erasure)).not.toContain(email);

    // Refused (an order on its way): nothing erased, nothing recorded.
    const moving = uniqueEmail('moving');
    await newOrder(other, { ...ORDER, customer_email: moving });
    const mark2 = await lastId();
    const refused = await runDlv(['recipients', 'erase', '--email', moving], env());
    expect(refused.code).toBe(1);
    expect(await since(mark2)).toEqual([]);
  }, 180_000);
});

describe("the account area (a brand's person)", () => {
  it('records the keys and the brand settings its people change, under the person and their browser', async () => {
    const user = await createUser(t.deps, { role: 'owner' });
    const b = new Browser(t.app, '10.3.0.9');
    await b.signIn(user.email, PASSWORD);
    const mark = await lastId();
    const created = await b.submit('/account/keys', '/account/keys', {
      name: 'Shop',
      scopes: ['orders:read'],
      password: PASSWORD,
    });
    expect(created.status).toBe(303);
    const listed = await b.get('/account/keys');
    const keyId = listed.body.match(/\/account\/keys\/(key_[0-9a-f]{16})\/revoke/)![1]!;
    const confirm = await b.get(`/account/keys/${keyId}/revoke`);
    expect((await b.post(`/account/keys/${keyId}/revoke`, { _csrf: csrfOf(confirm.body) })).status).toBe(303);
    const csrf = csrfOf((await b.get('/account/company')).body);
    const company = await b.post('/account/company', {
      _csrf: csrf,
      legal_name: 'Maison Audit SARL',
      billing_address: '3 rue de Rivoli\n75004 Paris',
      siren: '732 829 320',
      vat_number: '',
      pickup_address: '',
    });
    expect(company.status).toBe(303);
    const notifications = await b.submit('/account/notifications', '/account/notifications', {
      email_steps: ['confirmed', 'delivered'],
      sms_steps: [],
      sender_name: 'Maison Audit',
      colour: '',
      locale: 'fr',
    });
    expect(notifications.status).toBe(303);

    const found = await since(mark);
    expect(found.map((r) => [r.action, r.object_id])).toEqual([
      ['api_key.created', keyId],
      ['api_key.revoked', keyId],
      ['brand.settings_changed', user.brandId],
      ['brand.settings_changed', user.brandId],
    ]);
    for (const row of found)
      expect(row).toMatchObject({
        actor_kind: 'user',
        actor_id: user.userId,
        brand_id: user.brandId,
        client_address: '10.3.0.9',
        user_agent: 'lightMyRequest',
        request_id: expect.stringMatching(/^req_/),
      });
    expect(found[2]!.changes).toMatchObject({
      legal_name: { before: null, after: 'Maison Audit SARL' },
      siren: { before: null, after: expect.stringMatching(/732 ?829 ?320/) },
    });
    expect(found[3]!.changes).toMatchObject({ sender_name: { before: null, after: 'Maison Audit' } });
    expect(found[3]!.details).toEqual({ settings: 'recipient_notifications' });
  });
});

describe('scheduled jobs (`system`)', () => {
  it("records the retention's erasures by the job's name", async () => {
    const ref = await newOrder();
    await t.pool.query(
      "UPDATE orders SET status = 'delivered', updated_at = '2025-06-01T00:00:00Z' WHERE tracking_ref = $1",
      [ref],
    );
    const run = await t.deps.recipientData.anonymiseExpired();
    expect(run.orders).toBeGreaterThan(0);
    const [row] = await rows("action = 'recipient.erased' AND $1 = ANY(order_refs)", [ref]);
    expect(row).toMatchObject({
      actor_kind: 'system',
      actor_id: 'recipient_data_anonymise',
      object_id: 'retention',
      details: expect.objectContaining({ orders: expect.any(Number) }),
    });
  });
});

describe('what the trail holds', () => {
  it("never a recipient's name, phone or e-mail: references only", async () => {
    const { rows: found } = await t.pool.query('SELECT count(*)::int AS n FROM audit_events');
    expect(found[0].n).toBeGreaterThan(30);
    const { rows: leaks } = await t.pool.query(
      `SELECT id FROM audit_events WHERE audit_events::text ILIKE ANY($1)`,
      [['%Tracepersonne%', '%98 76 54 32%', '%+33698765432%', '%camille.trace%']],
    );
    expect(leaks).toEqual([]);
  });
});
