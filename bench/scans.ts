import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from '../src/db/pool.ts';
import { serverSecretsRepository } from '../src/db/repositories/server-secrets-repository.ts';
import type { Deps } from '../src/deps.ts';
import { parisToday } from '../src/domain/calendar/paris-time.ts';
import { cookieSigner } from '../src/http/account/session-cookies.ts';
import { BENCH_OPERATOR } from './harness.ts';

/**
 * Scans through the courier app's sync endpoint (`POST /courier/api/v1/scans`, a courier session
 * and its CSRF token), over HTTP with keep-alive: BENCH_SCAN_ORDERS orders (default 1000) on the
 * courier's round of the day, each scanned at the pickup, the hub, loading and the door (a
 * delivery with who received it): 4 scans an order, sent a context at a time in batches of 50 by
 * BENCH_SCAN_CONNECTIONS phones at once (default 4). Reports scans applied per second and the p99
 * of a batch; target ≥ 500 scans/s on 2 cores.
 */
export async function benchScans(
  deps: Deps,
  pool: Pool,
  base: string,
  brandId: string,
  pickupAddress: string,
) {
  const count = Number(process.env.BENCH_SCAN_ORDERS ?? 1000);
  const connections = Number(process.env.BENCH_SCAN_CONNECTIONS ?? 4);
  const batchSize = 50;
  const refs: string[] = [];
  for (let i = 0; i < count; i++) {
    const order = await deps.orders.create(
      { id: brandId, defaultPickupAddress: pickupAddress },
      { customer_email: 'scans@example.com', delivery_address: `${(i % 90) + 1} rue Oberkampf 75011 Paris` },
    );
    refs.push(order.trackingRef);
  }
  const email = `bench-${randomBytes(4).toString('hex')}@couriers.example.com`;
  const password = randomBytes(12).toString('base64url');
  const { courier } = await deps.couriers.add(
    { email, name: 'Bench courier', password, locale: 'fr' },
    BENCH_OPERATOR,
  );
  // The courier's round of the day: every order a delivery stop.
  const roundId = `rnd_${randomBytes(8).toString('hex')}`;
  const today = parisToday(new Date());
  await pool.query('INSERT INTO rounds (id, round_date, name, courier_id) VALUES ($1, $2, $1, $3)', [
    roundId,
    today,
    courier.id,
  ]);
  await pool.query(
    `INSERT INTO round_stops (round_id, round_date, position, kind, order_id)
      SELECT $1, $2, r.n, 'delivery', o.id FROM unnest($3::text[]) WITH ORDINALITY AS r (ref, n)
      JOIN orders o ON o.tracking_ref = r.ref`,
    [roundId, today, refs],
  );
  const { token } = await deps.couriers.signIn({ email, password, ip: '127.0.0.1' });
  const signer = cookieSigner(() => serverSecretsRepository(pool).getOrCreate('courier_cookie_key'));
  const cookie = `dlv_courier_session=${await signer.sign(token)}`;
  const me = await fetch(`${base}/courier/api/v1/me`, { headers: { cookie } });
  const { csrf_token: csrf } = (await me.json()) as { csrf_token: string };
  const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };

  const started = Date.now();
  const at = (minutes: number) => new Date(started - 3600_000 + minutes * 60_000).toISOString();
  const contexts = [
    { context: 'pickup', extra: {} },
    { context: 'hub', extra: {} },
    { context: 'loading', extra: {} },
    { context: 'door', extra: { outcome: 'delivered', received_by: 'Bench' } },
  ];
  const latencies: number[] = [];
  let applied = 0;
  let refused = 0;
  const t0 = performance.now();
  for (const [step, { context, extra }] of contexts.entries()) {
    const batches: object[][] = [];
    for (let i = 0; i < refs.length; i += batchSize) {
      batches.push(
        refs
          .slice(i, i + batchSize)
          .map((code) => ({ id: randomUUID(), context, code, happened_at: at(step * 10), ...extra })),
      );
    }
    let next = 0;
    const phone = async () => {
      while (next < batches.length) {
        const scans = batches[next++]!;
        const sent = performance.now();
        const res = await fetch(`${base}/courier/api/v1/scans`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ scans }),
        });
        const body = (await res.json()) as { results?: { result: string }[] };
        latencies.push(performance.now() - sent);
        if (!body.results) throw new Error(`scans refused: ${res.status} ${JSON.stringify(body)}`);
        for (const r of body.results) r.result === 'applied' ? applied++ : refused++;
      }
    };
    await Promise.all(Array.from({ length: connections }, phone));
  }
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
  return [
    `scans (POST /courier/api/v1/scans, ${count} orders × 4 contexts, batches of ${batchSize}, ${connections} phones): ` +
      `${(applied / seconds).toFixed(0)} scans applied/s, p99 ${p99.toFixed(0)} ms a batch` +
      `${refused > 0 ? `, ${refused} refused (should be 0)` : ''} — target ≥ 500/s`,
  ];
}
