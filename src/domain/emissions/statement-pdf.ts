import { formatPeriodFr } from '../invoices/billing-period.ts';
import {
  type Doc,
  EMBEDDED_FONT_FILE,
  embedFonts,
  FONT,
  FONT_BOLD,
  GREY,
  MARGIN,
} from '../invoices/invoice-pdf-layout.ts';
import { formatSiren, type SellerIdentity } from '../invoices/seller.ts';
import type { EmissionStatement } from './ports.ts';

const VEHICLE_NAMES: Record<string, string> = {
  van: 'Véhicule utilitaire gazole',
  electric_van: 'Véhicule utilitaire électrique',
  cargo_bike: 'Vélo cargo électrique',
  on_foot: 'À pied',
};

const number = (n: number, decimals: number) =>
  n.toLocaleString('fr-FR', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/**
 * The brand's monthly GHG statement (Code des transports D1431-1 ff.) as a PDF, A4, fonts embedded:
 * the totals, one line per vehicle kind and data level, the method text. The same statement gives
 * the same bytes (the creation date is the end of the period).
 */
export async function renderStatementPdf(data: {
  statement: EmissionStatement;
  seller: SellerIdentity;
  brandName: string;
  createdAt: Date;
}): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const { statement: s } = data;
  return new Promise<Buffer>((resolve, reject) => {
    const doc: Doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      font: EMBEDDED_FONT_FILE,
      info: { Title: `Information GES ${s.period}`, CreationDate: data.createdAt },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      embedFonts(doc);
      const width = doc.page.width - 2 * MARGIN;
      doc.font(FONT_BOLD).fontSize(16).text('Information gaz à effet de serre (CO₂e)', MARGIN, MARGIN);
      doc.font(FONT).fontSize(10).fillColor(GREY);
      doc.text(`Prestations de transport de ${formatPeriodFr(s.period)} — ${data.brandName}`);
      doc.text(`Prestataire : ${data.seller.name}, SIREN ${formatSiren(data.seller.siren)}`);
      doc.fillColor('black').moveDown();
      doc.font(FONT_BOLD).fontSize(12);
      doc.text(`Total : ${number(s.totals.grams / 1000, 3)} kg CO₂e`);
      doc.font(FONT).fontSize(10);
      doc.text(
        `${s.totals.orders} livraisons, ${s.totals.parcels} colis, ${number(s.totals.distanceM / 1000, 1)} km (part des tournées)`,
      );
      doc.moveDown();
      // Figures right-aligned under their heading, so their decimals line up.
      const columns = [
        { title: 'Véhicule', x: 0, w: 170, align: 'left' },
        { title: 'Niveau', x: 170, w: 45, align: 'right' },
        { title: 'Livraisons', x: 220, w: 60, align: 'right' },
        { title: 'Colis', x: 285, w: 45, align: 'right' },
        { title: 'Distance (km)', x: 335, w: 80, align: 'right' },
        { title: 'CO₂e (kg)', x: 420, w: width - 420, align: 'right' },
      ] as const;
      const line = (cells: readonly string[], at: number) =>
        cells.forEach((cell, i) => {
          const c = columns[i]!;
          doc.text(cell, MARGIN + c.x, at, { width: c.w, align: c.align, lineBreak: false });
        });
      let y = doc.y;
      doc.font(FONT_BOLD);
      line(
        columns.map((c) => c.title),
        y,
      );
      doc.font(FONT);
      y += 18;
      for (const r of s.rows) {
        line(
          [
            VEHICLE_NAMES[r.vehicle] ?? r.vehicle,
            String(r.dataLevel),
            String(r.orders),
            String(r.parcels),
            number(r.distanceM / 1000, 1),
            number(r.grams / 1000, 3),
          ],
          y,
        );
        y += 15;
      }
      doc
        .moveTo(MARGIN, y + 2)
        .lineTo(MARGIN + width, y + 2)
        .strokeColor(GREY)
        .stroke();
      y += 8;
      doc.font(FONT_BOLD);
      line(
        [
          'Total',
          '',
          String(s.totals.orders),
          String(s.totals.parcels),
          number(s.totals.distanceM / 1000, 1),
          number(s.totals.grams / 1000, 3),
        ],
        y,
      );
      doc.font(FONT);
      y += 15;
      doc.moveDown(2);
      doc.fontSize(8).fillColor(GREY);
      doc.text(s.methodText.split('\n').join('\n\n'), MARGIN, y + 20, { width });
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
