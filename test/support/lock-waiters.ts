import type { Pool } from '../../src/db/pool.ts';

/** Waits until `n` sessions of this database wait for a lock: the interleaving under test is set. */
export async function waitForLockWaiters(pool: Pool, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${n} sessions ever waited for a lock`);
}
