/**
 * A recipient's personal data (issue 36, item 32; docs/security.md "Personal data"): erased from an
 * order and everything copied from it RECIPIENT_DATA_RETENTION_DAYS (365) after the order ended, or
 * at once on the recipient's request (`dlv recipients erase`), refused while one of their orders is
 * on its way. What invoices and statistics need stays; the order's stored JSON is rendered again.
 * On a database of its own: the retention erases every old order, whoever made it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyTransact } from '../src/db/privacy-stores.ts';
import { ENDED_SQL, recipientDataRepository } from '../src/db/repositories/recipient-data-repository.ts';
import { orderJson, STORED_JSON_VERSION } from '../src/domain/orders/order-json.ts';
import { recipientDataService } from '../src/domain/privacy/recipient-data-service.ts';
import { addressKeys } from '../src/domain/recipients/address-key.ts';
import { fsObjectStore } from '../src/infra/object-store/fs-object-store.ts';
import { ANONYMISE_RECIPIENT_DATA } from '../src/jobs/anonymise-recipient-data.ts';
import { CRONTAB, taskList } from '../src/jobs/index.ts';
import { API, call, createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { recordAttempt } from './support/proofs.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

const DAY = 24 * 3600 * 1000;
let now = new Date();
let t: ScratchTestApp;
let dataDir: string;
let objects: ReturnType<typeof fsObjectStore>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dlv-erasure-'));
  objects = fsObjectStore(path.join(dataDir, 'objects'));
  t = await buildScratchTestApp({ config: { dataDir }, clock: () => now });
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const unique = () => randomUUID().slice(0, 8);

type Fate = 'delivered' | 'cancelled' | 'returned' | 'out_for_delivery';

/**
 * An order of `brand` that reached `fate` `days` ago: delivered with its proof (photo, signature,
 * received_by, position) and an operator's free-text note, or cancelled, or returned after three
 * failed attempts, or still out for delivery.
 */
async function orderThat(
  fate: Fate,
  days: number,
  options: { brand?: TestBrand; body?: Record<string, unknown>; idempotencyKey?: string } = {},
) {
  now = daysAgo(days);
  try {
    const brand = options.brand ?? (await createBrandWithKey(t.deps));
    const created = await createOrder(
      t.app,
      brand,
      { ...VALID_ORDER, reference: `CMD-${unique()}`, ...options.body },
      options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {},
    );
    expect(created.statusCode, created.body).toBe(200);
    const ref = created.data.trackingRef as string;
    const { rows } = await t.pool.query<{ id: number }>('SELECT id FROM orders WHERE tracking_ref = $1', [
      ref,
    ]);
    const orderId = rows[0]!.id;
    let attempt: Awaited<ReturnType<typeof recordAttempt>> | null = null;
    if (fate === 'cancelled') await t.deps.orders.cancel(brand.brandId, ref);
    else {
      for (const status of ['picked_up', 'in_transit', 'out_for_delivery'])
        await t.deps.orders.setStatus(ref, status, null, testOperator);
      if (fate === 'delivered') {
        attempt = await recordAttempt(t, orderId, { happenedAt: now, receivedBy: 'Mme Martin, gardienne' });
        await t.deps.orders.setStatus(
          ref,
          'delivered',
          'Left with the caretaker, Mme Martin, 2nd floor',
          testOperator,
        );
      }
      if (fate === 'returned') {
        for (let i = 0; i < 3; i++) {
          await t.deps.orders.setStatus(ref, 'failed_attempt', null, testOperator);
          await t.deps.orders.setStatus(ref, i < 2 ? 'out_for_delivery' : 'returned', null, testOperator);
        }
      }
    }
    return { brand, ref, orderId, attempt };
  } finally {
    now = new Date();
  }
}

/** The rows a recipient leaves around an order: a notification, a code, choices, a shop's payload and problem. */
async function recipientRows(order: { brand: TestBrand; orderId: number; ref: string }) {
  const shop = `erase-${unique()}.myshopify.com`;
  const connection = `con_${hex(8)}`;
  const external = `gid://shopify/Order/${Date.now()}${Math.floor(Math.random() * 1000)}`;
  await t.pool.query(
    `INSERT INTO recipient_notifications (id, order_id, step, channel, status, detail, provider_id)
     VALUES ($1, $2, 'delivered', 'email', 'failed', '550 5.1.1 <jane@example.com>: user unknown', '<m1@dlv>')`,
    [`ntf_${hex(8)}`, order.orderId],
  );
  await t.pool.query(
    `INSERT INTO recipient_codes (id, order_id, channel, code_hash, expires_at)
     VALUES ($1, $2, 'sms', $3, now() + interval '10 minutes')`,
    [`rcd_${hex(8)}`, order.orderId, randomBytes(32)],
  );
  await t.pool.query(
    `INSERT INTO recipient_choices (order_id, instructions_sealed, safe_place, safe_place_sealed)
     VALUES ($1, $2, 'caretaker', $2)`,
    [order.orderId, randomBytes(48)],
  );
  await t.pool.query(
    `INSERT INTO connector_connections (id, brand_id, platform, shop, status, credentials, created_at, updated_at)
     VALUES ($1, $2, 'shopify', $3, 'active', '\\x00', now(), now())`,
    [connection, order.brand.brandId, shop],
  );
  await t.pool.query(
    `INSERT INTO connector_orders (connection_id, external_id, external_name, order_id, tracking_ref, created_at)
     VALUES ($1, $2, '#1001', $3, $4, now())`,
    [connection, external, order.orderId, order.ref],
  );
  await t.pool.query(
    `INSERT INTO connector_inbox (platform, delivery_id, shop, topic, external_order_id, payload, received_at)
     VALUES ('shopify', $1, $2, 'orders/paid', $3, '{"shipping_address":{"name":"Jane Doe"}}', now())`,
    [randomUUID(), shop, external],
  );
  await t.pool.query(
    `INSERT INTO connector_problems (id, connection_id, brand_id, kind, external_id, message, created_at)
     VALUES ($1, $2, $3, 'not_cancellable', $4, 'Jane Doe''s order was already picked up', now())`,
    [`cpb_${hex(8)}`, connection, order.brand.brandId, external],
  );
  return { shop, external };
}

/** Everything personal the database still holds about an order. */
async function leftOf(orderId: number) {
  const one = async (sql: string) => (await t.pool.query(sql, [orderId])).rows[0];
  return {
    order: await one(
      `SELECT customer_email, delivery_address, delivery_recipient, delivery_phone, delivery_email,
              CASE WHEN coalesce(delivery_lat, delivery_lng) IS NOT NULL OR delivery_location_source IS NOT NULL
                   THEN 'kept' END AS delivery_location, address_warnings,
              anonymised_at IS NOT NULL AS anonymised, json_version, json_rest,
              (SELECT array_agg(e->>'note') FROM json_array_elements(history) e) AS notes
         FROM orders WHERE id = $1`,
    ),
    attempts: (
      await t.pool.query(
        `SELECT outcome, received_by, latitude, photo_key, signature_key, files_erased_at IS NOT NULL AS erased
           FROM delivery_attempts WHERE order_id = $1`,
        [orderId],
      )
    ).rows,
    notifications: (await one('SELECT count(*)::int AS n FROM recipient_notifications WHERE order_id = $1'))
      .n,
    codes: (await one('SELECT count(*)::int AS n FROM recipient_codes WHERE order_id = $1')).n,
    choices: (await one('SELECT count(*)::int AS n FROM recipient_choices WHERE order_id = $1')).n,
    inbox: (
      await one(
        `SELECT count(*)::int AS n FROM connector_inbox i JOIN connector_orders co ON co.external_id = i.external_order_id
          WHERE co.order_id = $1 AND i.payload IS NOT NULL`,
      )
    ).n,
    problems: (
      await one(
        `SELECT count(*)::int AS n FROM connector_problems p JOIN connector_orders co
            ON co.connection_id = p.connection_id AND co.external_id = p.external_id WHERE co.order_id = $1`,
      )
    ).n,
  };
}

const detail = async (order: { brand: TestBrand; ref: string }) =>
  (await call(t.app, { method: 'GET', url: `${API}/orders/${order.ref}`, headers: order.brand.headers })).data
    .order;
const listed = async (order: { brand: TestBrand; ref: string }) =>
  (
    await call(t.app, { method: 'GET', url: `${API}/orders?limit=100`, headers: order.brand.headers })
  ).data.orders.find((o: { tracking_ref: string }) => o.tracking_ref === order.ref);

const ERASED_FIELDS = {
  customer_email: null,
  delivery_address: null,
  delivery_recipient: null,
  delivery_phone: null,
  delivery_email: null,
  // Where the recipient lives, and the flags quoting the geocoder's reading of the address.
  delivery_location: null,
  address_warnings: [],
};

describe('retention of the recipient’s data', () => {
  it('is an hourly job of the crontab, run through the task list', async () => {
    expect(CRONTAB).toMatch(/^45 \* \* \* \* recipient_data_anonymise \?max=3$/m);
    const old = await orderThat('cancelled', 400);
    const lines: string[] = [];
    const helpers = { logger: { info: (m: string) => lines.push(m), debug: () => {} } };
    await taskList(t.deps).recipient_data_anonymise!({}, helpers as never);
    expect((await leftOf(old.orderId)).order.customer_email).toBeNull();
    expect(lines.join('\n')).toMatch(/erased the recipient's data of \d+ ended orders/);
  });

  it('erases it 365 days after the order ended, keeps what invoices and statistics need, renders the JSON again', async () => {
    const delivered = await orderThat('delivered', 366);
    await recipientRows(delivered);
    const cancelled = await orderThat('cancelled', 400, {
      body: { delivery_email: 'Other.One@Example.com' },
    });
    const returned = await orderThat('returned', 500);
    const recent = await orderThat('delivered', 300);
    const moving = await orderThat('out_for_delivery', 400);
    const before = await detail(delivered);
    expect(before.customer_email).toBe('jane@example.com');
    expect(await objects.exists(delivered.attempt!.photoKey!)).toBe(true);

    now = new Date();
    const run = await t.deps.recipientData.anonymiseExpired();
    expect(run).toMatchObject({ finished: true });
    expect(run.orders).toBeGreaterThanOrEqual(3);
    expect(run.files).toBeGreaterThanOrEqual(2);

    // The API's detail and list say the same, without the recipient; the rest is as it was.
    const after = await detail(delivered);
    expect(after).toMatchObject({
      ...ERASED_FIELDS,
      tracking_ref: before.tracking_ref,
      status: 'delivered',
      reference: before.reference,
      delivery_postcode: '75011',
      delivery_city: before.delivery_city,
      price_eur: before.price_eur,
      price_excl_tax_eur: before.price_excl_tax_eur,
      amount_eur: 49.9,
      promised_date: before.promised_date,
      created_at: before.created_at,
      service: before.service,
    });
    expect(after.updated_at).not.toBe(before.updated_at);
    // Each step's status and time stay; no note (an operator's may name people), and one saying why.
    expect(after.events.slice(0, -1)).toEqual(before.events.map((e: object) => ({ ...e, note: null })));
    expect(after.events.at(-1)).toMatchObject({
      status: 'delivered',
      note: "Recipient's personal data erased: kept 365 days after the order ended (RECIPIENT_DATA_RETENTION_DAYS)",
    });
    // The list has no history nor proof (the detail adds them at each read).
    const { events: _events, proof_of_delivery: proof, failed_attempt: _failed, ...summary } = after;
    expect(await listed(delivered)).toEqual(summary);
    // The proof keeps its fact (when), not who took the parcel nor where.
    expect(proof).toMatchObject({ received_by: null, location: null, photo_url: null, signature_url: null });
    // The stored text is the one the columns render, under the current version: reads never serve the old one.
    const order = await t.deps.orders.getAnyBrand(delivered.ref, testOperator);
    expect(JSON.parse(`{${(await leftOf(delivered.orderId)).order.json_rest}}`)).toEqual(
      Object.fromEntries(
        Object.entries(orderJson(order, t.deps.links)).filter(
          ([k]) => !['tracking_ref', 'tracking_url'].includes(k),
        ),
      ),
    );
    const left = await leftOf(delivered.orderId);
    expect(left.order).toMatchObject({
      ...ERASED_FIELDS,
      anonymised: true,
      json_version: STORED_JSON_VERSION,
    });
    expect(left.order.json_rest).not.toMatch(/jane|Jane|Oberkampf|612345678/);
    expect(left.order.notes.slice(0, -1).every((n: string | null) => n === null)).toBe(true);
    // The proof keeps its facts (delivered, when) without who, where nor the files.
    expect(left.attempts).toEqual([
      {
        outcome: 'delivered',
        received_by: null,
        latitude: null,
        photo_key: null,
        signature_key: null,
        erased: true,
      },
    ]);
    expect(await objects.exists(delivered.attempt!.photoKey!)).toBe(false);
    expect(await objects.exists(delivered.attempt!.signatureKey!)).toBe(false);
    expect(left).toMatchObject({ notifications: 0, codes: 0, choices: 0, problems: 0 });

    for (const ended of [cancelled, returned]) {
      expect((await leftOf(ended.orderId)).order).toMatchObject({ ...ERASED_FIELDS, anonymised: true });
      expect(await detail(ended)).toMatchObject(ERASED_FIELDS);
    }
    // Not ended long enough, or not ended: untouched.
    expect((await detail(recent)).customer_email).toBe('jane@example.com');
    expect((await leftOf(recent.orderId)).attempts[0]).toMatchObject({
      received_by: 'Mme Martin, gardienne',
    });
    expect(await detail(moving)).toMatchObject({
      customer_email: 'jane@example.com',
      delivery_recipient: 'Jane Doe',
    });

    // Idempotent: a second run has nothing to do.
    expect(await t.deps.recipientData.anonymiseExpired()).toEqual({ orders: 0, files: 0, finished: true });
  });

  it('a run cut at its budget is continued a second later by one more job under a key', async () => {
    const added: unknown[][] = [];
    const helpers = {
      logger: { info: () => {}, debug: () => {} },
      addJob: async (...args: unknown[]) => {
        added.push(args);
      },
    };
    const old = await orderThat('cancelled', 370);
    const cut = recipientDataService({
      store: recipientDataRepository(t.pool),
      transact: privacyTransact(t.pool, addressKeys(t.deps.optOutKey.key)),
      objects,
      clock: () => new Date(),
      days: 365,
      budgetMs: 0,
    });
    await ANONYMISE_RECIPIENT_DATA.run({ recipientData: cut }, {}, helpers as never);
    expect((await leftOf(old.orderId)).order.anonymised).toBe(false);
    expect(added).toEqual([
      [
        'recipient_data_anonymise',
        { v: 1 },
        { jobKey: 'recipient_data_anonymise:more', runAt: expect.any(Date) },
      ],
    ]);
    await ANONYMISE_RECIPIENT_DATA.run({ recipientData: t.deps.recipientData }, {}, helpers as never);
    expect(added).toHaveLength(1);
    expect((await leftOf(old.orderId)).order.anonymised).toBe(true);
  });

  it('finds the orders due through its partial index, not by reading the orders whole', async () => {
    // With sequential scans priced out, the planner picks an index that answers the query as written
    // (the index's predicate must be implied by it): orders_anonymise_due_idx, not the primary key.
    const client = await t.pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query(
        `EXPLAIN SELECT id FROM orders o WHERE o.anonymised_at IS NULL AND o.${ENDED_SQL}
           AND o.updated_at < now() ORDER BY o.updated_at LIMIT 200`,
      );
      expect(rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n')).toMatch(
        /Index Scan using orders_anonymise_due_idx/,
      );
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

describe('erasure on request', () => {
  it('erases every order naming the e-mail (any case, customer or delivery), with its notifications, proofs, self-service rows, shop payloads and stored answers', async () => {
    const email = `Erase.Me-${unique()}@Example.com`;
    const brand = await createBrandWithKey(t.deps);
    const asCustomer = await orderThat('delivered', 2, { brand, body: { customer_email: email } });
    const shopRows = await recipientRows(asCustomer);
    const key = `erase-${unique()}`;
    const asRecipient = await orderThat('cancelled', 0, {
      brand,
      body: { customer_email: 'buyer@example.com', delivery_email: email.toLowerCase() },
      idempotencyKey: key,
    });
    const someoneElse = await orderThat('delivered', 2, { brand });
    await t.deps.recipientOptOuts.optOut('email', email.toLowerCase(), 'link');
    expect(
      await t.pool.query('SELECT 1 FROM idempotency_keys WHERE brand_id = $1 AND key = $2', [
        brand.brandId,
        key,
      ]),
    ).toMatchObject({ rowCount: 1 });

    const report = await t.deps.recipientData.erase({
      email: email.toUpperCase(),
      by: testOperator,
    });

    expect(report).toMatchObject({
      orders: [asCustomer.ref, asRecipient.ref].sort(),
      files: 2,
      attempts: 1,
      notifications: 1,
      codes: 1,
      choices: 1,
      problems: 1,
      inboxPayloads: 1,
      idempotencyKeys: 1,
      by: testOperator,
    });
    for (const erased of [asCustomer, asRecipient]) {
      const left = await leftOf(erased.orderId);
      expect(left.order).toMatchObject({
        ...ERASED_FIELDS,
        anonymised: true,
        json_version: STORED_JSON_VERSION,
      });
      expect(left).toMatchObject({ notifications: 0, codes: 0, choices: 0, inbox: 0, problems: 0 });
      expect(await detail(erased)).toMatchObject(ERASED_FIELDS);
      expect((await detail(erased)).events.at(-1).note).toBe(
        "Recipient's personal data erased at their request",
      );
      expect((await listed(erased)).customer_email).toBeNull();
    }
    expect((await leftOf(asCustomer.orderId)).attempts[0]).toMatchObject({
      received_by: null,
      photo_key: null,
    });
    expect(await objects.exists(asCustomer.attempt!.photoKey!)).toBe(false);
    // The shop's payload is gone, its row (the delivery's deduplication) stays.
    const inbox = await t.pool.query('SELECT payload FROM connector_inbox WHERE shop = $1', [shopRows.shop]);
    expect(inbox.rows).toEqual([{ payload: null }]);
    expect(
      await t.pool.query('SELECT 1 FROM idempotency_keys WHERE brand_id = $1 AND key = $2', [
        brand.brandId,
        key,
      ]),
    ).toMatchObject({ rowCount: 0 });
    // Another recipient's order of the same brand: untouched.
    expect(await detail(someoneElse)).toMatchObject({
      customer_email: 'jane@example.com',
      delivery_recipient: 'Jane Doe',
    });
    expect(await objects.exists(someoneElse.attempt!.photoKey!)).toBe(true);
    // The opt-out survives: it is a digest, kept so that the address is never written to again.
    expect(await t.deps.recipientOptOuts.isOptedOut('email', email.toLowerCase())).toBe(true);

    // Erasing again finds nothing.
    expect((await t.deps.recipientData.erase({ email, by: testOperator })).orders).toEqual([]);
  });

  it('erases by phone number, written any way', async () => {
    const digits = String(Date.now()).slice(-8);
    const order = await orderThat('delivered', 1, { body: { delivery_phone: `07 ${digits}` } });
    const report = await t.deps.recipientData.erase({
      phone: `+33 7 ${digits.slice(0, 2)} ${digits.slice(2)}`,
      by: testOperator,
    });
    expect(report.orders).toEqual([order.ref]);
    expect(await detail(order)).toMatchObject(ERASED_FIELDS);
  });

  it('is refused, erasing nothing, while one of the recipient’s orders is on its way', async () => {
    const email = `on-road-${unique()}@example.com`;
    const brand = await createBrandWithKey(t.deps);
    const done = await orderThat('delivered', 3, { brand, body: { customer_email: email } });
    const moving = await orderThat('out_for_delivery', 0, { brand, body: { delivery_email: email } });
    await expect(t.deps.recipientData.erase({ email, by: testOperator })).rejects.toMatchObject({
      code: 'invalid_transition',
      message: `Nothing erased: 1 order of this recipient is not finished (${moving.ref} out_for_delivery). A parcel on its way needs its recipient's name, address and phone: erase again once it is delivered, returned or cancelled (its brand may cancel an order not yet picked up).`,
      details: [{ field: moving.ref, message: 'is out_for_delivery' }],
    });
    expect((await leftOf(done.orderId)).order).toMatchObject({ customer_email: email, anonymised: false });
    expect(await objects.exists(done.attempt!.photoKey!)).toBe(true);
  });

  it('refuses a request naming neither or both, or not an address', async () => {
    const by = testOperator;
    await expect(t.deps.recipientData.erase({ by })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      t.deps.recipientData.erase({ email: 'a@b.fr', phone: '0612345678', by }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(t.deps.recipientData.erase({ email: 'nope', by })).rejects.toThrow(
      'email: must be an e-mail address',
    );
    await expect(t.deps.recipientData.erase({ phone: '12', by })).rejects.toThrow(
      /phone: must be a valid phone number/,
    );
  });
});

describe('dlv recipients erase', () => {
  const env = () => ({ DATABASE_URL: t.databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

  it('prints what it erased, in words or as JSON; nothing found is no error', async () => {
    const email = `cli-erase-${unique()}@example.com`;
    const first = await orderThat('delivered', 5, { body: { customer_email: email } });
    const human = await runDlv(['recipients', 'erase', '--email', email], env());
    expect(human.stderr).toBe('');
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(
      [
        `Erased the recipient's data of 1 order: ${first.ref}.`,
        '  also deleted: 2 proof files, 1 delivery attempt',
        "  webhook events about them (the order's JSON sent to the brand) are deleted 90 days after they were written (MESSAGE_LOG_RETENTION_DAYS)",
        '  an opt-out of this e-mail address is kept (a digest, not the e-mail address); to stop future messages: dlv recipients opt-out --email …',
        '',
      ].join('\n'),
    );
    expect(await objects.exists(first.attempt!.photoKey!)).toBe(false);

    const second = await orderThat('cancelled', 1, { body: { customer_email: email } });
    const json = await runDlv(['recipients', 'erase', '--email', email, '--json'], env());
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      orders: [second.ref],
      files: 0,
      attempts: 0,
      notifications: 0,
      codes: 0,
      choices: 0,
      problems: 0,
      inbox_payloads: 0,
      idempotency_keys: 0,
      erased_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const none = await runDlv(['recipients', 'erase', '--phone', '06 00 00 00 01'], env());
    expect(none).toMatchObject({ code: 0, stdout: 'No order holds this phone number: nothing to erase.\n' });
  });

  it('says why it refuses: flags (exit 2), an order on its way (exit 1, nothing erased)', async () => {
    for (const args of [
      [],
      ['--email', 'x@example.com', '--phone', '0612345678'],
      ['--email', 'nope'],
      ['--phone', '12'],
    ]) {
      const refused = await runDlv(['recipients', 'erase', ...args], env());
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/^dlv: (give --email or --phone|--email must be|--phone must be)/);
      expect(refused.stderr).toContain('usage: dlv recipients erase');
    }
    const email = `cli-road-${unique()}@example.com`;
    const moving = await orderThat('out_for_delivery', 0, { body: { customer_email: email } });
    const refused = await runDlv(['recipients', 'erase', '--email', email], env());
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `dlv: Nothing erased: 1 order of this recipient is not finished (${moving.ref} out_for_delivery). A parcel on its way needs its recipient's name, address and phone: erase again once it is delivered, returned or cancelled (its brand may cancel an order not yet picked up).\n`,
    );
    expect((await leftOf(moving.orderId)).order.customer_email).toBe(email);
  });
});
