/**
 * `node --import tsx bench/retention.ts [ROWS]`: the message logs' purge (domain/privacy) on tables
 * of ROWS events (default 300,000), each with a delivery and an attempt, and as many notifications,
 * written over 180 days (half of them past the 90 days' retention), while a writer does what the
 * hot path does (an event and its delivery inserted, a delivery settled) one statement after the
 * other. Prints the purge's batches (how long each held its locks), the writer's latencies before
 * and during the purge, whether any session waited for a lock, and the tables' sizes, also after
 * a vacuum and as many new rows as were deleted. A developer's tool (docs/operations.md, "Retention").
 */
import { migrate } from '../src/db/migrate.ts';
import { createPool, type Pool } from '../src/db/pool.ts';
import { messageLogsRepository } from '../src/db/repositories/message-logs-repository.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { messageLogRetention } from '../src/domain/privacy/message-log-retention.ts';

const ROWS = Number(process.argv[2] ?? 300_000);
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

async function seed(pool: Pool): Promise<number> {
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
  await writeLogs(pool, order.rows[0]!.id, 0, ROWS, '180 days');
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

const db = await createThrowawayDatabase(adminUrl, 'dlv_retention');
const pool = createPool(db.url, 4);
try {
  await migrate(pool);
  let started = performance.now();
  const orderId = await seed(pool);
  console.log(
    `seeded ${ROWS} events, deliveries, attempts and notifications in ${ms(performance.now() - started)}`,
  );
  console.log(`before: ${await sizes(pool)}`);

  const idle = hotWriter(pool, 'idle');
  await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`writer alone: ${latencyLine(await idle.stop())}`);

  const store = messageLogsRepository(pool);
  const batches: { kind: string; ms: number; rows: number }[] = [];
  const timed =
    <A extends unknown[], R>(kind: string, rowsOf: (r: R) => number, f: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const t0 = performance.now();
      const result = await f(...args);
      batches.push({ kind, ms: performance.now() - t0, rows: rowsOf(result) });
      return result;
    };
  const measured = {
    ...store,
    purgeEvents: timed('events', (r) => r.deleted + r.deliveries + r.attempts, store.purgeEvents),
    purgeNotifications: timed('notifications', (n: number) => n, store.purgeNotifications),
  };
  const busy = hotWriter(pool, 'busy');
  const locks = lockWaits(pool);
  started = performance.now();
  const purged = await messageLogRetention({
    store: measured,
    clock: () => new Date(),
    days: 90,
  }).purgeExpired();
  const took = performance.now() - started;
  console.log(`writer during the purge: ${latencyLine(await busy.stop())}`);
  const sampled = await locks.stop();
  console.log(
    `sessions waiting for a lock: in ${sampled.waiting} of ${sampled.samples} samples (every 20 ms)`,
  );
  console.log(`purged in ${ms(took)}: ${JSON.stringify(purged)}`);
  for (const kind of ['events', 'notifications']) {
    const of = batches.filter((b) => b.kind === kind);
    if (of.length === 0) continue;
    const times = of.map((b) => b.ms);
    const rows = of.reduce((sum, b) => sum + b.rows, 0);
    console.log(
      `${kind}: ${of.length} batches, each p50 ${ms(quantile(times, 0.5))}, max ${ms(Math.max(...times))}; ` +
        `${Math.round(rows / (times.reduce((a, b) => a + b, 0) / 1000))} rows/s`,
    );
  }
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
} finally {
  await pool.end();
  await db.drop();
}
