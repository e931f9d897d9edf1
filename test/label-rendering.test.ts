import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelsOfOrder } from '../src/domain/labels/label.ts';
import { renderLabelsPdf } from '../src/domain/labels/label-pdf.ts';
import { renderLabelsZpl, ZPL_DOTS } from '../src/domain/labels/label-zpl.ts';
import { defaultSortCode, parseSortCodeFile, sortCodeTable } from '../src/domain/labels/sort-codes.ts';
import type { Order } from '../src/domain/orders/order.ts';
import { NO_CO2E } from '../src/domain/orders/order-fields.ts';
import { decodeBarcodes } from './support/barcodes.ts';
import { POPPLER } from './support/pdf-pages.ts';

const run = promisify(execFile);

const ORDER: Order = {
  id: 1,
  ...NO_CO2E,
  trackingRef: 'DLV-7K3M9Q2XHP',
  trackingToken: 'q3J5vT8wZ0bXcR2mK9yL4A',
  brandId: 'brd_3f9a0c1d2e3f4a5b',
  status: 'pending',
  livemode: true,
  reference: '#1042',
  customerEmail: 'jane.customer@example.com',
  amountCents: 123456,
  pickupId: null,
  pickupAddress: '5 rue du Dépôt 93200 Saint-Denis',
  deliveryAddress: '12 rue Oberkampf 75011 Paris',
  deliveryPostcode: '75011',
  deliveryCity: 'Paris',
  deliveryZone: 'paris',
  deliveryRecipient: 'Jeanne Dupont',
  deliveryPhone: '+33612345678',
  deliveryEmail: 'jeanne@example.com',
  deliveryLat: 48.8574,
  deliveryLng: 2.3795,
  deliveryLocationPrecision: 'postcode',
  deliveryLocationSource: 'postcode',
  addressWarnings: [],
  addressCheckDueAt: null,
  service: 'express',
  unitType: 'parcel',
  quantity: 2,
  unitWeightGrams: 2500,
  priceExclTaxCents: 800,
  vatCents: 160,
  priceCents: 960,
  promisedDate: '2026-11-24',
  pickedUpAt: null,
  createdAt: new Date('2026-11-24T09:12:00.000Z'),
  updatedAt: new Date('2026-11-24T09:12:00.000Z'),
};

const CONTEXT = { carrier: 'Livraison DLV', brandName: 'Maison Lemoine', sortCode: 'PAR-11' };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dlv-labels-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every page of the PDF as a 300 dpi PNG, the way a print would come out. */
async function pagesAsPng(pdf: Buffer, name: string): Promise<Buffer[]> {
  const file = path.join(dir, `${name}.pdf`);
  await writeFile(file, pdf);
  await run('pdftoppm', ['-r', '300', '-png', file, path.join(dir, name)]);
  const { stdout } = await run('pdfinfo', [file]);
  const pages = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]);
  const width = String(pages).length;
  return Promise.all(
    Array.from({ length: pages }, (_, i) =>
      readFile(path.join(dir, `${name}-${String(i + 1).padStart(width, '0')}.png`)),
    ),
  );
}

async function pdfText(pdf: Buffer, name: string): Promise<string> {
  const file = path.join(dir, `${name}-text.pdf`);
  await writeFile(file, pdf);
  return (await run('pdftotext', ['-layout', file, '-'])).stdout;
}

describe.skipIf(!POPPLER)('PDF labels', () => {
  for (const size of ['a6', '4x6'] as const) {
    it(`${size}: one page per unit, and the barcodes read back as the reference and the sort code`, async () => {
      const labels = labelsOfOrder(ORDER, CONTEXT);
      const pdf = await renderLabelsPdf(labels, size, new Date('2026-11-24T10:00:00Z'));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const pngs = await pagesAsPng(pdf, size);
      expect(pngs).toHaveLength(2);
      for (const [i, png] of pngs.entries()) {
        const found = await decodeBarcodes(png);
        expect(found).toEqual(
          expect.arrayContaining([
            { format: 'Code128', text: 'DLV-7K3M9Q2XHP' },
            { format: 'DataMatrix', text: `DLV-7K3M9Q2XHP|PAR-11|${i + 1}/2` },
          ]),
        );
      }
      const { stdout } = await run('pdfinfo', [path.join(dir, `${size}.pdf`)]);
      const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout) ?? [];
      expect([Number(w), Number(h)]).toEqual(size === 'a6' ? [297.64, 419.53] : [288, 432]);
    });
  }

  it('draws DataMatrix symbols of every single-region size (and longer ones) that read back', async () => {
    // 1 to 43 ASCII codewords: 10×10 up to 26×26 (datamatrix.ts); 60 characters: bwip-js's encoder.
    const texts = [1, 4, 7, 11, 17, 21, 29, 35, 43, 60].map((length) =>
      'DLV-7K3M9Q2XHP|PC-93-SD|12/40|abcdefghijklmnopqrstuvwxyz|ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, length),
    );
    const [label] = labelsOfOrder({ ...ORDER, quantity: 1 }, CONTEXT);
    const pdf = await renderLabelsPdf(
      texts.map((dataMatrix) => ({ ...label!, dataMatrix })),
      'a6',
      new Date(),
    );
    const pngs = await pagesAsPng(pdf, 'matrices');
    for (const [i, png] of pngs.entries()) {
      const found = await decodeBarcodes(png);
      expect(found.filter((b) => b.format === 'DataMatrix').map((b) => b.text)).toEqual([texts[i]]);
    }
  });

  it('prints what a courier needs and never the customer e-mail nor the amount', async () => {
    const pdf = await renderLabelsPdf(labelsOfOrder(ORDER, CONTEXT), 'a6', new Date());
    const text = await pdfText(pdf, 'content');
    for (const expected of [
      'Livraison DLV',
      'EXPRESS',
      'PAR-11',
      'DLV-7K3M9Q2XHP',
      'Jeanne Dupont',
      '12 rue Oberkampf',
      '75011 Paris',
      '06 12 34 56 78',
      'Maison Lemoine',
      '5 rue du Dépôt, 93200 Saint-Denis',
      '24/11/2026',
      '2,5 kg',
      '1/2',
      '2/2',
      '#1042',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('jane.customer@example.com');
    expect(text).not.toContain('jeanne@example.com');
    expect(text).not.toMatch(/1\s?234,56|1234\.56|9,60/);
  });
});

/** A ZPL stream as its label formats, each a list of `[command, arguments]`. */
function parseZpl(zpl: string): Array<Array<[string, string]>> {
  const formats: Array<Array<[string, string]>> = [];
  let current: Array<[string, string]> | null = null;
  for (const raw of zpl.split('^').slice(1)) {
    const body = raw.replace(/\n$/, '');
    const command = body.slice(0, 2);
    const args = body.slice(2);
    if (command === 'XA') current = [];
    else if (command === 'XZ') {
      if (current) formats.push(current);
      current = null;
    } else current?.push([command, args]);
  }
  return formats;
}

/** The text of each field: what follows ^FD, with ^FH's _XX escapes decoded. */
function fields(format: Array<[string, string]>): Array<{ command: string | null; text: string }> {
  const out: Array<{ command: string | null; text: string }> = [];
  let barcode: string | null = null;
  for (const [command, args] of format) {
    if (command === 'BC' || command === 'BX') barcode = command;
    if (command === 'FD') {
      const bytes = args.replace(/_([0-9A-F]{2})/g, (_, hex) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
      out.push({ command: barcode, text: bytes });
      barcode = null;
    }
    if (command === 'FS') barcode = null;
  }
  return out;
}

describe('ZPL labels', () => {
  for (const size of ['a6', '4x6'] as const) {
    it(`${size}: one format per unit, its size, a Code 128 of the reference, a DataMatrix of reference and sort code`, () => {
      const zpl = renderLabelsZpl(labelsOfOrder(ORDER, CONTEXT), size);
      const formats = parseZpl(zpl);
      expect(formats).toHaveLength(2);
      for (const [i, format] of formats.entries()) {
        const commands = new Map(format.map(([c, a]) => [c, a]));
        expect(commands.get('PW')).toBe(String(ZPL_DOTS[size].width));
        expect(commands.get('LL')).toBe(String(ZPL_DOTS[size].height));
        expect(commands.get('CI')).toBe('28');
        const texts = fields(format);
        expect(texts.filter((f) => f.command === 'BC').map((f) => f.text)).toEqual(['DLV-7K3M9Q2XHP']);
        expect(texts.filter((f) => f.command === 'BX').map((f) => f.text)).toEqual([
          `DLV-7K3M9Q2XHP|PAR-11|${i + 1}/2`,
        ]);
        // ECC 200, as the PDF's symbol.
        expect(format.find(([c]) => c === 'BX')?.[1]).toMatch(/^N,\d+,200/);
        const printed = texts.filter((f) => f.command === null).map((f) => f.text);
        expect(printed).toEqual(
          expect.arrayContaining([
            'Livraison DLV',
            'EXPRESS',
            'PAR-11',
            'DLV-7K3M9Q2XHP',
            'Jeanne Dupont',
            '75011 Paris',
            'Tél. 06 12 34 56 78',
            'Maison Lemoine',
            '24/11/2026',
            `${i + 1}/2`,
            'Réf. / Ref. #1042',
          ]),
        );
        expect(printed.join('\n')).not.toMatch(/example\.com|1234|9,60/);
      }
    });
  }

  it('escapes the characters that would start a command', () => {
    const zpl = renderLabelsZpl(
      labelsOfOrder({ ...ORDER, quantity: 1, deliveryRecipient: 'A^B~C_D' }, CONTEXT),
      '4x6',
    );
    expect(zpl).not.toContain('A^B');
    const texts = fields(parseZpl(zpl)[0]!);
    expect(texts.map((f) => f.text)).toContain('A^B~C_D');
  });
});

describe('sort codes', () => {
  it('defaults to the zone and the arrondissement or the département', () => {
    expect(defaultSortCode('75011', 'paris')).toBe('PAR-11');
    expect(defaultSortCode('75116', 'paris')).toBe('PAR-16');
    expect(defaultSortCode('93200', 'petite_couronne')).toBe('PC-93');
    expect(defaultSortCode('77000', 'grande_couronne')).toBe('GC-77');
    expect(defaultSortCode(null, null)).toBeNull();
  });

  it('takes the longest prefix of the table, else the default', () => {
    const table = sortCodeTable(parseSortCodeFile('postcode,sort_code\n93,pc-93-n\n93200,PC-93-SD\n', 'csv'));
    expect(table.codeFor('93200', 'petite_couronne')).toBe('PC-93-SD');
    expect(table.codeFor('93100', 'petite_couronne')).toBe('PC-93-N');
    expect(table.codeFor('92100', 'petite_couronne')).toBe('PC-92');
  });

  it('refuses a bad file whole, naming every bad line', () => {
    expect(() =>
      parseSortCodeFile('postcode;sort_code\n7;PAR\n75011;par 11\n75011;PAR-11\n75011;PAR-12\n', 'csv'),
    ).toThrow(/line 2\.postcode.*line 3\.sort_code.*line 5\.postcode 75011 is already given at line 4/);
    expect(() => parseSortCodeFile('{"rules":[{"postcode":"75","sort_code":"-"}]}', 'json')).toThrow(
      /rules\[0\]\.sort_code/,
    );
    expect(parseSortCodeFile('[{"postcode":"75011","sort_code":"PAR-E"}]', 'json')).toEqual([
      { postcodePrefix: '75011', sortCode: 'PAR-E' },
    ]);
  });
});
