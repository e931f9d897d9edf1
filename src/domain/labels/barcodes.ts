import bwipjs from 'bwip-js/node';
import { dataMatrixModules } from './datamatrix.ts';

/**
 * Barcodes drawn by bwip-js (a maintained port of Barcode Writer in Pure PostScript), as PNG
 * images that pdfkit places on labels and manifests. Shared by labels and pickup manifests so a
 * parcel's barcode is drawn the same way everywhere a scanner may meet it.
 */

/**
 * A Code 128 barcode of `text` (no human-readable line: the documents print the text themselves).
 * @public the pickup manifests draw their parcels' barcodes with it.
 */
export function code128Png(
  text: string,
  options: { heightMm?: number; scale?: number } = {},
): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: options.scale ?? 3,
    height: options.heightMm ?? 15,
    includetext: false,
    paddingwidth: 10,
    backgroundcolor: 'FFFFFF',
  });
}

/**
 * A DataMatrix (ECC 200) square carrying `text`.
 * @public kept beside code128Png for documents that embed images (the labels draw vectors).
 */
export function dataMatrixPng(text: string, options: { scale?: number } = {}): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: 'datamatrix',
    text,
    scale: options.scale ?? 4,
    paddingwidth: 2,
    paddingheight: 2,
    backgroundcolor: 'FFFFFF',
  });
}

/**
 * A Code 128 symbol as its bars, in modules (the narrowest bar's width): `[start, width]` of each
 * bar, quiet zones excluded. Drawn as vector rectangles on the labels: sharp at any printer's
 * resolution, and about ten times cheaper than a PNG to make and embed.
 */
export function code128Bars(text: string): { bars: Array<[number, number]>; modules: number } {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text }) as Array<{ sbs: number[] }>;
  const bars: Array<[number, number]> = [];
  let x = 0;
  // sbs alternates bar and space widths, starting with a bar.
  symbol!.sbs.forEach((width, i) => {
    if (i % 2 === 0) bars.push([x, width]);
    x += width;
  });
  return { bars, modules: x };
}

/**
 * A DataMatrix (ECC 200) symbol as its dark modules, one run per row: `[row, start, length]`,
 * so a label draws one rectangle per run rather than one per module.
 */
export function dataMatrixRuns(text: string): {
  runs: Array<[number, number, number]>;
  columns: number;
  rows: number;
} {
  const own = dataMatrixModules(text);
  const { pixs, pixx, pixy } = own
    ? { pixs: own.dark, pixx: own.side, pixy: own.side }
    : bwipDataMatrix(text);
  const runs: Array<[number, number, number]> = [];
  for (let row = 0; row < pixy; row++) {
    let start = -1;
    for (let col = 0; col <= pixx; col++) {
      const dark = col < pixx && pixs[row * pixx + col] === 1;
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        runs.push([row, start, col - start]);
        start = -1;
      }
    }
  }
  return { runs, columns: pixx, rows: pixy };
}

/** A text too long for datamatrix.ts (several data regions), or beyond ASCII: bwip-js's encoder. */
function bwipDataMatrix(text: string): { pixs: ArrayLike<number>; pixx: number; pixy: number } {
  const [symbol] = bwipjs.raw({ bcid: 'datamatrix', text }) as Array<{
    pixs: number[];
    pixx: number;
    pixy: number;
  }>;
  return symbol!;
}
