import type { EInvoiceDocument } from '../einvoicing/e-invoice.ts';
import { FACTUR_X_FILE_NAME, facturXXmp, safeForXmp } from '../einvoicing/factur-x-xmp.ts';
import { frenchMentions } from '../einvoicing/french-mentions.ts';
import { co2eInvoiceNote, gramsCo2eFr, linesCo2e } from '../emissions/invoice-note.ts';
import { formatPeriodFr } from './billing-period.ts';
import { formatDateFr, formatEurosFr, formatParisDateFr } from './format-fr.ts';
import {
  bottomLimit,
  contentWidth,
  type Doc,
  drawLinesTable,
  EMBEDDED_FONT_FILE,
  embedFonts,
  FONT,
  FONT_BOLD,
  GREY,
  MARGIN,
  textAt,
} from './invoice-pdf-layout.ts';
import type { InvoiceLine, InvoiceTotals } from './invoice-totals.ts';
import { formatSiren, type SellerIdentity } from './seller.ts';

export { DEFAULT_SELLER } from './seller.ts';

export interface InvoicePdfData {
  /** Ignored for a draft, which has no number yet (numbers are allocated at issue, gap-free). */
  number: string;
  period: string;
  issuedAt: Date;
  /** YYYY-MM-DD (Paris). */
  dueDate: string;
  status: 'draft' | 'issued' | 'paid';
  seller: SellerIdentity;
  /** The brand's legal name, billing address, SIREN and VAT number when its owner set them. */
  buyer: {
    name: string;
    id: string;
    address: string | null;
    siren?: string | null;
    siret?: string | null;
    vatNumber?: string | null;
  };
  lines: InvoiceLine[];
  totals: InvoiceTotals;
  currency: 'EUR';
  /** Present on a credit note (lines and totals negative): the invoice it corrects. */
  creditNote?: { invoiceNumber: string; invoiceIssuedAt: Date };
  /**
   * An issued document's EN 16931 form and its CII XML: the PDF is then a Factur-X (PDF/A-3b with
   * the XML embedded as factur-x.xml), and prints the document's mentions and deliver-to address.
   */
  eInvoice?: { document: EInvoiceDocument; xml: string };
  /** The operator's VAT option (EINVOICE_VAT_ON_DEBITS), for a draft's mentions. */
  vatOnDebits?: boolean;
}

const DRAFT_TITLE = 'PROFORMA / BROUILLON';
const DRAFT_NOTICE = 'ne vaut pas facture (not a valid invoice)';
const STATUS_FR = { draft: 'brouillon', issued: 'émise', paid: 'payée' } as const;
const CREDIT_NOTE_TITLE = "FACTURE D'AVOIR";

/**
 * The invoice as a PDF (A4, its fonts embedded). An issued invoice or credit note given with its
 * e-invoice is a Factur-X: PDF/A-3b, its CII XML attached as `factur-x.xml` (relationship
 * Alternative: the XML is the same invoice in structured form, profile EN 16931), the Factur-X
 * XMP properties and their extension schema, the sRGB output intent pdfkit adds for PDF/A. The same
 * data always gives the same bytes: the creation date is the issue date, and pdfkit derives the file
 * id from the document info.
 */
export async function renderInvoicePdf(invoice: InvoicePdfData): Promise<Buffer> {
  // Loaded with the first invoice rendered: pdfkit and its fonts' tables weigh ~20 MB an API
  // process that never renders one should not carry.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise<Buffer>((resolve, reject) => {
    const isDraft = invoice.status === 'draft';
    const number = isDraft ? '—' : invoice.number;
    const facturX = isDraft ? undefined : invoice.eInvoice;
    const author = invoice.seller.name;
    const doc: Doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      bufferPages: true, // "Page i/n" needs n, known only once every page exists
      font: EMBEDDED_FONT_FILE,
      ...(facturX ? { subset: 'PDF/A-3b' as const, pdfVersion: '1.7' as const } : {}),
      info: {
        Title: isDraft ? `Facture proforma ${invoice.period}` : `${documentName(invoice)} ${invoice.number}`,
        ...(safeForXmp(author) ? { Author: author } : {}),
        ...(safeForXmp(invoice.buyer.name)
          ? { Subject: `Période ${invoice.period} — ${invoice.buyer.name}` }
          : {}),
        CreationDate: invoice.issuedAt,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      embedFonts(doc);
      if (facturX) attachFacturX(doc, facturX.xml, invoice.issuedAt);
      let y = drawFirstPageHeader(doc, invoice, number);
      y = drawLinesTable(doc, invoice.lines, y, () => drawContinuationHeader(doc, invoice, number));
      drawClosing(doc, invoice, y + 12);
      drawPageDecorations(doc, invoice, isDraft);
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

/** pdfkit's `file` options, with the AFRelationship its type declarations (0.17) do not list yet. */
type AttachmentOptions = NonNullable<Parameters<Doc['file']>[1]> & { relationship: 'Alternative' | 'Data' };

function attachFacturX(doc: Doc, xml: string, issuedAt: Date): void {
  const options: AttachmentOptions = {
    name: FACTUR_X_FILE_NAME,
    type: 'text/xml',
    relationship: 'Alternative',
    description: 'Factur-X: this invoice in CII XML, profile EN 16931',
    creationDate: issuedAt,
    modifiedDate: issuedAt,
  };
  doc.file(Buffer.from(xml, 'utf8'), options);
  doc.appendXML(facturXXmp());
}

function drawFirstPageHeader(doc: Doc, invoice: InvoicePdfData, number: string): number {
  const { seller, buyer } = invoice;
  const right = MARGIN + contentWidth(doc) / 2;
  const half = contentWidth(doc) / 2;

  // Issuer identity, top left: name, address, SIREN and VAT number are mandatory mentions.
  let y = MARGIN;
  textAt(doc, seller.name, MARGIN, y, { font: FONT_BOLD, size: 12 });
  y += 17;
  const sellerLines = [
    ...seller.address,
    `SIREN : ${seller.siren}${seller.siret ? ` — SIRET : ${seller.siret}` : ''}`,
    `TVA intracommunautaire : ${seller.vatNumber}`,
    ...(seller.email ? [seller.email] : []),
  ];
  for (const line of sellerLines) {
    textAt(doc, line, MARGIN, y, { width: half - 10 });
    y += 12;
  }

  // Title block, top right.
  let ry = MARGIN;
  if (invoice.status === 'draft') {
    textAt(doc, DRAFT_TITLE, right, ry, {
      width: half,
      align: 'right',
      font: FONT_BOLD,
      size: 18,
    });
    ry += 22;
    textAt(doc, DRAFT_NOTICE, right, ry, { width: half, align: 'right', size: 8 });
    ry += 12;
  } else if (invoice.creditNote) {
    textAt(doc, CREDIT_NOTE_TITLE, right, ry, { width: half, align: 'right', font: FONT_BOLD, size: 20 });
    ry += 24;
    textAt(doc, 'CREDIT NOTE', right, ry, { width: half, align: 'right', font: FONT_BOLD, size: 10 });
    ry += 16;
  } else {
    textAt(doc, 'FACTURE', right, ry, { width: half, align: 'right', font: FONT_BOLD, size: 20 });
    ry += 26;
  }
  const credited = invoice.creditNote;
  const meta = credited
    ? [
        `N° ${number}`,
        `Date de l'avoir : ${formatParisDateFr(invoice.issuedAt)}`,
        `Avoir sur la facture N° ${credited.invoiceNumber} du ${formatParisDateFr(credited.invoiceIssuedAt)}`,
        `Période de la facture : ${formatPeriodFr(invoice.period)}`,
        'Statut : émis',
      ]
    : [
        `N° ${number}`,
        `${invoice.status === 'draft' ? "Date d'édition" : 'Date de facture'} : ${formatParisDateFr(invoice.issuedAt)}`,
        `Période : ${formatPeriodFr(invoice.period)}`,
        `Échéance : ${formatDateFr(invoice.dueDate)}`,
        `Statut : ${STATUS_FR[invoice.status]}`,
      ];
  for (const [index, line] of meta.entries()) {
    textAt(doc, line, right, ry, { width: half, align: 'right', font: index === 0 ? FONT_BOLD : FONT });
    ry += 13;
  }

  // Buyer block.
  y = Math.max(y, ry) + 18;
  textAt(doc, 'Facturé à', MARGIN, y, { size: 8, font: FONT_BOLD });
  y += 12;
  textAt(doc, buyer.name, MARGIN, y, { font: FONT_BOLD, size: 10, width: contentWidth(doc) });
  y += 14;
  textAt(doc, `Client : ${buyer.id}`, MARGIN, y, { width: contentWidth(doc) });
  y += 12;
  if (buyer.address) {
    doc.font(FONT).fontSize(9);
    doc.text(buyer.address, MARGIN, y, { width: half });
    y = doc.y;
  }
  // A B2B invoice names the buyer's registration when it has one.
  const deliverTo = invoice.eInvoice?.document.deliverTo;
  const registration = [
    ...(buyer.siren ? [`SIREN : ${formatSiren(buyer.siren)}`] : []),
    ...(buyer.siret ? [`SIRET : ${buyer.siret}`] : []),
    ...(buyer.vatNumber ? [`TVA intracommunautaire : ${buyer.vatNumber}`] : []),
    // Where the service is performed, when it is not the billing address (a mention since 2026).
    ...(deliverTo
      ? [
          `Lieu de prise en charge : ${[...deliverTo.lines, `${deliverTo.postcode} ${deliverTo.city}`].join(', ')}`,
        ]
      : []),
  ];
  for (const line of registration) {
    textAt(doc, line, MARGIN, y, { width: contentWidth(doc) });
    y += 12;
  }
  y += 14;
  const counted = invoice.creditNote ? 'Livraisons annulées, créditées' : 'Livraisons facturées';
  textAt(doc, `${counted} : ${invoice.totals.orderCount}`, MARGIN, y, { size: 9, font: FONT_BOLD });
  return y + 16;
}

/** Pages after the first repeat who and what the page belongs to, above the repeated table header. */
function drawContinuationHeader(doc: Doc, invoice: InvoicePdfData, number: string): number {
  const title = invoice.status === 'draft' ? DRAFT_TITLE : `${documentName(invoice)} ${number}`;
  textAt(doc, `${title} — ${invoice.seller.name} — ${invoice.buyer.name} (suite)`, MARGIN, MARGIN, {
    width: contentWidth(doc),
    size: 8,
  });
  return MARGIN + 16;
}

function drawClosing(doc: Doc, invoice: InvoicePdfData, top: number): void {
  const width = contentWidth(doc);
  const terms = legalMentions(invoice);
  doc.font(FONT).fontSize(8);
  const termsHeight = terms.reduce((sum, text) => sum + doc.heightOfString(text, { width }) + 4, 0);
  const co2e = linesCo2e(invoice.lines);
  const needed = (co2e ? 4 : 3) * 15 + 16 + termsHeight;
  let y = top;
  // Totals and terms stay together: a lone "Total TTC" on a page of its own reads as a mistake.
  if (y + needed > bottomLimit(doc)) {
    doc.addPage();
    y = MARGIN;
  }

  const labelX = MARGIN + width - 230;
  const totals: [string, number, boolean][] = [
    ['Total HT', invoice.totals.totalExclTaxCents, false],
    ['TVA 20 %', invoice.totals.vatCents, false],
    ['Total TTC', invoice.totals.totalCents, true],
  ];
  for (const [label, cents, strong] of totals) {
    const font = strong ? FONT_BOLD : FONT;
    textAt(doc, label, labelX, y, { width: 110, font, size: 10 });
    textAt(doc, formatEurosFr(cents), labelX + 110, y, { width: 120, align: 'right', font, size: 10 });
    y += 15;
  }
  // Information, not money (no currency): the lines' CO₂e summed, in grams as on each line.
  if (co2e) {
    textAt(doc, 'CO₂e du transport', labelX, y, { width: 110, size: 9, font: FONT });
    textAt(doc, gramsCo2eFr(co2e.grams), labelX + 110, y, { width: 120, align: 'right', size: 9 });
    y += 15;
  }
  y += 16;

  doc.font(FONT).fontSize(8).fillColor(GREY);
  for (const text of terms) {
    doc.text(text, MARGIN, y, { width });
    y = doc.y + 4;
  }
  doc.fillColor('black');
}

/**
 * Mentions a French B2B invoice must carry (Code de commerce art. L441-9 and L441-10, D441-5, and
 * those of the 2026 e-invoicing reform): payment date and means, the nature of the operation, the
 * VAT option, early-payment discount terms, late-payment penalty rate and the 40 € indemnity. The
 * same notes as the Factur-X XML's (french-mentions.ts), in the same order.
 */
function legalMentions(invoice: InvoicePdfData): string[] {
  const credited = invoice.creditNote;
  const iban = invoice.seller.iban;
  const account = iban
    ? ` sur le compte IBAN ${iban.replace(/(.{4})(?=.)/g, '$1 ')}${invoice.seller.bic ? ` (BIC ${invoice.seller.bic})` : ''}`
    : '';
  // A draft (no e-invoice yet) prints the notes the issued document will carry, the CO₂e one included.
  const co2eNote = co2eInvoiceNote(invoice.lines);
  const notes =
    invoice.eInvoice?.document.notes ??
    frenchMentions({ vatOnDebits: invoice.vatOnDebits ?? false, extra: co2eNote ? [co2eNote] : [] });
  return [
    credited
      ? `Avoir émis pour des livraisons annulées après l'émission de la facture N° ${credited.invoiceNumber}, qui reste inchangée. ` +
        `Son montant vient en déduction du règlement de cette facture, ou est remboursé par virement si elle est déjà réglée. Montants en euros (${invoice.currency}).`
      : `Conditions de paiement : à 30 jours date de facture, soit au plus tard le ${formatDateFr(invoice.dueDate)}, par virement bancaire${account}. Montants en euros (${invoice.currency}).`,
    ...notes.map((note) => note.text),
  ];
}

function documentName(invoice: InvoicePdfData): string {
  return invoice.creditNote ? "Facture d'avoir" : 'Facture';
}

/** Footer with "Page i/n" and, on a draft, a watermark: both need the final page count or every page. */
function drawPageDecorations(doc: Doc, invoice: InvoicePdfData, isDraft: boolean): void {
  const range = doc.bufferedPageRange();
  const footer = `${invoice.seller.name} — SIREN ${invoice.seller.siren} — TVA ${invoice.seller.vatNumber}`;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin; without this pdfkit would see it as overflow.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN + 18;
    const width = contentWidth(doc);
    textAt(doc, footer, MARGIN, y, { width: width - 70, size: 7.5, font: FONT });
    textAt(doc, `Page ${i - range.start + 1}/${range.count}`, MARGIN + width - 70, y, {
      width: 70,
      align: 'right',
      size: 7.5,
    });
    if (isDraft) drawWatermark(doc);
  }
}

function drawWatermark(doc: Doc): void {
  const cx = doc.page.width / 2;
  const cy = doc.page.height / 2;
  doc.save();
  doc.rotate(-40, { origin: [cx, cy] });
  doc.fillColor('#cc0000').fillOpacity(0.12);
  doc.font(FONT_BOLD).fontSize(72);
  const text = 'BROUILLON';
  textAt(doc, text, cx - doc.widthOfString(text) / 2, cy - 36, { font: FONT_BOLD, size: 72 });
  doc.restore();
}
