/**
 * The per-message logs' retention (issue 36, item 31; docs/operations.md "Retention"): webhook
 * events with their deliveries and attempts, recipient notifications, shops' webhooks and answered
 * webhook requests older than MESSAGE_LOG_RETENTION_DAYS (90) go, in batches that skip what another
 * transaction holds; a delivery still owed keeps its event; a replay past the retention is refused.
 * On a database of its own: the purge deletes every old row, whoever wrote it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageLogsRepository } from '../src/db/repositories/message-logs-repository.ts';
import { messageLogRetention } from '../src/domain/privacy/message-log-retention.ts';
import { CRONTAB, taskList } from '../src/jobs/index.ts';
import { PURGE_MESSAGE_LOGS } from '../src/jobs/purge-message-logs.ts';
import { createBrandWithKey } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, subscribeToWebhooks } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

const DAY = 24 * 3600 * 1000;
let now = new Date();
let t: ScratchTestApp;

beforeAll(async () => {
  t = await buildScratchTestApp({ clock: () => now });
});
afterAll(async () => {
  await t?.close();
});
// The purge walks the events and the shops' webhooks in key order and stops at the first young one
// (keys grow with time in production; here each test makes its own past): each test starts from
// empty logs, emptied by a purge whose clock is years ahead.
beforeEach(async () => {
  const ahead = () => new Date(Date.now() + 3650 * DAY);
  await messageLogRetention({ store: messageLogsRepository(t.pool), clock: ahead, days: 90 }).purgeExpired();
});

const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const count = async (sql: string, values: unknown[]) =>
  (await t.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]!.n;

/**
 * An order created `days` ago by a brand listening to webhooks: its order.created event, fanned out
 * to the brand's endpoint, the delivery settled (`succeeded`, with one attempt) unless `owed`.
 */
async function webhookHistory(days: number, options: { owed?: boolean } = {}) {
  now = daysAgo(days);
  try {
    const brand = await createBrandWithKey(t.deps);
    const endpointId = await subscribeToWebhooks(t.pool, brand.brandId);
    const created = await createOrder(t.app, brand);
    expect(created.statusCode).toBe(200);
    const { rows } = await t.pool.query<{ id: string }>('SELECT id FROM outbox_events WHERE brand_id = $1', [
      brand.brandId,
    ]);
    const eventId = rows[0]!.id;
    const [deliveryId] = await t.deps.webhookDeliveries.fanOut(eventId);
    if (!options.owed) {
      await t.pool.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_excerpt)
         VALUES ($1, 1, $2, 12, 200, 'ok: jane@example.com')`,
        [deliveryId, now],
      );
      await t.pool.query(
        `UPDATE webhook_deliveries SET status = 'succeeded', attempt_count = 1, next_attempt_at = NULL,
            last_status = 200 WHERE id = $1`,
        [deliveryId],
      );
    }
    return { brand, endpointId, eventId, deliveryId: deliveryId!, orderId: await orderIdOf(brand.brandId) };
  } finally {
    now = new Date();
  }
}

const orderIdOf = async (brandId: string) =>
  (await t.pool.query<{ id: number }>('SELECT id FROM orders WHERE brand_id = $1', [brandId])).rows[0]!.id;

/** A replay of the delivery, as `replayDelivery` writes it, made `days` ago. */
async function replayOf(deliveryId: string, days: number): Promise<string> {
  const { rows } = await t.pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, origin, replay_of, status, attempt_count, created_at, updated_at)
     SELECT event_id, endpoint_id, 'replay', id, 'succeeded', 1, $2, $2 FROM webhook_deliveries WHERE id = $1
     RETURNING id`,
    [deliveryId, daysAgo(days)],
  );
  return rows[0]!.id;
}

const eventExists = (id: string) => count('outbox_events WHERE id = $1', [id]);
const deliveriesOf = (eventId: string) => count('webhook_deliveries WHERE event_id = $1', [eventId]);
const attemptsOf = (eventId: string) =>
  count('webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1', [
    eventId,
  ]);

describe('message logs retention', () => {
  it('is an hourly job of the crontab, run through the task list', async () => {
    expect(CRONTAB).toMatch(/^15 \* \* \* \* message_logs_purge \?max=3$/m);
    const old = await webhookHistory(120);
    const lines: string[] = [];
    const helpers = { logger: { info: (m: string) => lines.push(m), debug: () => {} } };
    await taskList(t.deps).message_logs_purge!({}, helpers as never);
    expect(await eventExists(old.eventId)).toBe(0);
    expect(lines.join('\n')).toMatch(/deleted .*1 events.* past their retention/);
  });

  it('deletes events older than 90 days with their deliveries, replays and attempts; younger ones stay', async () => {
    const old = await webhookHistory(91);
    const replay = await replayOf(old.deliveryId, 60);
    const young = await webhookHistory(89);
    expect(await deliveriesOf(old.eventId)).toBe(2);

    const purged = await t.deps.messageLogs.purgeExpired();

    expect(purged).toMatchObject({ finished: true });
    expect(purged.events).toBeGreaterThanOrEqual(1);
    expect(purged.deliveries).toBeGreaterThanOrEqual(2);
    expect(purged.attempts).toBeGreaterThanOrEqual(1);
    expect(await eventExists(old.eventId)).toBe(0);
    expect(await count('webhook_deliveries WHERE id = ANY($1)', [[old.deliveryId, replay]])).toBe(0);
    expect(await attemptsOf(old.eventId)).toBe(0);
    expect(await eventExists(young.eventId)).toBe(1);
    expect(await deliveriesOf(young.eventId)).toBe(1);
    expect(await attemptsOf(young.eventId)).toBe(1);
    // The order itself is not a log: it stays.
    expect(await count('orders WHERE id = $1', [old.orderId])).toBe(1);
  });

  it('keeps an old event while a delivery is still owed for it, and deletes it once settled', async () => {
    const owed = await webhookHistory(100, { owed: true });
    await t.deps.messageLogs.purgeExpired();
    expect(await eventExists(owed.eventId)).toBe(1);
    expect(await deliveriesOf(owed.eventId)).toBe(1);

    await t.pool.query(
      "UPDATE webhook_deliveries SET status = 'exhausted', next_attempt_at = NULL WHERE id = $1",
      [owed.deliveryId],
    );
    await t.deps.messageLogs.purgeExpired();
    expect(await eventExists(owed.eventId)).toBe(0);
  });

  it('skips an event another transaction holds instead of waiting for it; the next run takes it', async () => {
    const held = await webhookHistory(95);
    const other = await webhookHistory(95);
    const client = await t.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM outbox_events WHERE id = $1 FOR UPDATE', [held.eventId]);
      // Waiting for that lock would hold this run until the test's timeout.
      await t.deps.messageLogs.purgeExpired();
      expect(await eventExists(held.eventId)).toBe(1);
      expect(await eventExists(other.eventId)).toBe(0);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await t.deps.messageLogs.purgeExpired();
    expect(await eventExists(held.eventId)).toBe(0);
  });

  it('works in batches: more events than a batch go in one run, each batch its own statement', async () => {
    const histories = [];
    for (let i = 0; i < 9; i++) histories.push(await webhookHistory(100 + i));
    const real = messageLogsRepository(t.pool);
    let statements = 0;
    const store = {
      ...real,
      purgeEvents: (...args: Parameters<typeof real.purgeEvents>) => {
        statements++;
        return real.purgeEvents(...args);
      },
    };
    const purged = await messageLogRetention({
      store,
      clock: () => new Date(),
      days: 90,
      batch: 2,
    }).purgeExpired();
    expect(purged.events).toBe(9);
    expect(statements).toBeGreaterThanOrEqual(5);
    for (const h of histories) expect(await eventExists(h.eventId)).toBe(0);
  });

  it('stops at its time budget, saying it has not finished; the next run goes on', async () => {
    const old = await webhookHistory(130);
    const store = messageLogsRepository(t.pool);
    const cut = await messageLogRetention({
      store,
      clock: () => new Date(),
      days: 90,
      budgetMs: 0,
    }).purgeExpired();
    expect(cut).toMatchObject({ finished: false, events: 0 });
    expect(await eventExists(old.eventId)).toBe(1);
    await t.deps.messageLogs.purgeExpired();
    expect(await eventExists(old.eventId)).toBe(0);
  });

  it('a run cut at its budget is continued a second later by one more job under a key, not at the next hour', async () => {
    const old = await webhookHistory(140);
    const added: unknown[][] = [];
    const helpers = {
      logger: { info: () => {}, debug: () => {} },
      addJob: async (...args: unknown[]) => {
        added.push(args);
      },
    };
    const store = messageLogsRepository(t.pool);
    const cut = messageLogRetention({ store, clock: () => new Date(), days: 90, budgetMs: 0 });
    await PURGE_MESSAGE_LOGS.run({ messageLogs: cut }, {}, helpers as never);
    expect(added).toEqual([
      ['message_logs_purge', { v: 1 }, { jobKey: 'message_logs_purge:more', runAt: expect.any(Date) }],
    ]);
    expect(await eventExists(old.eventId)).toBe(1);
    // A run that finishes asks for none.
    await PURGE_MESSAGE_LOGS.run({ messageLogs: t.deps.messageLogs }, {}, helpers as never);
    expect(added).toHaveLength(1);
    expect(await eventExists(old.eventId)).toBe(0);
  });

  it('deletes old notifications, shops’ webhooks and problems, answered webhook requests, day-old codes and held SMS reports', async () => {
    const { brand, orderId } = await webhookHistory(1);
    const notification = async (days: number) => {
      const id = `ntf_${hex(8)}`;
      await t.pool.query(
        `INSERT INTO recipient_notifications (id, order_id, step, channel, status, detail, created_at, updated_at)
         VALUES ($1, $2, 'delivered', 'email', 'failed', '550 5.1.1 <jane@example.com>: user unknown', $3, $3)`,
        [id, orderId, daysAgo(days)],
      );
      return id;
    };
    const inbox = async (days: number) =>
      (
        await t.pool.query<{ id: number }>(
          `INSERT INTO connector_inbox (platform, delivery_id, shop, topic, payload, received_at)
           VALUES ('shopify', $1, 'retention.myshopify.com', 'orders/paid', '{"email":"jane@example.com"}', $2)
           RETURNING id`,
          [randomUUID(), daysAgo(days)],
        )
      ).rows[0]!.id;
    const request = async (days: number, status: string) => {
      const id = `whr_${hex(8)}`;
      await t.pool.query(
        `INSERT INTO webhook_requests (id, brand_id, url, event_types, status, created_at)
         VALUES ($1, $2, 'https://hooks.example.com/in', '{order.created}', $3, $4)`,
        [id, brand.brandId, status, daysAgo(days)],
      );
      return id;
    };
    const code = async (days: number) => {
      const id = `rcd_${hex(8)}`;
      await t.pool.query(
        `INSERT INTO recipient_codes (id, order_id, channel, code_hash, expires_at, created_at)
         VALUES ($1, $2, 'email', $3, $4, $4)`,
        [id, orderId, randomBytes(32), daysAgo(days)],
      );
      return id;
    };
    const connection = `con_${hex(8)}`;
    await t.pool.query(
      `INSERT INTO connector_connections (id, brand_id, platform, shop, status, credentials, created_at, updated_at)
       VALUES ($1, $2, 'shopify', $3, 'active', '\\x00', now(), now())`,
      [connection, brand.brandId, `retention-${hex(4)}.myshopify.com`],
    );
    const problem = async (days: number) => {
      const id = `cpb_${hex(8)}`;
      await t.pool.query(
        `INSERT INTO connector_problems (id, connection_id, brand_id, kind, external_id, message, created_at)
         VALUES ($1, $2, $3, 'out_of_zone', $4, '12 rue de Lyon 69003 Lyon is outside our zones', $5)`,
        [id, connection, brand.brandId, `gid://shopify/Order/${hex(4)}`, daysAgo(days)],
      );
      return id;
    };
    const report = async (hours: number) => {
      const id = `SM${hex(16)}`;
      await t.pool.query(
        "INSERT INTO sms_early_reports (provider_id, status, received_at) VALUES ($1, 'delivered', $2)",
        [id, new Date(Date.now() - hours * 3600 * 1000)],
      );
      return id;
    };
    const rows = {
      notifications: [await notification(91), await notification(89)],
      inbox: [await inbox(92), await inbox(3)],
      problems: [await problem(91), await problem(30)],
      requests: [
        await request(91, 'done'),
        await request(91, 'declined'),
        await request(91, 'open'),
        await request(10, 'done'),
      ],
      codes: [await code(3), await code(0)],
      reports: [await report(25), await report(1)],
    };

    const purged = await t.deps.messageLogs.purgeExpired();

    expect(purged).toMatchObject({ finished: true });
    const left = async (table: string, key: string, ids: unknown[]) =>
      Promise.all(ids.map((id) => count(`${table} WHERE ${key} = $1`, [id])));
    expect(await left('recipient_notifications', 'id', rows.notifications)).toEqual([0, 1]);
    expect(await left('connector_inbox', 'id', rows.inbox)).toEqual([0, 1]);
    expect(await left('connector_problems', 'id', rows.problems)).toEqual([0, 1]);
    // An open request is the operator's to answer: it stays, however old.
    expect(await left('webhook_requests', 'id', rows.requests)).toEqual([0, 0, 1, 1]);
    expect(await left('recipient_codes', 'id', rows.codes)).toEqual([0, 1]);
    expect(await left('sms_early_reports', 'provider_id', rows.reports)).toEqual([0, 1]);
  });
});

describe('replays past the retention', () => {
  it('refuses to replay a delivery whose event is older than the retention, saying why', async () => {
    const old = await webhookHistory(91);
    const recent = await webhookHistory(30);
    const replayed = await t.deps.webhooks.replayDelivery(recent.deliveryId, testOperator);
    expect(replayed).toMatchObject({ eventId: recent.eventId, origin: 'replay' });

    await expect(t.deps.webhooks.replayDelivery(old.deliveryId, testOperator)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(
        new RegExp(
          `^delivery ${old.deliveryId} is of event ${old.eventId} of .*, past the retention: events and their deliveries are kept 90 days \\(MESSAGE_LOG_RETENTION_DAYS\\), so it can no longer be replayed$`,
        ),
      ),
    });
    expect(await deliveriesOf(old.eventId)).toBe(1);

    // Once purged, the id names nothing; the message says why it may have gone.
    await t.deps.messageLogs.purgeExpired();
    await expect(t.deps.webhooks.replayDelivery(old.deliveryId, testOperator)).rejects.toMatchObject({
      code: 'not_found',
      message: `no webhook delivery with id "${old.deliveryId}" (events and their deliveries are kept 90 days (MESSAGE_LOG_RETENTION_DAYS); an older one is deleted)`,
    });
  });

  it('refuses --since before the retention, naming the earliest time that can be replayed', async () => {
    const since = daysAgo(100);
    await expect(t.deps.webhooks.replaySince(since, null, testOperator)).rejects.toMatchObject({
      code: 'invalid_request',
      details: [
        {
          field: 'since',
          message: expect.stringMatching(
            /^.+ is past the retention: events and their deliveries are kept 90 days \(MESSAGE_LOG_RETENTION_DAYS\); the earliest time that can be replayed is \d{4}-\d\d-\d\dT/,
          ),
        },
      ],
    });
    const cli = await runDlv(['webhooks', 'replay', '--since', since.toISOString().slice(0, 10)], {
      DATABASE_URL: t.databaseUrl,
      LOG_LEVEL: 'silent',
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      /^dlv: since: .* is past the retention: events and their deliveries are kept 90 days \(MESSAGE_LOG_RETENTION_DAYS\); the earliest time that can be replayed is /,
    );
    // The setting moves the horizon.
    const longer = await runDlv(
      ['webhooks', 'replay', '--since', since.toISOString().slice(0, 10), '--json'],
      {
        DATABASE_URL: t.databaseUrl,
        LOG_LEVEL: 'silent',
        MESSAGE_LOG_RETENTION_DAYS: '365',
      },
    );
    expect(longer.stderr).toBe('');
    expect(longer.code).toBe(0);
  });
});
