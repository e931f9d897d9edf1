import { createHash } from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { Outbox } from '../../events/outbox.ts';
import type { FacturX, InvoiceService } from '../invoices/invoice-service.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import { type EInvoiceStatus, movesOn } from './einvoice-status.ts';
import {
  type EInvoicePlatform,
  EInvoicePlatformError,
  type EInvoiceStatusStep,
  type EInvoiceTransmission,
  type PaymentRecord,
} from './ports.ts';

/**
 * Issued documents to the e-invoicing platform and their statuses back (docs/einvoicing.md). Each
 * issued invoice and credit note gets a `pending` transmission and a job in its issuing
 * transaction; the job hands its Factur-X to the platform, which is asked first whether it already
 * has that number (a retry after an outage, or after a worker killed mid-submission, sends nothing
 * twice). Every status change is stored with its history and told as `invoice.status_changed`.
 */
export interface EInvoiceTransmissionService {
  /** The submission job: hands the document to the platform once. */
  submit(documentId: string): Promise<EInvoiceTransmission>;
  /** The payment job: sends a paid invoice's payment data once; false when there is none to send. */
  reportPayment(invoiceId: string): Promise<boolean>;
  /** The scheduled job: reads the platform's status updates since the last reading. */
  sync(): Promise<{ read: number; changed: number }>;
  /** A document's transmission and every status it went through; null when it has none. */
  details(
    documentId: string,
  ): Promise<{ transmission: EInvoiceTransmission; history: EInvoiceStatusStep[] } | null>;
}

export function einvoiceTransmissionService(deps: {
  stores: Pick<Stores, 'einvoices'>;
  transact: Transact;
  outbox: Outbox;
  invoices: Pick<InvoiceService, 'facturX' | 'get' | 'json'>;
  platform: EInvoicePlatform;
  clock: Clock;
}): EInvoiceTransmissionService {
  const { transact, outbox, invoices, platform, clock } = deps;
  const { einvoices } = deps.stores;

  async function transmissionOf(documentId: string): Promise<EInvoiceTransmission> {
    const transmission = await einvoices.find(documentId);
    if (!transmission) throw new AppError('not_found', `No e-invoice transmission for "${documentId}".`);
    return transmission;
  }

  /**
   * Moves the document to `status` when that moves it on (late or repeated updates are ignored),
   * with its history row and the `invoice.status_changed` event, in one transaction.
   */
  async function changeStatus(
    transmission: EInvoiceTransmission,
    step: EInvoiceStatusStep,
  ): Promise<boolean> {
    if (!movesOn(transmission.status, step.status)) return false;
    // Read before the transaction: a connection it holds never waits for another from the pool.
    const listeners = await outbox.jobsFor(transmission.brandId, 'invoice.status_changed');
    const { invoice } = await invoices.get(transmission.brandId, transmission.documentId);
    return transact(async (tx) => {
      const current = await tx.einvoices.lock(transmission.documentId);
      if (!current || !movesOn(current.status, step.status)) return false;
      await tx.einvoices.setStatus(transmission.documentId, step);
      const event = outbox.eventWith(
        listeners,
        transmission.brandId,
        'invoice.status_changed',
        step.at,
        () => ({
          invoice: invoices.json({ ...invoice, einvoice: step }),
          previous_einvoice_status: current.status,
        }),
      );
      if (event) await tx.outbox.append(event);
      return true;
    });
  }

  const failure = (err: unknown) => (err instanceof Error ? err.message : String(err));

  return {
    async submit(documentId: string) {
      const transmission = await transmissionOf(documentId);
      // Already handed over (the job ran again after its first run committed): nothing to do.
      if (transmission.flowId !== null) return transmission;
      let facturX: FacturX;
      try {
        facturX = await invoices.facturX(documentId);
      } catch (err) {
        await einvoices.recordFailure(documentId, `the Factur-X could not be made: ${failure(err)}`);
        throw err;
      }
      let receipt: Awaited<ReturnType<EInvoicePlatform['submit']>>;
      try {
        receipt = await platform.submit({
          trackingId: transmission.number,
          typeCode: facturX.document.typeCode,
          fileName: `${transmission.number}.pdf`,
          pdf: facturX.pdf,
          sha256: createHash('sha256').update(facturX.pdf).digest('hex'),
        });
      } catch (err) {
        await einvoices.recordFailure(documentId, failure(err));
        // Refused as it is: retrying sends the same bytes to the same answer. The operator reads why.
        if (err instanceof EInvoicePlatformError && err.kind === 'refused') {
          await changeStatus(transmission, { status: 'rejected', reason: err.message, at: clock() });
          return transmissionOf(documentId);
        }
        throw err;
      }
      await einvoices.recordSubmission(documentId, {
        platform: platform.name,
        flowId: receipt.flowId,
        at: receipt.at,
      });
      await changeStatus(transmission, { status: receipt.status, reason: receipt.reason, at: receipt.at });
      return transmissionOf(documentId);
    },

    async reportPayment(invoiceId: string) {
      const report = await einvoices.paymentReport(invoiceId);
      if (!report || report.status === 'sent') return false;
      const { document } = await invoices.facturX(invoiceId);
      const record: PaymentRecord = {
        invoiceNumber: document.number,
        invoiceIssueDate: document.issueDate,
        paidOn: report.paidOn,
        currency: 'EUR',
        seller: { siren: document.seller.siren, name: document.seller.name },
        buyer: { siren: document.buyer.siren, name: document.buyer.name },
        amounts: report.amounts,
      };
      let sent: { flowId: string; at: Date };
      try {
        sent = await platform.reportPayment(record);
      } catch (err) {
        await einvoices.recordPaymentFailure(invoiceId, failure(err));
        throw err;
      }
      await einvoices.markPaymentSent(invoiceId, sent.flowId, sent.at);
      const transmission = await einvoices.find(invoiceId);
      if (transmission) {
        const total = report.amounts.reduce((sum, a) => sum + a.totalCents, 0);
        await changeStatus(transmission, {
          status: 'paid',
          reason: `payment of ${(total / 100).toFixed(2)} EUR on ${report.paidOn} reported`,
          at: sent.at,
        });
      }
      return true;
    },

    async sync() {
      const cursor = await einvoices.syncCursor(platform.name);
      const { updates, cursor: next } = await platform.updates(cursor);
      let changed = 0;
      for (const update of updates) {
        const transmission = await einvoices.findByNumber(update.trackingId);
        if (!transmission) continue; // not one of ours (another tool's flow on the same account)
        const step = { status: update.status as EInvoiceStatus, reason: update.reason, at: update.at };
        if (await changeStatus(transmission, step)) changed++;
      }
      await einvoices.saveSyncCursor(platform.name, next, clock());
      return { read: updates.length, changed };
    },

    async details(documentId: string) {
      const transmission = await einvoices.find(documentId);
      if (!transmission) return null;
      return { transmission, history: await einvoices.history(documentId) };
    },
  };
}
