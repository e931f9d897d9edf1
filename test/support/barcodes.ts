import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

/**
 * Reads barcodes back from a rendered image (PNG bytes) with ZXing compiled to WebAssembly, the way
 * a scanner would. The WebAssembly file comes from the npm package itself (zxing-wasm would
 * otherwise fetch it from a CDN, which tests may not reach).
 */
let prepared: Promise<unknown> | null = null;

function prepare(): Promise<unknown> {
  if (!prepared) {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    prepared = prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  }
  return prepared;
}

export interface DecodedBarcode {
  /** ZXing's name: 'Code128', 'DataMatrix', 'QRCode'… */
  format: string;
  text: string;
}

export async function decodeBarcodes(png: Uint8Array): Promise<DecodedBarcode[]> {
  await prepare();
  const found = await readBarcodes(png, { tryHarder: true, maxNumberOfSymbols: 8 });
  return found.filter((b) => b.isValid).map((b) => ({ format: b.format, text: b.text }));
}
