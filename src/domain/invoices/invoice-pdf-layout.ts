import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';
import { formatEurosFr, formatParisDateFr } from './format-fr.ts';
import type { InvoiceLine } from './invoice-totals.ts';

/**
 * Low-level drawing shared by the invoice PDF: page geometry, fonts and the paginated lines table.
 * Everything is placed at explicit coordinates so pdfkit never adds a page on its own; pagination is
 * decided here, where the repeated table header can follow it.
 */

export type Doc = InstanceType<typeof PDFDocument>;

export const MARGIN = 50;
export const FONT = 'Helvetica';
export const FONT_BOLD = 'Helvetica-Bold';
const require = createRequire(import.meta.url);

/**
 * Makes a document draw FONT and FONT_BOLD with DejaVu Sans Condensed (npm `dejavu-fonts-ttf`, the
 * Bitstream Vera licence: free to embed), embedded: PDF/A forbids the standard fonts a viewer would
 * substitute. pdfkit looks a name up among registered fonts before its standard ones, so the
 * drawing code (shared with the pickup manifest, which keeps Helvetica) is unchanged; the condensed
 * cut keeps the columns' widths close to Helvetica's. pdfkit embeds the glyphs used, a subset.
 */
export function embedFonts(doc: Doc): void {
  doc.registerFont(FONT, EMBEDDED_FONT_FILE);
  doc.registerFont(FONT_BOLD, require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'));
  doc.font(FONT);
}

/**
 * The document's default font (pdfkit's `font` option): otherwise its constructor loads the
 * standard Helvetica first, and caches it under the name `embedFonts` registers.
 */
export const EMBEDDED_FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');
export const GREY = '#555555';

const ROW_HEIGHT = 15;
const HEADER_HEIGHT = 18;
const CELL_PAD = 4;
const TABLE_FONT_SIZE = 8.5;

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  cell: (line: InvoiceLine) => string;
}

// Widths add up to the A4 content width (595.28 − 2 × 50), leaving amounts room for "99 999,99 €".
// The CO₂e column says its unit in its title and prints whole grams, as the XML's line note does.
const COLUMNS: readonly Column[] = [
  { title: 'Référence', width: 100, align: 'left', cell: (l) => l.trackingRef },
  { title: 'Date', width: 56, align: 'left', cell: (l) => formatParisDateFr(l.createdAt) },
  { title: 'Service', width: 64, align: 'left', cell: (l) => serviceLabel(l.service) },
  {
    title: 'CO₂e (g)',
    width: 60,
    align: 'right',
    cell: (l) => (l.co2eGrams === null ? '—' : groupedFr(l.co2eGrams)),
  },
  { title: 'HT', width: 72, align: 'right', cell: (l) => formatEurosFr(l.priceExclTaxCents) },
  { title: 'TVA', width: 65, align: 'right', cell: (l) => formatEurosFr(l.vatCents) },
  { title: 'TTC', width: 78, align: 'right', cell: (l) => formatEurosFr(l.priceCents) },
];

/** 7489 → "7 489" (plain spaces, as formatEurosFr groups). */
const groupedFr = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ' ');

export function contentWidth(doc: Doc): number {
  return doc.page.width - 2 * MARGIN;
}

/** Lowest y content may reach; the footer lives in the bottom margin, below it. */
export function bottomLimit(doc: Doc): number {
  return doc.page.height - MARGIN;
}

/** Single-line text at a fixed place: never wraps and never triggers pdfkit's automatic page break. */
export function textAt(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  options: { width?: number; align?: 'left' | 'right' | 'center'; font?: string; size?: number } = {},
): void {
  doc.font(options.font ?? FONT).fontSize(options.size ?? 9);
  const width = options.width;
  const fitted = width === undefined ? text : fitToWidth(doc, text, width);
  // Alignment is computed here instead of passing `width` to pdfkit: with a width pdfkit runs its
  // line wrapper, which may move the text to a new page of its own accord.
  let left = x;
  if (width !== undefined && options.align === 'right') left = x + width - doc.widthOfString(fitted);
  if (width !== undefined && options.align === 'center') left = x + (width - doc.widthOfString(fitted)) / 2;
  doc.text(fitted, left, y, { lineBreak: false });
}

/**
 * Draws the lines from `y`, adding pages as needed (each starts with `onNewPage`, then the repeated
 * column header). Returns the y just below the last row.
 */
export function drawLinesTable(
  doc: Doc,
  lines: readonly InvoiceLine[],
  y: number,
  onNewPage: () => number,
): number {
  let cursor = drawTableHeader(doc, y);
  lines.forEach((line, index) => {
    if (cursor + ROW_HEIGHT > bottomLimit(doc)) {
      doc.addPage();
      cursor = drawTableHeader(doc, onNewPage());
    }
    if (index % 2 === 1) {
      doc.rect(MARGIN, cursor, contentWidth(doc), ROW_HEIGHT).fill('#f3f3f3');
    }
    doc.fillColor('black');
    drawRow(doc, cursor, (column) => column.cell(line), FONT);
    cursor += ROW_HEIGHT;
  });
  doc
    .moveTo(MARGIN, cursor)
    .lineTo(MARGIN + contentWidth(doc), cursor)
    .lineWidth(0.5)
    .stroke('#999999');
  return cursor;
}

function drawTableHeader(doc: Doc, y: number): number {
  doc.rect(MARGIN, y, contentWidth(doc), HEADER_HEIGHT).fill('#e2e2e2');
  doc.fillColor('black');
  drawRow(doc, y + 1.5, (column) => column.title, FONT_BOLD);
  return y + HEADER_HEIGHT;
}

function drawRow(doc: Doc, y: number, text: (column: Column) => string, font: string): void {
  let x = MARGIN;
  for (const column of COLUMNS) {
    textAt(doc, text(column), x + CELL_PAD, y + 4, {
      width: column.width - 2 * CELL_PAD,
      align: column.align,
      font,
      size: TABLE_FONT_SIZE,
    });
    x += column.width;
  }
}

/** "express" → "Express": the code brands send, made readable without inventing a translation. */
function serviceLabel(service: string): string {
  return service.charAt(0).toUpperCase() + service.slice(1);
}

/** Cuts with an ellipsis rather than letting a long value run into the next column. */
function fitToWidth(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 0 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
