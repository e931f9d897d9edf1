import type { EInvoiceStatus } from './einvoice-status.ts';

/** The document's transmission as stored (migration 0045). */
export interface EInvoiceTransmission {
  documentId: string;
  brandId: string;
  number: string;
  status: EInvoiceStatus;
  statusReason: string | null;
  statusAt: Date;
  platform: string | null;
  flowId: string | null;
  submittedAt: Date | null;
  attempts: number;
  lastError: string | null;
}

export interface EInvoiceStatusStep {
  status: EInvoiceStatus;
  reason: string | null;
  at: Date;
}

/** The payment data of a paid invoice, per VAT rate (e-reporting of services without the debits option). */
export interface PaymentRecord {
  invoiceNumber: string;
  /** YYYY-MM-DD. */
  invoiceIssueDate: string;
  /** YYYY-MM-DD (Paris): the day it was marked paid. */
  paidOn: string;
  currency: 'EUR';
  seller: { siren: string; name: string };
  buyer: { siren: string; name: string };
  amounts: PaymentAmount[];
}

export interface PaymentAmount {
  ratePercent: number;
  taxableCents: number;
  vatCents: number;
  totalCents: number;
}

export interface StoredPaymentReport {
  invoiceId: string;
  brandId: string;
  paidOn: string;
  amounts: PaymentAmount[];
  status: 'pending' | 'sent';
  flowId: string | null;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
}

export interface EInvoiceStore {
  /** In the issuing transaction: the document's row (`pending`) and its submission job. */
  queueSubmission(row: { documentId: string; brandId: string; number: string; at: Date }): Promise<void>;
  find(documentId: string): Promise<EInvoiceTransmission | null>;
  findByNumber(number: string): Promise<EInvoiceTransmission | null>;
  /** Each document's current status, for a page of invoices. */
  statusesOf(documentIds: readonly string[]): Promise<Map<string, EInvoiceStatusStep>>;
  history(documentId: string): Promise<EInvoiceStatusStep[]>;
  /** A failed attempt (kept for the operator: the job retries). */
  recordFailure(documentId: string, error: string): Promise<void>;
  recordSubmission(
    documentId: string,
    submission: { platform: string; flowId: string; at: Date },
  ): Promise<void>;
  /** Moves the status and appends it to the history; false when it was already that status. */
  setStatus(documentId: string, step: EInvoiceStatusStep): Promise<boolean>;
  /** Locks the document's row until the transaction ends (a status change is read, then written). */
  lock(documentId: string): Promise<EInvoiceTransmission | null>;
  /** In the paying transaction: the report (`pending`) and its job. */
  queuePaymentReport(report: {
    invoiceId: string;
    brandId: string;
    paidOn: string;
    amounts: PaymentAmount[];
    at: Date;
  }): Promise<void>;
  paymentReport(invoiceId: string): Promise<StoredPaymentReport | null>;
  recordPaymentFailure(invoiceId: string, error: string): Promise<void>;
  markPaymentSent(invoiceId: string, flowId: string, at: Date): Promise<void>;
  syncCursor(platform: string): Promise<string | null>;
  saveSyncCursor(platform: string, cursor: string, at: Date): Promise<void>;
}

/** What a platform is handed: one issued document, its Factur-X. */
export interface OutgoingEInvoice {
  /** The document's number: the platform's tracking id, what makes a retry find the first submission. */
  trackingId: string;
  typeCode: '380' | '381';
  fileName: string;
  pdf: Buffer;
  sha256: string;
}

export interface SubmissionReceipt {
  flowId: string;
  at: Date;
  /** True when the platform already had it (a retry after an outage or a crash): nothing was sent twice. */
  alreadySubmitted: boolean;
  /** The platform's verdict when it gave one at once (a rejection with its reason). */
  status: 'deposited' | 'rejected';
  reason: string | null;
}

export interface StatusUpdate {
  /** The document's number. */
  trackingId: string;
  status: EInvoiceStatus;
  reason: string | null;
  at: Date;
}

/**
 * An approved e-invoicing platform (plateforme agréée): takes the issued documents and the payment
 * data, and tells what became of them. Adapters: a directory (the default, like the mail and SMS
 * drops) and the AFNOR XP Z12-013 flow API (infra/einvoicing/).
 */
export interface EInvoicePlatform {
  readonly name: string;
  /** Idempotent by `trackingId`: a document the platform already has is not sent again. */
  submit(document: OutgoingEInvoice): Promise<SubmissionReceipt>;
  /** Idempotent by invoice number. */
  reportPayment(record: PaymentRecord): Promise<{ flowId: string; at: Date }>;
  /** Status changes after `cursor` (null: all), and the cursor to read from next time. */
  updates(cursor: string | null): Promise<{ updates: StatusUpdate[]; cursor: string }>;
}

/**
 * A platform's failure. `retry_later`: an outage, throttling or a server error (the job tries again,
 * after `retryAfterMs` when the platform said); `refused`: the platform will not take this request
 * as it is (its code and message kept for the operator).
 */
export class EInvoicePlatformError extends Error {
  constructor(
    readonly kind: 'retry_later' | 'refused',
    message: string,
    readonly details: { code?: string; retryAfterMs?: number; status?: number } = {},
  ) {
    super(message);
    this.name = 'EInvoicePlatformError';
  }
}
