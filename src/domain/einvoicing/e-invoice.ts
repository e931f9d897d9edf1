import { addDays } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { co2eInvoiceNote, co2eLineNote } from '../emissions/invoice-note.ts';
import { periodBounds } from '../invoices/billing-period.ts';
import type { InvoiceLine, InvoiceTotals } from '../invoices/invoice-totals.ts';
import type { SellerIdentity } from '../invoices/seller.ts';
import { VAT_RATE } from '../pricing/money.ts';
import { BUSINESS_PROCESS_SERVICES, type EInvoiceNote, frenchMentions } from './french-mentions.ts';
import { type PostalAddress, parsePostalAddress, samePlace } from './postal-address.ts';

/**
 * An issued invoice or credit note as EN 16931 sees it: what the Factur-X XML (cii-xml.ts) says and
 * what the PDF prints beside it. Amounts are integer cents, positive on a credit note (type 381 says
 * it credits; the API and the PDF show the same amounts negative, as they always have).
 */
export interface EInvoiceDocument {
  /** UNTDID 1001: 380 commercial invoice, 381 credit note. */
  typeCode: '380' | '381';
  number: string;
  /** YYYY-MM-DD, Paris. */
  issueDate: string;
  currency: 'EUR';
  businessProcess: string;
  notes: EInvoiceNote[];
  seller: EInvoiceParty & { iban: string | null; bic: string | null; email: string | null };
  buyer: EInvoiceParty & { reference: string };
  /** BG-15, only when the service is performed elsewhere than the billing address (the pickup address). */
  deliverTo: PostalAddress | null;
  /** BG-14: the billed month, first to last day. */
  period: { start: string; end: string };
  /** BT-9; null on a credit note (nothing is due on it). */
  dueDate: string | null;
  /** BT-20. */
  paymentTerms: string | null;
  /** BT-25/26: the invoice a credit note corrects. */
  precedingInvoice: { number: string; issueDate: string } | null;
  /** BT-8: VAT due at invoicing (5, the option for debits) or when paid (72). */
  vatDueDateCode: '5' | '72';
  lines: EInvoiceLine[];
  vatBreakdown: { categoryCode: 'S'; ratePercent: number; basisCents: number; vatCents: number }[];
  totals: {
    lineTotalCents: number;
    taxBasisCents: number;
    vatCents: number;
    grandTotalCents: number;
    duePayableCents: number;
  };
}

export interface EInvoiceParty {
  name: string;
  /** BT-30 / BT-47 (scheme 0002). */
  siren: string;
  /** BT-29 / BT-46 (scheme 0009), when known. */
  siret: string | null;
  /** BT-31 / BT-48. */
  vatNumber: string | null;
  address: PostalAddress;
}

interface EInvoiceLine {
  id: string;
  name: string;
  trackingRef: string;
  /** The order's creation date (Paris): the line's period, first and last day. */
  date: string;
  netCents: number;
  vatCents: number;
  ratePercent: number;
  /** BT-127: the line's CO₂e in grams, said with its unit; null until the order is delivered or returned. */
  note: string | null;
}

/** What a document is made from: the stored invoice or credit note, its frozen buyer, the settings. */
export interface EInvoiceSource {
  kind: 'invoice' | 'credit_note';
  number: string;
  period: string;
  issuedAt: Date;
  dueDate: string | null;
  seller: SellerIdentity;
  buyer: {
    id: string;
    name: string;
    address: string | null;
    siren: string | null;
    siret: string | null;
    vatNumber: string | null;
  };
  /** The brand's default pickup address: where the service starts, the deliver-to address when it differs. */
  pickupAddress: string | null;
  lines: readonly InvoiceLine[];
  totals: InvoiceTotals;
  creditedInvoice: { number: string; issuedAt: Date } | null;
  vatOnDebits: boolean;
  /** More notes after the legal ones (the CO₂e note's place). */
  extraNotes?: readonly EInvoiceNote[];
}

/** Raised when a document lacks what EN 16931 needs; issuing refuses such a brand first (company-readiness.ts). */
class EInvoiceDataMissing extends Error {}

const SERVICE_NAMES: Record<string, string> = {
  express: 'Livraison express',
  standard: 'Livraison standard',
  economy: 'Livraison économique',
};

const PAYMENT_TERMS_DAYS = 30;
const RATE_PERCENT = Math.round(VAT_RATE * 100);

export function eInvoiceDocument(source: EInvoiceSource): EInvoiceDocument {
  const credit = source.kind === 'credit_note';
  // Stored credit-note lines are negative; a 381 carries them positive.
  const sign = credit ? -1 : 1;
  const sellerAddress = parsePostalAddress(source.seller.address.join('\n'));
  if (!sellerAddress)
    throw new EInvoiceDataMissing('the seller address (SELLER_ADDRESS) has no "postcode city" line');
  if (!source.buyer.siren) throw new EInvoiceDataMissing(`the buyer ${source.buyer.id} has no SIREN`);
  const buyerAddress = source.buyer.address ? parsePostalAddress(source.buyer.address) : null;
  if (!buyerAddress)
    throw new EInvoiceDataMissing(
      `the buyer ${source.buyer.id} has no billing address with a postcode and a city`,
    );
  const pickup = source.pickupAddress ? parsePostalAddress(source.pickupAddress) : null;
  const { start, end } = periodBounds(source.period);
  const lines = source.lines.map(
    (line, index): EInvoiceLine => ({
      id: String(index + 1),
      name: `${SERVICE_NAMES[line.service] ?? `Livraison ${line.service}`} ${line.trackingRef}`,
      trackingRef: line.trackingRef,
      date: parisToday(line.createdAt),
      netCents: sign * line.priceExclTaxCents,
      vatCents: sign * line.vatCents,
      ratePercent: RATE_PERCENT,
      note: co2eLineNote(line),
    }),
  );
  const co2eNote = co2eInvoiceNote(source.lines);
  const co2e = co2eNote ? [co2eNote] : [];
  const basis = sign * source.totals.totalExclTaxCents;
  const vat = sign * source.totals.vatCents;
  const total = sign * source.totals.totalCents;
  return {
    typeCode: credit ? '381' : '380',
    number: source.number,
    issueDate: parisToday(source.issuedAt),
    currency: 'EUR',
    businessProcess: BUSINESS_PROCESS_SERVICES,
    notes: frenchMentions({
      vatOnDebits: source.vatOnDebits,
      extra: [...(source.extraNotes ?? []), ...co2e],
    }),
    seller: {
      name: source.seller.name,
      siren: source.seller.siren.replace(/\s/g, ''),
      siret: source.seller.siret ?? null,
      vatNumber: source.seller.vatNumber,
      address: sellerAddress,
      iban: source.seller.iban ?? null,
      bic: source.seller.bic ?? null,
      email: source.seller.email ?? null,
    },
    buyer: {
      name: source.buyer.name,
      siren: source.buyer.siren,
      siret: source.buyer.siret,
      vatNumber: source.buyer.vatNumber,
      address: buyerAddress,
      reference: source.buyer.id,
    },
    deliverTo: pickup && !samePlace(pickup, buyerAddress) ? pickup : null,
    period: { start: parisToday(start), end: addDays(parisToday(end), -1) },
    dueDate: credit ? null : source.dueDate,
    paymentTerms: credit
      ? 'Avoir : vient en déduction du règlement de la facture corrigée, ou remboursé par virement si elle est déjà réglée.'
      : `Paiement à ${PAYMENT_TERMS_DAYS} jours date de facture, par virement bancaire.`,
    precedingInvoice: source.creditedInvoice
      ? { number: source.creditedInvoice.number, issueDate: parisToday(source.creditedInvoice.issuedAt) }
      : null,
    vatDueDateCode: source.vatOnDebits ? '5' : '72',
    lines,
    vatBreakdown: [{ categoryCode: 'S', ratePercent: RATE_PERCENT, basisCents: basis, vatCents: vat }],
    totals: {
      lineTotalCents: basis,
      taxBasisCents: basis,
      vatCents: vat,
      grandTotalCents: total,
      duePayableCents: total,
    },
  };
}
