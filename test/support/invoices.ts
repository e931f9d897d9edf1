import type { Pool } from '../../src/db/pool.ts';

/** Everything stored about an invoice, as text: what "unchanged" is checked against. */
export async function invoiceFootprint(pool: Pool, id: string): Promise<string> {
  const { rows } = await pool.query<{ text: string }>(
    `SELECT (SELECT row_to_json(i)::text FROM invoices i WHERE i.id = $1) ||
            (SELECT json_agg(l ORDER BY l.order_id)::text FROM invoice_lines l WHERE l.invoice_id = $1) AS text`,
    [id],
  );
  return rows[0]!.text;
}
