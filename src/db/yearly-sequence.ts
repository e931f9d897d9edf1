import type { Queryable } from './pool.ts';

/** The gap-free numbering series kept per year: invoices (F…) and credit notes (A…). */
export type YearlySeries = 'invoice_counters' | 'credit_note_counters';

/**
 * The next number of `year` in `series`, under the counter's row lock: held until the caller's
 * transaction ends, so a number is used by exactly one document or, on rollback, by none.
 */
export async function nextYearlySequence(db: Queryable, series: YearlySeries, year: number): Promise<number> {
  const { rows } = await db.query<{ last_sequence: number }>(
    `INSERT INTO ${series} (year, last_sequence) VALUES ($1, 1)
     ON CONFLICT (year) DO UPDATE SET last_sequence = ${series}.last_sequence + 1
     RETURNING last_sequence`,
    [year],
  );
  return rows[0]!.last_sequence;
}
