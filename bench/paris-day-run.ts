/**
 * `npm run bench -- paris-day` (or BENCH_ONLY=paris-day): issue 37's day of 150 orders planned by
 * sort code and by the optimiser (bench/paris-day-rounds.ts), on a database of its own, the
 * addresses geocoded by the fake BAN (test/support/fake-ban.ts: the fixtures' real points), the
 * in-process solver with the service's default budget. Prints the distances, the saving and the
 * judge's verdict; exits 1 when the saving is under 25 % or a constraint is broken.
 */

import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createDeps } from '../src/deps.ts';
import { nextBusinessDay } from '../src/domain/calendar/business-days.ts';
import { parisToday } from '../src/domain/calendar/paris-time.ts';
import { startFakeBan } from '../test/support/fake-ban.ts';
import { prepareDatabase } from './database.ts';
import { BENCH_OPERATOR } from './harness.ts';
import { formatParisDay, parisDayRounds } from './paris-day-rounds.ts';

export async function benchParisDay(): Promise<{ lines: string[]; ok: boolean }> {
  const db = await prepareDatabase();
  const ban = await startFakeBan();
  const pool = createPool(db.url, 4);
  try {
    await migrate(pool);
    const deps = createDeps(
      loadConfig({
        DATABASE_URL: db.url,
        GEOCODER_URL: ban.url,
        GEOCODER_BUDGET_MS: '3000',
      }),
      pool,
    );
    const date = nextBusinessDay(nextBusinessDay(parisToday(new Date())));
    const result = await parisDayRounds(deps, pool, { date, by: BENCH_OPERATOR });
    return {
      lines: formatParisDay(result),
      ok: result.saving >= 0.25 && result.violations.length === 0 && result.optimised.unplaced === 0,
    };
  } finally {
    await pool.end();
    await ban.close();
    await db.cleanup();
  }
}
