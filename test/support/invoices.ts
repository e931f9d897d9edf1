import type { Pool } from '../../src/db/pool.ts';
import { waitForLockWaiters } from './lock-waiters.ts';

/** Everything stored about an invoice, as text: what "unchanged" is checked against. */
export async function invoiceFootprint(pool: Pool, id: string): Promise<string> {
  const { rows } = await pool.query<{ text: string }>(
    `SELECT (SELECT row_to_json(i)::text FROM invoices i WHERE i.id = $1) ||
            (SELECT json_agg(l ORDER BY l.order_id)::text FROM invoice_lines l WHERE l.invoice_id = $1) AS text`,
    [id],
  );
  return rows[0]!.text;
}

/**
 * A change of an order racing its month's issuing: `issue` is held on the year's invoice counter
 * (row-locked here) after it has read the month, `change` starts then, and both are let go
 * together. The change's answer, once the issuing is done.
 */
export async function raceWithIssuing<T>(
  pool: Pool,
  year: number,
  issue: () => Promise<unknown>,
  change: () => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    // The year's first invoice: its counter row must exist to be locked.
    await client.query('INSERT INTO invoice_counters VALUES ($1, 0) ON CONFLICT DO NOTHING', [year]);
    await client.query('BEGIN');
    await client.query('SELECT * FROM invoice_counters WHERE year = $1 FOR UPDATE', [year]);
    const issuing = issue();
    await waitForLockWaiters(pool, 1);
    const changing = change();
    await waitForLockWaiters(pool, 2);
    await client.query('COMMIT');
    await issuing;
    return await changing;
  } finally {
    client.release();
  }
}
