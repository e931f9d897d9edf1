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
 * Rounding rule (EN 16931 BR-CO-17): each line shows its own VAT rounded to the cent (what the
 * brand saw per order), but the document's VAT is computed once on the category's basis (the sum of
 * the lines excl. tax × the rate, rounded once), as the e-invoice's breakdown must state it. Over
 * many lines the two can differ by a few cents; the document's total is excl. + that VAT.
 */
export function totalsOf(lines: readonly InvoiceLine[]): InvoiceTotals {
  let totalExclTaxCents = 0;
  for (const line of lines) totalExclTaxCents += line.priceExclTaxCents;
  const vat = vatCents(totalExclTaxCents);
  return { orderCount: lines.length, totalExclTaxCents, vatCents: vat, totalCents: totalExclTaxCents + vat };
}
