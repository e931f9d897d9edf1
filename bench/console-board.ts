import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { consoleBoardRepository } from '../src/db/repositories/console-board-repository.ts';
import { serverSecretsRepository } from '../src/db/repositories/server-secrets-repository.ts';
import { createDeps } from '../src/deps.ts';
import { parisToday } from '../src/domain/calendar/paris-time.ts';
import { base32Decode, totpAt } from '../src/domain/operators/totp.ts';
import { cookieSigner } from '../src/http/account/session-cookies.ts';
import { BENCH_OPERATOR } from './harness.ts';

const ROUNDS = 40;
const STOPS = 1500;
const RUNS = 20;
/** The budget for the board's server-side render. */
const TARGET_MS = 1000;

/**
 * The console's Today board at the size of a busy depot (issue 39): 40 rounds with a courier each
 * and 1,500 delivery stops, a scan per courier. Times, in process (`inject`: routing, session,
 * reads, rendering), the full page (`GET /console`) and the snapshot the live page fetches on each
 * server-sent event (`GET /console/today/board`), RUNS times each after a warm-up, and the
 * fingerprint the live poller reads once a second while a board is open. Target: ≤ 1 s.
 */
export async function benchConsoleBoard(dbUrl: string, brandId: string, pickupAddress: string) {
  const pool = createPool(dbUrl, 4);
  const deps = createDeps(
    loadConfig({ DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0' }),
    pool,
  );
  const app = await buildApp(deps);
  try {
    const seeded = performance.now();
    const refs: string[] = [];
    for (let i = 0; i < STOPS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, STOPS - i) }, (_, j) =>
          deps.orders.create(
            { id: brandId, defaultPickupAddress: pickupAddress },
            {
              customer_email: 'board@example.com',
              delivery_address: `${((i + j) % 90) + 1} rue Oberkampf 75011 Paris`,
            },
          ),
        ),
      );
      refs.push(...batch.map((o) => o.trackingRef));
    }
    const today = parisToday(new Date());
    for (let r = 0; r < ROUNDS; r++) {
      const { courier } = await deps.couriers.add(
        {
          email: `board-${randomBytes(4).toString('hex')}@couriers.example.com`,
          name: `Courier ${r + 1}`,
          password: randomBytes(12).toString('base64url'),
          locale: 'fr',
        },
        BENCH_OPERATOR,
      );
      const roundId = `rnd_${randomBytes(8).toString('hex')}`;
      await pool.query('INSERT INTO rounds (id, round_date, name, courier_id) VALUES ($1, $2, $3, $4)', [
        roundId,
        today,
        `Round ${String(r + 1).padStart(2, '0')}`,
        courier.id,
      ]);
      const mine = refs.filter((_, i) => i % ROUNDS === r);
      await pool.query(
        `INSERT INTO round_stops (round_id, round_date, position, kind, order_id)
          SELECT $1, $2, s.n, 'delivery', o.id FROM unnest($3::text[]) WITH ORDINALITY AS s (ref, n)
          JOIN orders o ON o.tracking_ref = s.ref`,
        [roundId, today, mine],
      );
    }
    const seedSeconds = (performance.now() - seeded) / 1000;

    const cookie = await consoleCookie(deps, pool);
    const timed = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await app.inject({ method: 'GET', url, headers: { cookie } });
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return { p50: times[Math.floor(RUNS / 2)]!, max: times[RUNS - 1]!, bytes: res.body.length };
    };
    const page = await timed('/console');
    const snapshot = await timed('/console/today/board');
    const reader = consoleBoardRepository(pool);
    const f0 = performance.now();
    for (let i = 0; i < RUNS; i++) await reader.fingerprint(today);
    const fingerprint = (performance.now() - f0) / RUNS;
    const verdict = (ms: number) => (ms <= TARGET_MS ? 'within' : 'OVER');
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    return [
      `console board: seeded ${ROUNDS} rounds, ${STOPS.toLocaleString('en')} stops in ${seedSeconds.toFixed(0)} s`,
      `console board: GET /console (Today page, ${(page.bytes / 1024).toFixed(0)} KiB) p50 ${ms(page.p50)}, max ${ms(page.max)} of ${RUNS} — ${verdict(page.max)} the ${TARGET_MS} ms target`,
      `console board: GET /console/today/board (live snapshot, ${(snapshot.bytes / 1024).toFixed(0)} KiB) p50 ${ms(snapshot.p50)}, max ${ms(snapshot.max)} — ${verdict(snapshot.max)} the ${TARGET_MS} ms target`,
      `console board: the live poller's fingerprint read ${fingerprint.toFixed(1)} ms (once a second per process while a board is open)`,
    ];
  } finally {
    await app.close();
    await pool.end();
  }
}

/** A dispatcher through the first sign-in's steps (one-time password, own password, TOTP), as a cookie. */
async function consoleCookie(deps: ReturnType<typeof createDeps>, pool: ReturnType<typeof createPool>) {
  const email = `board-${randomBytes(4).toString('hex')}@ops.example`;
  const { oneTimePassword } = await deps.operators.add(
    { email, name: 'Bench dispatcher', role: 'dispatcher' },
    { party: { kind: 'cli', label: 'bench@localhost' }, address: null },
  );
  const ip = '127.0.0.1';
  const first = await deps.operatorSessions.signIn({
    email,
    password: oneTimePassword,
    code: null,
    ip,
    channel: 'console',
  });
  const chosen = await deps.operatorSessions.choosePassword(first.session, {
    current: null,
    password: randomBytes(18).toString('base64url'),
    ip,
  });
  const { secret } = await deps.operatorSessions.beginEnrolment(chosen.session);
  const enrolled = await deps.operatorSessions.confirmEnrolment(chosen.session, {
    code: totpAt(base32Decode(secret), new Date()),
    ip,
  });
  const signer = cookieSigner(() => serverSecretsRepository(pool).getOrCreate('console_cookie_key'));
  return `dlv_console=${await signer.sign(enrolled.token)}`;
}
