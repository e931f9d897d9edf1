import { formatDateFr } from '../invoices/format-fr.ts';
import { formatWeight } from '../pricing/units.ts';
import { type LabelContent, type LabelSize, SERVICE_WORDS, SPECIMEN_TEXT } from './label.ts';

/**
 * Labels in ZPL II for 203 dpi thermal printers (8 dots per mm), one `^XA … ^XZ` format per label,
 * the printer drawing the barcodes itself (`^BC` Code 128, `^BX` DataMatrix ECC 200). Sizes in
 * dots: 4×6 in is 812 × 1218; A6 (105 × 148 mm) is 840 × 1184.
 */
export const ZPL_DOTS: Record<LabelSize, { width: number; height: number }> = {
  '4x6': { width: 812, height: 1218 },
  a6: { width: 840, height: 1184 },
};

const M = 32;

/**
 * A field's text: with `^FH` the printer reads `_XX` as a hex byte, so `^`, `~` and `_` (which
 * would start a command or an escape) are written that way; `^CI28` makes the rest UTF-8.
 */
function fd(value: string): string {
  return `^FH^FD${value.replace(/[\^~_]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`)}^FS`;
}

/** Text in the scalable font `0`, `h` dots high, cut to one line of `width` dots. */
function textField(
  x: number,
  y: number,
  h: number,
  value: string,
  width: number,
  align: 'L' | 'C' = 'L',
): string {
  return `^FO${x},${y}^A0N,${h},${h}^FB${width},1,0,${align},0${fd(value)}`;
}

export function renderLabelsZpl(labels: readonly LabelContent[], size: LabelSize): string {
  return labels.map((label) => labelZpl(label, size)).join('');
}

function labelZpl(label: LabelContent, size: LabelSize): string {
  const { width, height } = ZPL_DOTS[size];
  const inner = width - 2 * M;
  const out: string[] = ['^XA', '^CI28', `^PW${width}`, `^LL${height}`, '^LH0,0'];
  let y = M;

  out.push(textField(M, y + 6, 40, label.carrier, inner - 260));
  out.push(`^FO${width - M - 240},${y}^GB240,60,60^FS`);
  out.push(
    `^FO${width - M - 240},${y + 12}^A0N,40,40^FB240,1,0,C,0^FR${fd(SERVICE_WORDS[label.service].toUpperCase())}`,
  );
  y += 76;
  out.push(`^FO${M},${y}^GB${inner},3,3^FS`);

  // Sort code in reverse video beside the DataMatrix.
  y += 16;
  const box = 220;
  const sortWidth = inner - box - 20;
  out.push(`^FO${M},${y}^GB${sortWidth},${box},${box}^FS`);
  out.push(`^FO${M + 14},${y + 10}^A0N,22,22^FR${fd('TRI / SORT')}`);
  const sortHeight = Math.min(
    130,
    Math.floor((sortWidth - 28) / (0.62 * Math.max(4, label.sortCode.length))),
  );
  out.push(
    `^FO${M},${y + 40 + Math.floor((150 - sortHeight) / 2)}^A0N,${sortHeight},${sortHeight}^FB${sortWidth},1,0,C,0^FR${fd(label.sortCode)}`,
  );
  // ^BX: orientation, module height in dots, quality 200 (ECC 200); rows and columns chosen by the printer.
  out.push(`^FO${width - M - box + 10},${y + 10}^BXN,8,200${fd(label.dataMatrix)}`);
  y += box + 16;

  out.push(textField(M, y, 64, label.trackingRef, inner, 'C'));
  y += 80;
  // ^BY module width 3 dots; ^BC: normal, 170 dots high, no interpretation line (printed above).
  out.push(`^BY3,3,170^FO${M + 40},${y}^BCN,170,N,N,N${fd(label.trackingRef)}`);
  y += 190;
  out.push(`^FO${M},${y}^GB${inner},3,3^FS`);

  y += 14;
  out.push(textField(M, y, 22, 'À / TO', inner));
  y += 28;
  out.push(textField(M, y, 40, label.recipient.name ?? '-', inner));
  y += 48;
  for (const line of label.recipient.address.slice(0, 2)) {
    out.push(textField(M, y, 34, line, inner));
    y += 42;
  }
  if (label.recipient.address.length < 2) y += 42 * (2 - label.recipient.address.length);
  out.push(textField(M, y, 34, `Tél. ${label.recipient.phone ?? '-'}`, inner));
  y += 48;
  out.push(`^FO${M},${y}^GB${inner},3,3^FS`);

  y += 12;
  out.push(textField(M, y, 22, 'DE / FROM', inner));
  y += 28;
  out.push(textField(M, y, 28, label.sender.name, inner));
  y += 34;
  out.push(textField(M, y, 24, label.sender.address.join(', ') || '-', inner));
  y += 36;
  out.push(`^FO${M},${y}^GB${inner},3,3^FS`);

  const cell = Math.floor(inner / 3);
  const cells: Array<[string, string, number]> = [
    ['LIVRAISON / DUE', label.promisedDate ? formatDateFr(label.promisedDate) : '-', 34],
    ['POIDS / WEIGHT', formatWeight(label.weightGrams).replace('.', ','), 34],
    ['COLIS / PARCEL', `${label.unit}/${label.units}`, 48],
  ];
  cells.forEach(([title, value, h], i) => {
    const x = M + i * cell;
    out.push(textField(x + 8, y + 10, 20, title, cell - 16));
    out.push(textField(x + 8, y + 36, h, value, cell - 16));
    if (i > 0) out.push(`^FO${x},${y}^GB3,96,3^FS`);
  });
  y += 96;
  out.push(`^FO${M},${y}^GB${inner},3,3^FS`);
  out.push(
    textField(M, Math.min(y + 14, height - M - 30), 30, `Réf. / Ref. ${label.reference ?? '-'}`, inner),
  );
  if (label.specimen) {
    // A test order's label: a band across the middle, printed last so it covers what is under it.
    const band = Math.floor(height / 2) - 60;
    out.push(`^FO0,${band}^GB${width},120,120^FS`);
    out.push(`^FO0,${band + 30}^A0N,60,60^FB${width},1,0,C,0^FR${fd(SPECIMEN_TEXT)}`);
  }
  out.push('^XZ');
  return out.join('\n');
}
