import type { EInvoiceStatus } from '../../domain/einvoicing/einvoice-status.ts';
import type {
  EInvoiceStatusStep,
  EInvoiceStore,
  EInvoiceTransmission,
  PaymentAmount,
  StoredPaymentReport,
} from '../../domain/einvoicing/ports.ts';
import { addJobSql } from '../../infra/queue/queue-sql.ts';
import { EINVOICE_REPORT_PAYMENT_SPEC, EINVOICE_SUBMIT_SPEC } from '../../jobs/job-names.ts';
import type { Queryable } from '../pool.ts';

type TransmissionRow = {
  document_id: string;
  brand_id: string;
  number: string;
  status: EInvoiceStatus;
  status_reason: string | null;
  status_at: Date;
  platform: string | null;
  flow_id: string | null;
  submitted_at: Date | null;
  attempts: number;
  last_error: string | null;
};

const toTransmission = (r: TransmissionRow): EInvoiceTransmission => ({
  documentId: r.document_id,
  brandId: r.brand_id,
  number: r.number,
  status: r.status,
  statusReason: r.status_reason,
  statusAt: r.status_at,
  platform: r.platform,
  flowId: r.flow_id,
  submittedAt: r.submitted_at,
  attempts: r.attempts,
  lastError: r.last_error,
});

type ReportRow = {
  invoice_id: string;
  brand_id: string;
  paid_on: string;
  amounts: { rate_percent: number; taxable_cents: number; vat_cents: number; total_cents: number }[];
  status: 'pending' | 'sent';
  flow_id: string | null;
  sent_at: Date | null;
  attempts: number;
  last_error: string | null;
};

/** Errors are kept for the operator, cut to what the column holds. */
const clip = (text: string) => (text.length > 2000 ? `${text.slice(0, 1999)}…` : text);

/**
 * A job keyed by its document: enqueued twice (it never is, but a replayed statement would), it is
 * one job. Its own queue per document would serialise nothing more than the key already does.
 */
const enqueue = (task: string, version: number, field: string, maxAttempts: number) =>
  `SELECT ${addJobSql({
    task: `'${task}'`,
    payload: `json_build_object('v', ${version}, '${field}', $1::text)`,
    jobKey: `'${task}:' || $1::text`,
    maxAttempts,
  })}`;

/** The e-invoices' transmissions to the platform (migration 0045). */
export function einvoicesRepository(db: Queryable): EInvoiceStore {
  return {
    async queueSubmission(row) {
      await db.query(
        `WITH t AS (
           INSERT INTO einvoice_transmissions (document_id, brand_id, number, status, status_at, created_at)
           VALUES ($1, $2, $3, 'pending', $4, $4) RETURNING document_id)
         INSERT INTO einvoice_status_history (document_id, status, at) SELECT document_id, 'pending', $4 FROM t`,
        [row.documentId, row.brandId, row.number, row.at],
      );
      const spec = EINVOICE_SUBMIT_SPEC;
      await db.query(enqueue(spec.name, spec.payloadVersion, 'document_id', spec.maxAttempts!), [
        row.documentId,
      ]);
    },

    async find(documentId) {
      const { rows } = await db.query<TransmissionRow>(
        'SELECT * FROM einvoice_transmissions WHERE document_id = $1',
        [documentId],
      );
      return rows[0] ? toTransmission(rows[0]) : null;
    },

    async findByNumber(number) {
      const { rows } = await db.query<TransmissionRow>(
        'SELECT * FROM einvoice_transmissions WHERE number = $1',
        [number],
      );
      return rows[0] ? toTransmission(rows[0]) : null;
    },

    async lock(documentId) {
      const { rows } = await db.query<TransmissionRow>(
        'SELECT * FROM einvoice_transmissions WHERE document_id = $1 FOR UPDATE',
        [documentId],
      );
      return rows[0] ? toTransmission(rows[0]) : null;
    },

    async statusesOf(documentIds) {
      const { rows } = await db.query<{
        document_id: string;
        status: EInvoiceStatus;
        status_reason: string | null;
        status_at: Date;
      }>(
        'SELECT document_id, status, status_reason, status_at FROM einvoice_transmissions WHERE document_id = ANY($1::text[])',
        [documentIds],
      );
      return new Map(
        rows.map((r) => [r.document_id, { status: r.status, reason: r.status_reason, at: r.status_at }]),
      );
    },

    async history(documentId) {
      const { rows } = await db.query<{ status: EInvoiceStatus; reason: string | null; at: Date }>(
        'SELECT status, reason, at FROM einvoice_status_history WHERE document_id = $1 ORDER BY id',
        [documentId],
      );
      return rows;
    },

    async recordFailure(documentId, error) {
      await db.query(
        'UPDATE einvoice_transmissions SET attempts = attempts + 1, last_error = $2 WHERE document_id = $1',
        [documentId, clip(error)],
      );
    },

    async recordSubmission(documentId, submission) {
      await db.query(
        `UPDATE einvoice_transmissions SET platform = $2, flow_id = $3, submitted_at = $4,
           attempts = attempts + 1, last_error = NULL WHERE document_id = $1`,
        [documentId, submission.platform, submission.flowId, submission.at],
      );
    },

    async setStatus(documentId, step: EInvoiceStatusStep) {
      const reason = step.reason === null ? null : clip(step.reason);
      const { rowCount } = await db.query(
        `WITH moved AS (
           UPDATE einvoice_transmissions SET status = $2, status_reason = $3, status_at = $4
            WHERE document_id = $1 AND status <> $2 RETURNING document_id)
         INSERT INTO einvoice_status_history (document_id, status, reason, at)
         SELECT document_id, $2, $3, $4 FROM moved`,
        [documentId, step.status, reason, step.at],
      );
      return (rowCount ?? 0) > 0;
    },

    async queuePaymentReport(report) {
      const amounts = report.amounts.map((a: PaymentAmount) => ({
        rate_percent: a.ratePercent,
        taxable_cents: a.taxableCents,
        vat_cents: a.vatCents,
        total_cents: a.totalCents,
      }));
      await db.query(
        `INSERT INTO einvoice_payment_reports (invoice_id, brand_id, paid_on, amounts, status, created_at)
         VALUES ($1, $2, $3, $4::jsonb, 'pending', $5)`,
        [report.invoiceId, report.brandId, report.paidOn, JSON.stringify(amounts), report.at],
      );
      const spec = EINVOICE_REPORT_PAYMENT_SPEC;
      await db.query(enqueue(spec.name, spec.payloadVersion, 'invoice_id', spec.maxAttempts!), [
        report.invoiceId,
      ]);
    },

    async paymentReport(invoiceId): Promise<StoredPaymentReport | null> {
      const { rows } = await db.query<ReportRow>(
        `SELECT invoice_id, brand_id, to_char(paid_on, 'YYYY-MM-DD') AS paid_on, amounts, status, flow_id, sent_at,
                attempts, last_error
           FROM einvoice_payment_reports WHERE invoice_id = $1`,
        [invoiceId],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        invoiceId: r.invoice_id,
        brandId: r.brand_id,
        paidOn: r.paid_on,
        amounts: r.amounts.map((a) => ({
          ratePercent: a.rate_percent,
          taxableCents: a.taxable_cents,
          vatCents: a.vat_cents,
          totalCents: a.total_cents,
        })),
        status: r.status,
        flowId: r.flow_id,
        sentAt: r.sent_at,
        attempts: r.attempts,
        lastError: r.last_error,
      };
    },

    async recordPaymentFailure(invoiceId, error) {
      await db.query(
        'UPDATE einvoice_payment_reports SET attempts = attempts + 1, last_error = $2 WHERE invoice_id = $1',
        [invoiceId, clip(error)],
      );
    },

    async markPaymentSent(invoiceId, flowId, at) {
      await db.query(
        `UPDATE einvoice_payment_reports SET status = 'sent', flow_id = $2, sent_at = $3, attempts = attempts + 1,
           last_error = NULL WHERE invoice_id = $1`,
        [invoiceId, flowId, at],
      );
    },

    async syncCursor(platform) {
      const { rows } = await db.query<{ cursor: string }>(
        'SELECT cursor FROM einvoice_sync_state WHERE platform = $1',
        [platform],
      );
      return rows[0]?.cursor ?? null;
    },

    async saveSyncCursor(platform, cursor, at) {
      await db.query(
        `INSERT INTO einvoice_sync_state (platform, cursor, synced_at) VALUES ($1, $2, $3)
         ON CONFLICT (platform) DO UPDATE SET cursor = EXCLUDED.cursor, synced_at = EXCLUDED.synced_at`,
        [platform, cursor, at],
      );
    },
  };
}
