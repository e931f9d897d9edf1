import PDFDocument from 'pdfkit';
import { formatDateFr } from '../invoices/format-fr.ts';
import { formatWeight } from '../pricing/units.ts';
import { code128Bars, dataMatrixRuns } from './barcodes.ts';
import { type LabelContent, type LabelSize, SERVICE_WORDS, SPECIMEN_TEXT } from './label.ts';

type Doc = InstanceType<typeof PDFDocument>;

/** Page sizes in points: A6 is 105 × 148 mm, 4×6 is the thermal printers' 4 × 6 in. */
const PAGE: Record<LabelSize, [number, number]> = {
  a6: [297.64, 419.53],
  '4x6': [288, 432],
};

const M = 10;
const BOLD = 'Helvetica-Bold';
const REGULAR = 'Helvetica';
/** Code 128 wants a quiet zone of 10 modules each side. */
const QUIET_MODULES = 10;

/**
 * Labels as one PDF, one label per page, drawn at fixed coordinates with the built-in Helvetica
 * (no font file) and the barcodes as vector rectangles (sharp on any printer, cheap to make).
 * Nothing is placed by pdfkit's flow, so a long address is cut with an ellipsis, never pushed
 * onto another page.
 */
export function renderLabelsPdf(
  labels: readonly LabelContent[],
  size: LabelSize,
  createdAt: Date,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const [width, height] = PAGE[size];
    const doc: Doc = new PDFDocument({
      size: [width, height],
      margin: 0,
      autoFirstPage: false,
      info: {
        Title: labels.length === 1 ? labels[0]!.trackingRef : `${labels.length} labels`,
        CreationDate: createdAt,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      for (const label of labels) {
        doc.addPage({ size: [width, height], margin: 0 });
        drawLabel(doc, label, width, height);
        if (label.specimen) drawSpecimen(doc, width, height);
      }
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * One line of text in `width` points, cut with an ellipsis when longer. Measured and placed here
 * rather than by pdfkit's line wrapper, which costs more than the rest of a label together.
 */
function text(
  doc: Doc,
  value: string,
  x: number,
  y: number,
  options: {
    size: number;
    font?: string;
    width: number;
    color?: string;
    align?: 'left' | 'right' | 'center';
  },
): void {
  doc
    .font(options.font ?? REGULAR)
    .fontSize(options.size)
    .fillColor(options.color ?? 'black');
  let line = value;
  let measured = doc.widthOfString(line);
  if (measured > options.width) {
    // Longest prefix that fits with its ellipsis (a name or an address line: a few steps).
    let low = 0;
    let high = value.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (doc.widthOfString(`${value.slice(0, mid).trimEnd()}…`) <= options.width) low = mid;
      else high = mid - 1;
    }
    line = `${value.slice(0, low).trimEnd()}…`;
    measured = doc.widthOfString(line);
  }
  const offset =
    options.align === 'center'
      ? (options.width - measured) / 2
      : options.align === 'right'
        ? options.width - measured
        : 0;
  doc.text(line, x + offset, y, { lineBreak: false });
}

/** The largest size up to `max` at which `value` fits `width` in bold. */
function fitSize(doc: Doc, value: string, width: number, max: number): number {
  doc.font(BOLD).fontSize(max);
  const measured = doc.widthOfString(value);
  return measured <= width ? max : Math.max(8, Math.floor((max * width) / measured));
}

function drawLabel(doc: Doc, label: LabelContent, width: number, height: number): void {
  const inner = width - 2 * M;
  let y = M;

  // Who carries it, and how fast: the service in reverse video, read first on a shelf.
  text(doc, label.carrier, M, y + 2, { size: 13, font: BOLD, width: inner - 96 });
  const service = SERVICE_WORDS[label.service].toUpperCase();
  doc.rect(width - M - 90, y, 90, 22).fill('black');
  text(doc, service, width - M - 90, y + 5, {
    size: 13,
    font: BOLD,
    width: 90,
    color: 'white',
    align: 'center',
  });
  y += 28;
  rule(doc, y, width);

  // The sort code, as big as the box allows, and the 2D code beside it.
  y += 6;
  const matrixSide = 78;
  const sortWidth = inner - matrixSide - 8;
  doc.rect(M, y, sortWidth, matrixSide).fill('black');
  text(doc, 'TRI / SORT', M + 6, y + 4, { size: 7, font: BOLD, width: sortWidth - 12, color: 'white' });
  const sortSize = fitSize(doc, label.sortCode, sortWidth - 12, 46);
  text(doc, label.sortCode, M + 6, y + 14 + (60 - sortSize) / 2, {
    size: sortSize,
    font: BOLD,
    width: sortWidth - 12,
    color: 'white',
    align: 'center',
  });
  drawDataMatrix(doc, label.dataMatrix, width - M - matrixSide, y, matrixSide);
  y += matrixSide + 6;

  // The tracking reference, for eyes, then for scanners.
  text(doc, label.trackingRef, M, y, { size: 22, font: BOLD, width: inner, align: 'center' });
  y += 28;
  // The blocks below take a fixed height: the page's spare height goes to the bars (taller is
  // easier to hit with a hand scanner held at an angle).
  const barHeight = 62 + Math.max(0, Math.floor(height - 2 * M - 388));
  drawCode128(doc, label.trackingRef, M, y, inner, barHeight);
  y += barHeight + 6;
  rule(doc, y, width);

  // The recipient: what the courier needs at the door (never the customer's e-mail or the amount).
  y += 5;
  text(doc, 'À / TO', M, y, { size: 7, font: BOLD, width: inner, color: '#444444' });
  y += 9;
  text(doc, label.recipient.name ?? '—', M, y, { size: 13, font: BOLD, width: inner });
  y += 16;
  for (const line of label.recipient.address.slice(0, 2)) {
    text(doc, line, M, y, {
      size: 11,
      font: line === label.recipient.address[1] ? BOLD : REGULAR,
      width: inner,
    });
    y += 14;
  }
  if (label.recipient.address.length < 2) y += 14 * (2 - label.recipient.address.length);
  text(doc, label.recipient.phone ? `Tél. ${label.recipient.phone}` : 'Tél. —', M, y, {
    size: 11,
    width: inner,
  });
  y += 17;
  rule(doc, y, width);

  // The sender: the brand and the pickup address (where a parcel goes back).
  y += 4;
  text(doc, 'DE / FROM', M, y, { size: 7, font: BOLD, width: inner, color: '#444444' });
  y += 9;
  text(doc, label.sender.name, M, y, { size: 9, font: BOLD, width: inner });
  y += 11;
  text(doc, label.sender.address.join(', ') || '—', M, y, { size: 8, width: inner });
  y += 13;
  rule(doc, y, width);

  // Promised day, weight, unit of the order.
  const cell = inner / 3;
  const cells: Array<[string, string]> = [
    ['LIVRAISON / DUE', label.promisedDate ? formatDateFr(label.promisedDate) : '—'],
    ['POIDS / WEIGHT', formatWeight(label.weightGrams).replace('.', ',')],
    ['COLIS / PARCEL', `${label.unit}/${label.units}`],
  ];
  cells.forEach(([title, value], i) => {
    const x = M + i * cell;
    text(doc, title, x + 2, y + 4, { size: 6.5, font: BOLD, width: cell - 4, color: '#444444' });
    text(doc, value, x + 2, y + 13, { size: i === 2 ? 16 : 11, font: BOLD, width: cell - 4 });
    if (i > 0)
      doc
        .moveTo(x, y)
        .lineTo(x, y + 32)
        .lineWidth(0.8)
        .stroke('black');
  });
  y += 32;
  rule(doc, y, width);
  text(doc, `Réf. / Ref. ${label.reference ?? '—'}`, M, Math.min(y + 5, height - M - 11), {
    size: 9,
    font: BOLD,
    width: inner,
  });
}

/** Across the whole label, corner to corner, over everything: no part of it looks like a real one. */
function drawSpecimen(doc: Doc, width: number, height: number): void {
  const angle = (-Math.atan2(height, width) * 180) / Math.PI;
  const diagonal = Math.hypot(width, height);
  doc.save();
  doc.rotate(angle, { origin: [width / 2, height / 2] });
  doc.fillOpacity(0.75);
  doc.rect((width - diagonal) / 2, height / 2 - 22, diagonal, 44).fill('white');
  doc.fillOpacity(1);
  const size = fitSize(doc, SPECIMEN_TEXT, diagonal - 40, 24);
  text(doc, SPECIMEN_TEXT, (width - diagonal) / 2 + 20, height / 2 - size / 2, {
    size,
    font: BOLD,
    width: diagonal - 40,
    color: '#c00000',
    align: 'center',
  });
  doc.restore();
}

function rule(doc: Doc, y: number, width: number): void {
  doc
    .moveTo(M, y)
    .lineTo(width - M, y)
    .lineWidth(1)
    .stroke('black');
}

/** The bars fill `width` less the quiet zones, whole modules or not: scanners measure ratios. */
function drawCode128(doc: Doc, value: string, x: number, y: number, width: number, height: number): void {
  const { bars, modules } = code128Bars(value);
  const module = width / (modules + 2 * QUIET_MODULES);
  const left = x + QUIET_MODULES * module;
  for (const [start, w] of bars) doc.rect(left + start * module, y, w * module, height);
  doc.fill('black');
}

function drawDataMatrix(doc: Doc, value: string, x: number, y: number, side: number): void {
  const { runs, columns, rows } = dataMatrixRuns(value);
  // A quiet zone of one module all round (ECC 200 asks for one).
  const module = side / (Math.max(columns, rows) + 2);
  for (const [row, start, length] of runs)
    doc.rect(x + (start + 1) * module, y + (row + 1) * module, length * module, module);
  doc.fill('black');
}
