import bwipjs from 'bwip-js/node';

/**
 * Barcodes drawn by bwip-js (a maintained port of Barcode Writer in Pure PostScript), as PNG
 * images that pdfkit places on labels and manifests. Shared by labels and pickup manifests so a
 * parcel's barcode is drawn the same way everywhere a scanner may meet it.
 */

/** A Code 128 barcode of `text` (no human-readable line: the documents print the text themselves). */
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

/** A DataMatrix (ECC 200) square carrying `text`. */
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
