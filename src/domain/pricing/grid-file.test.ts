import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { formatGridCsv, formatGridJson, parseGridFile } from './grid-file.ts';

const HEADER = 'service,zone,unit_type,max_weight_kg,first_unit_eur,extra_unit_eur';

function rejection(text: string, format: 'json' | 'csv'): AppError {
  try {
    parseGridFile(text, format);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the grid to be rejected');
}

const csv = (...lines: string[]) => [HEADER, ...lines].join('\n');
const json = (...rows: object[]) => JSON.stringify({ rows });
const good = {
  service: 'standard',
  zone: 'paris',
  unit_type: 'parcel',
  max_weight_kg: 1,
  first_unit_eur: 8.4,
  extra_unit_eur: 4.2,
};

describe('parseGridFile (CSV)', () => {
  it('reads rows into cents and grams', () => {
    const rows = parseGridFile(
      csv(
        'standard,paris,parcel,1,8.40,4.20',
        'express,petite_couronne,colis,0.5,12,0',
        'economy,grande_couronne,pli,2.25,3.5,1.05',
      ),
      'csv',
    );
    expect(rows).toEqual([
      {
        service: 'standard',
        zone: 'paris',
        unitType: 'parcel',
        maxWeightGrams: 1000,
        firstUnitCents: 840,
        extraUnitCents: 420,
      },
      {
        service: 'express',
        zone: 'petite_couronne',
        unitType: 'parcel',
        maxWeightGrams: 500,
        firstUnitCents: 1200,
        extraUnitCents: 0,
      },
      {
        service: 'economy',
        zone: 'grande_couronne',
        unitType: 'envelope',
        maxWeightGrams: 2250,
        firstUnitCents: 350,
        extraUnitCents: 105,
      },
    ]);
  });

  it('accepts any column order, a BOM, CRLF, comments, blank lines and quotes', () => {
    const text = `\uFEFF# negotiated 2026\r\nzone,service,unit_type,max_weight_kg,extra_unit_eur,first_unit_eur\r\n\r\n"paris",Standard,PARCEL,1,"4.20",8.4\r\n`;
    expect(parseGridFile(text, 'csv')).toEqual([
      {
        service: 'standard',
        zone: 'paris',
        unitType: 'parcel',
        maxWeightGrams: 1000,
        firstUnitCents: 840,
        extraUnitCents: 420,
      },
    ]);
  });

  it('accepts the semicolons and decimal commas of French spreadsheets', () => {
    const text = `${HEADER.replaceAll(',', ';')}\nstandard;paris;parcel;0,5;8,40;4,2\n`;
    expect(parseGridFile(text, 'csv')[0]).toMatchObject({
      maxWeightGrams: 500,
      firstUnitCents: 840,
      extraUnitCents: 420,
    });
  });

  it.each([
    ['standard,lyon,parcel,1,8.40,4.20', 'row 2 (line 3): unknown zone "lyon"'],
    ['fast,paris,parcel,1,8.40,4.20', 'row 2 (line 3): unknown service "fast"'],
    ['standard,paris,box,1,8.40,4.20', 'row 2 (line 3): unknown unit_type "box"'],
    [
      'standard,paris,parcel,1,-8.40,4.20',
      'row 2 (line 3): first_unit_eur must be an amount in euros, at least 0',
    ],
    [
      'standard,paris,parcel,1,8.405,4.20',
      'row 2 (line 3): first_unit_eur must be an amount in euros, at least 0, with at most 2 decimals (got "8.405")',
    ],
    ['standard,paris,parcel,1,8.40,abc', 'row 2 (line 3): extra_unit_eur must be'],
    ['standard,paris,parcel,0,8.40,4.20', 'row 2 (line 3): max_weight_kg must be'],
    ['standard,paris,parcel,0.0005,8.40,4.20', 'row 2 (line 3): max_weight_kg must be'],
    ['standard,paris,parcel,3000,8.40,4.20', 'row 2 (line 3): max_weight_kg must be'],
    ['standard,paris,parcel,1,8.40', 'row 2 (line 3): has 5 cells, the header has 6'],
    ['standard,paris,parcel,,8.40,4.20', 'row 2 (line 3): missing max_weight_kg'],
    ['standard,paris,parcel,5,8,40,4,20', 'row 2 (line 3): has 8 cells'],
  ])('rejects %j naming the row and line', (bad, message) => {
    const error = rejection(csv('standard,paris,parcel,5,9.90,4.90', bad), 'csv');
    expect(error.code).toBe('invalid_request');
    expect(error.message.startsWith(message)).toBe(true);
  });

  it('rejects duplicate bands, naming both rows', () => {
    const error = rejection(
      csv('standard,paris,parcel,1,8.40,4.20', 'standard,paris,colis,1.000,9,4'),
      'csv',
    );
    expect(error.message).toBe(
      'row 2 (line 3): same service, zone, unit_type and max_weight_kg as row 1 (line 2) (standard, paris, parcel, 1 kg)',
    );
  });

  it('reports every bad row, not just the first', () => {
    const error = rejection(
      csv('x,paris,parcel,1,1,1', 'standard,paris,parcel,1,1,1', 'standard,y,parcel,1,1,1'),
      'csv',
    );
    expect(error.message).toMatch(/^row 1 \(line 2\): unknown service "x".* \(and 1 more\)$/);
    expect(error.details?.map((d) => d.field)).toEqual(['row 1 (line 2)', 'row 3 (line 4)']);
  });

  it('reads quoted cells holding the delimiter, line breaks and doubled quotes (RFC 4180)', () => {
    // The delimiter inside a quoted cell is part of it (a decimal comma in a comma-separated file).
    const text = `${HEADER}\n"standard","paris","parcel","1","8,40","4.20"\n`;
    expect(parseGridFile(text, 'csv')).toEqual([expect.objectContaining({ firstUnitCents: 840 })]);
    // A spreadsheet quotes a cell with a line break in it; a row is named by the line it starts on.
    const multiline = csv('"stand\nard",paris,parcel,1,8.40,4.20', 'standard,lyon,parcel,1,8.40,4.20');
    const error = rejection(multiline, 'csv');
    expect(error.details).toEqual([
      {
        field: 'row 1 (line 2)',
        message: 'unknown service "stand\nard" (expected express, standard, economy)',
      },
      {
        field: 'row 2 (line 4)',
        message: 'unknown zone "lyon" (expected paris, petite_couronne, grande_couronne)',
      },
    ]);
    const quotes = csv('"standard ""B2B""",paris,parcel,1,8.40,4.20');
    expect(rejection(quotes, 'csv').message).toBe(
      'row 1 (line 2): unknown service "standard "B2B"" (expected express, standard, economy)',
    );
    const good = `zone;service;unit_type;max_weight_kg;first_unit_eur;extra_unit_eur\r\n# "a comment; with a quote\r\n"paris";"standard";"parcel";"0,5";"8,40";"4,2"\r\n"paris";standard;parcel;2;"9\n";4\r\n`;
    expect(parseGridFile(good, 'csv')).toEqual([
      expect.objectContaining({ maxWeightGrams: 500, firstUnitCents: 840, extraUnitCents: 420 }),
      expect.objectContaining({ maxWeightGrams: 2000, firstUnitCents: 900, extraUnitCents: 400 }),
    ]);
  });

  it.each([
    [
      csv(
        'standard,paris,parcel,1,8.40,4.20',
        'standard,"paris,parcel,2,9,5',
        'standard,paris,parcel,3,10,6',
      ),
      'line 3: a quoted cell is never closed (the double quote that opens it has no closing one)',
    ],
    [
      csv('standard,pa"ris,parcel,1,8.40,4.20'),
      'line 2, column 2 (zone): a double quote inside a cell that does not start with one; quote the whole cell and double the quotes inside it ("8"" box")',
    ],
    [
      csv('standard,paris,parcel,1,"8.40"0,4.20'),
      'line 2, column 5 (first_unit_eur): text after the closing quote of a quoted cell; a quote inside a quoted cell is doubled ("")',
    ],
    [
      csv('"standard\n\n",paris,parcel,1,8.40,4.20', 'standard,paris,"parcel"x,2,9,5'),
      'line 5, column 3 (unit_type): text after the closing quote of a quoted cell; a quote inside a quoted cell is doubled ("")',
    ],
  ])('rejects a file that is not CSV naming the line and column: %j', (text, message) => {
    expect(rejection(text, 'csv').message).toBe(message);
  });

  it.each([
    ['', 'the CSV has no header line'],
    [HEADER, 'the grid has no rows'],
    [
      'service,zone,unit_type,max_weight,first_unit_eur,extra_unit_eur\n',
      'line 1: missing column max_weight_kg',
    ],
    [`${HEADER},note\n`, 'line 1: unknown column "note"'],
    [`${HEADER},zone\n`, 'line 1: column "zone" appears twice'],
  ])('rejects a file without usable header or rows: %j', (text, message) => {
    expect(rejection(text, 'csv').message.startsWith(message)).toBe(true);
  });
});

describe('parseGridFile (JSON)', () => {
  it('reads rows, with numbers or numeric strings', () => {
    const rows = parseGridFile(
      JSON.stringify({
        description: 'test',
        rows: [
          good,
          { ...good, max_weight_kg: '5', first_unit_eur: '9.90', extra_unit_eur: 4.9, unit_type: 'Colis' },
        ],
      }),
      'json',
    );
    expect(rows).toEqual([
      {
        service: 'standard',
        zone: 'paris',
        unitType: 'parcel',
        maxWeightGrams: 1000,
        firstUnitCents: 840,
        extraUnitCents: 420,
      },
      {
        service: 'standard',
        zone: 'paris',
        unitType: 'parcel',
        maxWeightGrams: 5000,
        firstUnitCents: 990,
        extraUnitCents: 490,
      },
    ]);
  });

  it.each([
    [
      { ...good, zone: 'lyon' },
      'row 2: unknown zone "lyon" (expected paris, petite_couronne, grande_couronne)',
    ],
    [{ ...good, first_unit_eur: -1 }, 'row 2: first_unit_eur must be'],
    [{ ...good, first_unit_eur: 8.401 }, 'row 2: first_unit_eur must be'],
    [{ ...good, first_unit_eur: true }, 'row 2: first_unit_eur must be'],
    [{ ...good, max_weight_kg: 1.0001 }, 'row 2: max_weight_kg must be'],
    [{ ...good, price: 3 }, 'row 2: unknown field "price"'],
    [{ ...good, extra_unit_eur: null }, 'row 2: missing extra_unit_eur'],
    ['standard', 'row 2: must be an object'],
  ])('rejects %j naming the row', (bad, message) => {
    const error = rejection(json({ ...good, max_weight_kg: 30 }, bad as object), 'json');
    expect(error.message.startsWith(message)).toBe(true);
  });

  it('rejects duplicates', () => {
    expect(rejection(json(good, { ...good, first_unit_eur: 9 }), 'json').message).toMatch(
      /^row 2: same service, zone, unit_type and max_weight_kg as row 1/,
    );
  });

  it.each([
    ['{', 'not valid JSON'],
    ['[]', 'a JSON grid is an object with a "rows" array'],
    ['{"rows": {}}', 'a JSON grid is an object with a "rows" array'],
    ['{"rows": [], "currency": "EUR"}', 'unknown top-level key "currency"'],
    ['{"rows": []}', 'the grid has no rows'],
  ])('rejects the document %j', (text, message) => {
    expect(rejection(text, 'json').message.startsWith(message)).toBe(true);
  });
});

describe('formatting', () => {
  const rows = parseGridFile(
    csv(
      'economy,paris,parcel,1,6.30,3.10',
      'express,grande_couronne,pallet,1000,348,288',
      'express,paris,envelope,0.5,7.80,2.40',
      'express,paris,parcel,30,31.80,15.80',
      'express,paris,parcel,1,12.60,6.20',
    ),
    'csv',
  );

  it('writes CSV sorted by service, zone, unit type and weight, that reads back the same', () => {
    const text = formatGridCsv(rows);
    expect(text.split('\n').slice(0, 3)).toEqual([
      HEADER,
      'express,paris,parcel,1,12.60,6.20',
      'express,paris,parcel,30,31.80,15.80',
    ]);
    expect(parseGridFile(text, 'csv')).toEqual(expect.arrayContaining(rows));
    expect(parseGridFile(text, 'csv')).toHaveLength(rows.length);
  });

  it('writes JSON that reads back the same', () => {
    const text = formatGridJson(rows, 'exported');
    expect(JSON.parse(text).description).toBe('exported');
    expect(parseGridFile(text, 'json')).toEqual(parseGridFile(formatGridCsv(rows), 'csv'));
  });
});
