import { vatCents } from '../pricing/money.ts';

/** One billed order: its creation price, with VAT rounded on the line (money.ts). */
export interface InvoiceLine {
  trackingRef: string;
  service: string;
  createdAt: Date;
  priceExclTaxCents: number;
  vatCents: number;
  priceCents: number;
  /**
   * The order's CO₂e (domain/emissions), read from the order when the line is read: information,
   * not money, so not frozen with the line; null until it is delivered or returned.
   */
  co2eGrams: number | null;
}

export interface InvoiceTotals {
  orderCount: number;
  totalExclTaxCents: number;
  vatCents: number;
  totalCents: number;
}

export interface BillableOrder {
  trackingRef: string;
  service: string;
  createdAt: Date;
  priceExclTaxCents: number;
}

export function lineFromOrder(order: BillableOrder): InvoiceLine {
  const vat = vatCents(order.priceExclTaxCents);
  return {
    trackingRef: order.trackingRef,
    service: order.service,
    createdAt: order.createdAt,
    priceExclTaxCents: order.priceExclTaxCents,
    vatCents: vat,
    priceCents: order.priceExclTaxCents + vat,
    co2eGrams: null,
  };
}

/**
 * Rounding rule: VAT is rounded once per line, and every invoice total is the plain SUM of the line
 * amounts — VAT is never recomputed (re-rounded) on the invoice's total excl. tax. The invoice then
 * always equals the sum of what the brand saw per order, and total = excl + VAT holds to the cent.
 */
export function totalsOf(lines: readonly InvoiceLine[]): InvoiceTotals {
  let totalExclTaxCents = 0;
  let vat = 0;
  let totalCents = 0;
  for (const line of lines) {
    totalExclTaxCents += line.priceExclTaxCents;
    vat += line.vatCents;
    totalCents += line.priceCents;
  }
  return { orderCount: lines.length, totalExclTaxCents, vatCents: vat, totalCents };
}
