import PDFDocument from 'pdfkit';
import { formatDateFr, formatParisDateFr } from '../invoices/format-fr.ts';
import { type Doc, FONT_BOLD, GREY, textAt } from '../invoices/invoice-pdf-layout.ts';
import { code128Png } from '../labels/barcodes.ts';
import type { ManifestParcel, Pickup } from './ports.ts';

export interface ManifestData {
  brandName: string;
  pickup: Pickup;
  parcels: ManifestParcel[];
}

const MARGIN = 40;
const ROW_HEIGHT = 54;
// As wide as the column allows: a Code 128 of a tracking ref is ~180 modules, so about 1 pt each.
const BARCODE = { width: 196, height: 40 };
// Columns across the A4 content width (595.28 − 2 × 40): #, barcode, reference, destination, weight,
// units; titles in French over English.
const COLUMNS = [
  { title: ['N°', ''], width: 22 },
  { title: ['Code-barres', 'Barcode'], width: 206 },
  { title: ['Référence', 'Reference'], width: 118 },
  { title: ['Destination', 'Destination'], width: 96 },
  { title: ['Poids', 'Weight'], width: 42 },
  { title: ['Colis', 'Units'], width: 31 },
] as const;
const TITLES_HEIGHT = 24;
const SIGNATURES_HEIGHT = 150;
const TOTALS_HEIGHT = 34;

const kg = (grams: number) => `${(grams / 1000).toFixed(2).replace('.', ',')} kg`;

/**
 * The handover manifest (bordereau de remise) of a pickup: what the courier takes, one row per
 * parcel with its Code 128 barcode (drawn as on the label, so the same scanner reads both), the
 * totals, and the boxes both sides sign. A4, built-in Helvetica (renders offline, as the invoices).
 * Pages are broken here, never by pdfkit: each repeats the header and the column titles.
 */
export async function renderManifestPdf(data: ManifestData): Promise<Buffer> {
  const barcodes = await Promise.all(
    data.parcels.map((p) => code128Png(p.trackingRef, { heightMm: 10, scale: 2 })),
  );
  const { pickup } = data;
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    // Kept until the end so each page can be numbered against the total, known only then.
    bufferPages: true,
    info: {
      Title: `Bordereau de remise ${pickup.id}`,
      Author: 'Delivery Orders',
      CreationDate: pickup.closedAt ?? new Date(`${pickup.date}T00:00:00Z`),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = () => doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;

  const newPage = (): number => {
    doc.addPage();
    let y = MARGIN;
    textAt(doc, 'BORDEREAU DE REMISE / HANDOVER MANIFEST', MARGIN, y, { font: FONT_BOLD, size: 15 });
    y += 24;
    const facts: Array<[string, string]> = [
      ['Marque / Brand', data.brandName],
      ['Adresse d’enlèvement / Pickup address', pickup.pickupAddress],
      ['Date', formatDateFr(pickup.date)],
      ['Créneau / Window', `${pickup.window.start} – ${pickup.window.end}`],
      ['Enlèvement / Pickup', pickup.id],
    ];
    for (const [label, value] of facts) {
      textAt(doc, label, MARGIN, y, { size: 8.5, width: 190 });
      doc.fillColor('black');
      textAt(doc, value, MARGIN + 195, y, { font: FONT_BOLD, size: 9.5, width: width() - 195 });
      y += 14;
    }
    y += 6;
    return drawColumnTitles(y);
  };

  const drawColumnTitles = (y: number): number => {
    doc.rect(MARGIN, y, width(), TITLES_HEIGHT).fill('#e8e8e8').fillColor('black');
    let x = MARGIN;
    for (const column of COLUMNS) {
      textAt(doc, column.title[0], x + 3, y + 3, { font: FONT_BOLD, size: 7.5, width: column.width - 4 });
      textAt(doc, column.title[1], x + 3, y + 13, { size: 7, width: column.width - 4 });
      x += column.width;
    }
    return y + TITLES_HEIGHT;
  };

  let y = newPage();
  data.parcels.forEach((parcel, index) => {
    if (y + ROW_HEIGHT > bottom()) y = newPage();
    let x = MARGIN;
    const cell = (i: number) => {
      const left = x;
      x += COLUMNS[i]!.width;
      return left;
    };
    textAt(doc, String(index + 1), cell(0) + 3, y + 20, { size: 9 });
    doc.image(barcodes[index]!, cell(1) + 2, y + 7, { fit: [BARCODE.width, BARCODE.height] });
    const refX = cell(2) + 3;
    textAt(doc, parcel.trackingRef, refX, y + 14, { font: FONT_BOLD, size: 9.5, width: 114 });
    if (parcel.reference) {
      textAt(doc, parcel.reference, refX, y + 28, { size: 8, width: 114 });
    }
    const destX = cell(3) + 3;
    textAt(doc, parcel.deliveryPostcode ?? '—', destX, y + 14, { font: FONT_BOLD, size: 9.5, width: 90 });
    textAt(doc, parcel.deliveryCity ?? '', destX, y + 28, { size: 8, width: 90 });
    textAt(doc, kg(parcel.unitWeightGrams * parcel.quantity), cell(4), y + 20, {
      size: 9,
      width: COLUMNS[4].width - 3,
      align: 'right',
    });
    textAt(doc, String(parcel.quantity), cell(5), y + 20, {
      size: 9,
      width: COLUMNS[5].width - 3,
      align: 'right',
    });
    doc
      .moveTo(MARGIN, y + ROW_HEIGHT)
      .lineTo(MARGIN + width(), y + ROW_HEIGHT)
      .lineWidth(0.5)
      .strokeColor('#bbbbbb')
      .stroke();
    y += ROW_HEIGHT;
  });
  if (data.parcels.length === 0) {
    textAt(doc, 'Aucun colis / No parcel', MARGIN + 3, y + 10, { size: 10 });
    y += 30;
  }

  if (y + TOTALS_HEIGHT + SIGNATURES_HEIGHT > bottom()) y = newPage();
  const units = data.parcels.reduce((sum, p) => sum + p.quantity, 0);
  const grams = data.parcels.reduce((sum, p) => sum + p.unitWeightGrams * p.quantity, 0);
  y += 10;
  textAt(
    doc,
    `Total : ${data.parcels.length} envoi(s) / parcel(s), ${units} colis / unit(s), ${kg(grams)}`,
    MARGIN,
    y,
    { font: FONT_BOLD, size: 11 },
  );
  y += TOTALS_HEIGHT - 10;
  drawSignatureBox(doc, 'Chauffeur / Courier', MARGIN, y, (width() - 16) / 2);
  drawSignatureBox(doc, 'Expéditeur / Brand', MARGIN + (width() + 16) / 2, y, (width() - 16) / 2);
  doc.fillColor(GREY);
  textAt(
    doc,
    pickup.closedAt
      ? `Clôturé le / Closed on ${formatParisDateFr(pickup.closedAt)}`
      : 'Les colis non scannés restent en attente et rejoignent l’enlèvement du jour ouvré suivant.',
    MARGIN,
    y + SIGNATURES_HEIGHT - 12,
    { size: 7.5, width: width() },
  );
  doc.fillColor('black');
  const pages = doc.bufferedPageRange();
  for (let i = pages.start; i < pages.start + pages.count; i++) {
    doc.switchToPage(i);
    textAt(doc, `Page ${i - pages.start + 1} / ${pages.count}`, MARGIN, MARGIN + 3, {
      width: width(),
      align: 'right',
      size: 9,
    });
  }
  doc.end();
  return done;
}

/** A box to fill by hand: name, time and signature. */
function drawSignatureBox(doc: Doc, title: string, x: number, y: number, width: number): void {
  const height = SIGNATURES_HEIGHT - 24;
  doc.lineWidth(0.8).strokeColor('black').rect(x, y, width, height).stroke();
  textAt(doc, title, x + 6, y + 6, { font: FONT_BOLD, size: 9.5 });
  textAt(doc, 'Nom / Name :', x + 6, y + 26, { size: 8.5 });
  textAt(doc, 'Heure / Time :', x + 6, y + 44, { size: 8.5 });
  textAt(doc, 'Signature :', x + 6, y + 62, { size: 8.5 });
}
