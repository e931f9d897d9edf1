export {
  billingPeriodOf,
  dueDateFor,
  formatPeriodFr,
  nextPeriod,
  PAYMENT_TERM_DAYS,
  parsePeriod,
  periodBounds,
  previousPeriod,
} from './billing-period.ts';
export { formatDateFr, formatEurosFr, formatParisDateFr } from './format-fr.ts';
export type { InvoiceNumberParts } from './invoice-number.ts';
export { formatInvoiceNumber, MAX_INVOICE_SEQUENCE, parseInvoiceNumber } from './invoice-number.ts';
export type { InvoicePdfData } from './invoice-pdf.ts';
export { DRAFT_MENTION, renderInvoicePdf } from './invoice-pdf.ts';
export type { BillableOrder, InvoiceLine, InvoiceTotals } from './invoice-totals.ts';
export { lineFromOrder, totalsOf } from './invoice-totals.ts';
export type { SellerIdentity } from './seller.ts';
export { DEFAULT_SELLER } from './seller.ts';
