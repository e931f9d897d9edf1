/**
 * `node --import tsx bench/retention.ts [ROWS] [logs|orders]`: the message logs' purge (domain/privacy) on tables
 * of ROWS events (default 300,000), each with a delivery and an attempt, and as many notifications,
 * written over 180 days (half of them past the 90 days' retention), while a writer does what the
 * hot path does (an event and its delivery inserted, a delivery settled) one statement after the
 * other. Prints the purge's batches (how long each held its locks), the writer's latencies before
 * and during the purge, whether any session waited for a lock, and the tables' sizes, also after
 * a vacuum and as many new rows as were deleted. A developer's tool (docs/operations.md, "Retention").
 */
import { createHash } from 'node:crypto';
import { migrate } from '../src/db/migrate.ts';
import { createPool, type Pool } from '../src/db/pool.ts';
import { privacyTransact } from '../src/db/privacy-stores.ts';
import { messageLogsRepository } from '../src/db/repositories/message-logs-repository.ts';
import { recipientDataRepository } from '../src/db/repositories/recipient-data-repository.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { messageLogRetention } from '../src/domain/privacy/message-log-retention.ts';
import type { PrivacyStores } from '../src/domain/privacy/ports.ts';
import { recipientDataService } from '../src/domain/privacy/recipient-data-service.ts';
import type { ObjectStore } from '../src/domain/proofs/ports.ts';
import { addressKeys } from '../src/domain/recipients/address-key.ts';
import type { UnitOfWork } from '../src/domain/shared/stores.ts';

const ROWS = Number(process.argv[2] ?? 300_000);
/** `logs`, `orders` or both (the default). */
const PART = process.argv[3] ?? 'all';
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** An order's JSON as an event carries it (about 900 bytes). */
const ORDER = JSON.stringify({
  order: {
    tracking_ref: 'DLV-0000000000',
    tracking_url: 'https://api.livraison-dlv.fr/track/q3J5abcdefghijklmnopqr',
    status: 'delivered',
    reference: 'CMD-10042',
    customer_email: 'camille.martin@exemple.fr',
    amount_eur: 49.9,
    pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
    delivery_address: '12 rue Oberkampf 75011 Paris',
    delivery_postcode: '75011',
    delivery_city: 'Paris',
    delivery_recipient: 'Camille Martin',
    delivery_phone: '+33612345678',
    delivery_email: 'camille.martin@exemple.fr',
    service: 'standard',
    unit_type: 'parcel',
    quantity: 1,
    unit_weight_grams: 1000,
    price_eur: 9.48,
    price_excl_tax_eur: 7.9,
    vat_rate: 0.2,
    promised_date: '2026-03-02',
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-02T15:12:00.000Z',
  },
  previous_status: 'out_for_delivery',
});

async function seed(pool: Pool, withLogs: boolean): Promise<number> {
  await pool.query(
    `INSERT INTO brands (id, name, created_at) VALUES ('brd_0000000000000001', 'Bench', now())`,
  );
  await pool.query(
    `INSERT INTO webhook_endpoints (id, brand_id, url, event_types, secret, created_at, updated_at)
     VALUES ('whk_0000000000000001', 'brd_0000000000000001', 'https://hooks.example.com/in', '{order.status_changed}',
             'whsec_dGVzdA==', now(), now())`,
  );
  const order = await pool.query<{ id: number }>(
    `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, service, unit_type, quantity,
       unit_weight_grams, created_at, updated_at, history)
     VALUES ('DLV-0000000000', 'brd_0000000000000001', 'awaiting_address', 'a@example.com', 'standard', 'parcel', 1,
       1000, now(), now(), '[]') RETURNING id`,
  );
  // Written in time order, as the service writes them: 180 days back to now.
  if (withLogs) await writeLogs(pool, order.rows[0]!.id, 0, ROWS, '180 days');
  await pool.query(
    'VACUUM ANALYZE outbox_events, webhook_deliveries, webhook_attempts, recipient_notifications',
  );
  return order.rows[0]!.id;
}

/** Events `from`…`to` (each with its delivery and attempt) and as many notifications, over `span` up to now. */
async function writeLogs(pool: Pool, orderId: number, from: number, to: number, span: string): Promise<void> {
  for (let at = from; at < to; at += 50_000) {
    const end = Math.min(to, at + 50_000);
    await pool.query(
      `WITH e AS (
         INSERT INTO outbox_events (id, brand_id, type, data, created_at)
         SELECT 'msg_' || md5(i::text), 'brd_0000000000000001', 'order.status_changed', $3::jsonb,
                now() - $5::interval + ((i - $6)::float8 / $4) * $5::interval
           FROM generate_series($1::int, $2::int - 1) i
         RETURNING id, created_at
       ), d AS (
         INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempt_count, last_status, created_at, updated_at)
         SELECT 'whd_' || substr(md5(e.id), 1, 16), e.id, 'whk_0000000000000001', 'succeeded', 1, 200, e.created_at, e.created_at
           FROM e RETURNING id, created_at
       )
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_excerpt)
       SELECT d.id, 1, d.created_at, 42, 200, '{"received":true}' FROM d`,
      [at, end, ORDER, to - from, span, from],
    );
    await pool.query(
      `INSERT INTO recipient_notifications (id, order_id, step, channel, status, provider_id, created_at, updated_at)
       SELECT 'ntf_' || substr(md5('n' || i), 1, 16), $3, 'delivered', 'email', 'sent', '<' || md5(i::text) || '@dlv>',
              now() - $5::interval + ((i - $6)::float8 / $4) * $5::interval, now()
         FROM generate_series($1::int, $2::int - 1) i`,
      [at, end, orderId, to - from, span, from],
    );
  }
}

/**
 * Every sample, the locks some session waits for: the purge must never make the hot path wait
 * (nor wait for it). Returns the number of samples that found one.
 */
function lockWaits(pool: Pool) {
  let running = true;
  let samples = 0;
  let waiting = 0;
  const done = (async () => {
    while (running) {
      samples++;
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rows[0]!.n > 0) waiting++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  // Rethrown by stop(): an unhandled failure here would exit before the database is dropped.
  done.catch(() => {});
  return {
    async stop() {
      running = false;
      await done;
      return { samples, waiting };
    },
  };
}

/** What the hot path writes, one statement after the other, with each statement's time (ms). */
function hotWriter(pool: Pool, tag: string) {
  const latencies: number[] = [];
  let n = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      n++;
      const started = performance.now();
      await pool.query(
        `WITH e AS (
           INSERT INTO outbox_events (id, brand_id, type, data, created_at)
           VALUES ('msg_' || $3 || $1, 'brd_0000000000000001', 'order.status_changed', $2::jsonb, now()) RETURNING id
         )
         INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at, created_at, updated_at)
         SELECT 'whd_' || substr(md5($3 || $1), 1, 16), e.id, 'whk_0000000000000001', now(), now(), now() FROM e`,
        [n, ORDER, tag],
      );
      await pool.query(
        `UPDATE webhook_deliveries SET status = 'succeeded', attempt_count = 1, next_attempt_at = NULL, updated_at = now()
          WHERE id = 'whd_' || substr(md5($2 || $1), 1, 16)`,
        [n, tag],
      );
      latencies.push(performance.now() - started);
    }
  })();
  // Rethrown by stop(): an unhandled failure here would exit before the database is dropped.
  done.catch(() => {});
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const latencyLine = (values: number[]) =>
  `${values.length} writes, p50 ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}, max ${ms(Math.max(...values))}`;

async function sizes(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ name: string; rows: number; size: string }>(
    `SELECT relname AS name, n_live_tup::int AS rows, pg_size_pretty(pg_total_relation_size(relid)) AS size
       FROM pg_stat_user_tables
      WHERE relname IN ('outbox_events', 'webhook_deliveries', 'webhook_attempts', 'recipient_notifications')
      ORDER BY relname`,
  );
  return rows.map((r) => `${r.name} ${r.rows} rows ${r.size}`).join('; ');
}

/** Each statement's time, what it deleted or changed, and the span from the first to the last. */
function timer() {
  const batches: { ms: number; rows: number }[] = [];
  let first = 0;
  let last = 0;
  const record = (startedAt: number, rows: number) => {
    const now = performance.now();
    if (batches.length === 0) first = startedAt;
    last = now;
    batches.push({ ms: now - startedAt, rows });
  };
  return {
    record,
    time:
      <A extends unknown[], R>(rowsOf: (r: R) => number, f: (...args: A) => Promise<R>) =>
      async (...args: A) => {
        const startedAt = performance.now();
        const result = await f(...args);
        record(startedAt, rowsOf(result));
        return result;
      },
    line(what: string) {
      if (batches.length === 0) return `${what}: none`;
      const times = batches.map((b) => b.ms);
      const rows = batches.reduce((sum, b) => sum + b.rows, 0);
      const span = last - first;
      return (
        `${what}: ${batches.length} statements of p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, ` +
        `max ${ms(Math.max(...times))}; ${rows} rows in ${ms(span)} (${Math.round(rows / (span / 1000))} rows/s, pauses included)`
      );
    },
  };
}

/** The writer alone, then during `work` with the lock waits sampled, then alone again. */
async function beside<R>(
  pool: Pool,
  tag: string,
  writer: (pool: Pool, tag: string) => { stop(): Promise<number[]> },
  work: () => Promise<R>,
) {
  const alone = writer(pool, `${tag}-before`);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`  writer alone: ${latencyLine(await alone.stop())}`);
  const busy = writer(pool, `${tag}-during`);
  const locks = lockWaits(pool);
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  console.log(`  writer during it: ${latencyLine(await busy.stop())}`);
  const sampled = await locks.stop();
  console.log(
    `  sessions waiting for a lock: in ${sampled.waiting} of ${sampled.samples} samples (every 20 ms)`,
  );
  const again = writer(pool, `${tag}-after`);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`  writer alone again: ${latencyLine(await again.stop())}`);
  return { result, wallMs };
}

/** Ended orders (delivered), last changed over two years up to now: half past the 365 days. */
async function seedOrders(pool: Pool, count: number): Promise<void> {
  for (let at = 0; at < count; at += 50_000) {
    await pool.query(
      `INSERT INTO orders (tracking_ref, brand_id, status, reference, customer_email, amount_cents, pickup_address,
         delivery_address, delivery_postcode, delivery_city, delivery_zone, delivery_recipient, delivery_phone,
         delivery_email, service, unit_type, quantity, unit_weight_grams, price_excl_tax_cents, vat_cents,
         price_cents, promised_date, picked_up_at, created_at, updated_at, priced_at, history)
       SELECT 'DLV-' || upper(substr(md5('o' || i), 1, 10)), 'brd_0000000000000001', 'delivered', 'CMD-' || i,
              'camille.martin@exemple.fr', 4990, '5 rue du Dépôt 93200 Saint-Denis', '12 rue Oberkampf 75011 Paris',
              '75011', 'Paris', 'paris', 'Camille Martin', '+33612345678', 'camille.martin@exemple.fr', 'standard',
              'parcel', 1, 1000, 790, 158, 948, current_date, t, t, t, t,
              ('[{"status":"pending","at":"2026-03-01T09:00:00.000Z","note":null},'
               || '{"status":"picked_up","at":"2026-03-01T15:00:00.000Z","note":"Picked up"},'
               || '{"status":"delivered","at":"2026-03-02T11:00:00.000Z","note":"Left with the caretaker"}]')::json
         FROM generate_series($1::int, $2::int - 1) i,
              LATERAL (SELECT now() - interval '730 days' + (i::float8 / $3) * interval '730 days' AS t) x`,
      [at, Math.min(count, at + 50_000), count],
    );
  }
  await pool.query('VACUUM ANALYZE orders');
}

/** What the order path writes: an order created, then moved, one statement after the other. */
function orderWriter(pool: Pool, tag: string) {
  const latencies: number[] = [];
  let n = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      n++;
      // Hex digits are all in the tracking refs' alphabet.
      const ref = `DLV-${createHash('md5').update(`${tag}${n}`).digest('hex').slice(0, 10).toUpperCase()}`;
      const started = performance.now();
      await pool.query(
        `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, delivery_address, delivery_postcode,
           delivery_city, delivery_zone, service, unit_type, quantity, unit_weight_grams, price_excl_tax_cents,
           vat_cents, price_cents, promised_date, created_at, updated_at, priced_at, history)
         VALUES ($1, 'brd_0000000000000001', 'pending', 'a@example.com', '12 rue Oberkampf 75011 Paris', '75011',
           'Paris', 'paris', 'standard', 'parcel', 1, 1000, 790, 158, 948, current_date, now(), now(), now(), '[]')`,
        [ref],
      );
      await pool.query("UPDATE orders SET status = 'picked_up', updated_at = now() WHERE tracking_ref = $1", [
        ref,
      ]);
      latencies.push(performance.now() - started);
    }
  })();
  // Rethrown by stop(): an unhandled failure here would exit before the database is dropped.
  done.catch(() => {});
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

const noFiles: ObjectStore = {
  put: async () => {},
  get: async () => null,
  delete: async () => {},
  exists: async () => false,
};

const db = await createThrowawayDatabase(adminUrl, 'dlv_retention');
const pool = createPool(db.url, 4);
try {
  await migrate(pool);
  const started = performance.now();
  const orderId = await seed(pool, PART !== 'orders');
  if (PART !== 'orders') {
    console.log(
      `seeded ${ROWS} events, deliveries, attempts and notifications in ${ms(performance.now() - started)}`,
    );
    console.log(`before: ${await sizes(pool)}`);
  }

  if (PART !== 'orders') {
    // The message logs' purge, as the job runs it (paced) but without its time budget: all in one run.
    const events = timer();
    const notifications = timer();
    const store = messageLogsRepository(pool);
    const measured = {
      ...store,
      purgeEvents: events.time((r) => r.deleted + r.deliveries + r.attempts, store.purgeEvents),
      purgeNotifications: notifications.time((n: number) => n, store.purgeNotifications),
    };
    console.log('message logs purge:');
    const { result: purged, wallMs } = await beside(pool, 'logs', hotWriter, () =>
      messageLogRetention({
        store: measured,
        clock: () => new Date(),
        days: 90,
        budgetMs: Number.POSITIVE_INFINITY,
      }).purgeExpired(),
    );
    console.log(`  ${JSON.stringify(purged)}`);
    console.log(`  ${events.line('events with their deliveries and attempts')} (${ms(wallMs)} in all)`);
    console.log(`  ${notifications.line('notifications')}`);
    await pool.query('ANALYZE outbox_events, webhook_deliveries, webhook_attempts, recipient_notifications');
    console.log(`after the purge: ${await sizes(pool)}`);
    // What autovacuum does after it (migration 0041: once 2 % of a table is dead), then as many new
    // rows as were deleted: they take the freed space, the tables stay their size.
    await pool.query(
      'VACUUM ANALYZE outbox_events, webhook_deliveries, webhook_attempts, recipient_notifications',
    );
    await writeLogs(pool, orderId, ROWS, ROWS + purged.events, '1 hour');
    await pool.query('ANALYZE outbox_events, webhook_deliveries, webhook_attempts, recipient_notifications');
    console.log(`after a vacuum and ${purged.events} new events: ${await sizes(pool)}`);
  }
  if (PART !== 'logs') {
    // The recipients' data on ended orders: half of ROWS orders are past the 365 days.
    await seedOrders(pool, ROWS);
    const anonymised = timer();
    // The retention writes no opt-out: any key will do.
    const transact = privacyTransact(
      pool,
      addressKeys(async () => Buffer.alloc(32, 7)),
    );
    const timedTransact: UnitOfWork<PrivacyStores> = async (work) => {
      const startedAt = performance.now();
      const result = await transact(work);
      anonymised.record(startedAt, (result as { orders?: string[] }).orders?.length ?? 0);
      return result;
    };
    console.log(`anonymisation of ${ROWS} ended orders' recipients (orders ${await orderSize(pool)}):`);
    const run = await beside(pool, 'orders', orderWriter, () =>
      recipientDataService({
        store: recipientDataRepository(pool),
        transact: timedTransact,
        objects: noFiles,
        clock: () => new Date(),
        days: 365,
        budgetMs: Number.POSITIVE_INFINITY,
      }).anonymiseExpired(),
    );
    console.log(`  ${JSON.stringify(run.result)}`);
    console.log(`  ${anonymised.line('orders anonymised')} (${ms(run.wallMs)} in all)`);
  }
} finally {
  await pool.end();
  await db.drop();
}

async function orderSize(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ size: string }>(
    "SELECT pg_size_pretty(pg_total_relation_size('orders')) AS size",
  );
  return rows[0]!.size;
}
