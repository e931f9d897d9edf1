import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRICING_ZONES } from '../coverage/zones.ts';
import { loadDefaultGrid } from './default-grid.ts';
import { indexGrid, priceFor } from './grid.ts';
import { parseGridFile } from './grid-file.ts';
import { SERVICE_CODES } from './services.ts';
import { UNIT_TYPES } from './units.ts';

const dataFile = (name: string) => readFileSync(new URL(`../../../data/${name}`, import.meta.url), 'utf8');

describe('the shipped default grid', () => {
  const index = indexGrid(loadDefaultGrid());

  it('prices every service × zone × unit type at its smallest band', () => {
    for (const service of SERVICE_CODES) {
      for (const zone of PRICING_ZONES) {
        for (const unitType of UNIT_TYPES) {
          const price = priceFor(index, { service, zone, unitType, weightGrams: 1, quantity: 1 });
          expect(price, `${service} ${zone} ${unitType}`).not.toBeNull();
          expect(price?.exclTaxCents).toBeGreaterThan(0);
        }
      }
    }
  });

  it('is cheapest in Paris and dearest for express, band by band', () => {
    for (const row of loadDefaultGrid()) {
      const q = { unitType: row.unitType, weightGrams: row.maxWeightGrams, quantity: 2 };
      const price = (service: typeof row.service, zone: typeof row.zone) =>
        priceFor(index, { ...q, service, zone })?.exclTaxCents ?? Number.NaN;
      expect(price(row.service, 'paris')).toBeLessThan(price(row.service, 'petite_couronne'));
      expect(price(row.service, 'petite_couronne')).toBeLessThan(price(row.service, 'grande_couronne'));
      expect(price('economy', row.zone)).toBeLessThan(price('standard', row.zone));
      expect(price('standard', row.zone)).toBeLessThan(price('express', row.zone));
    }
  });

  it('costs more for a heavier band', () => {
    for (const bands of index.bands.values()) {
      for (let i = 1; i < bands.length; i++) {
        expect(bands[i]?.firstUnitCents).toBeGreaterThan(
          bands[i - 1]?.firstUnitCents ?? Number.POSITIVE_INFINITY,
        );
      }
    }
  });
});

describe('the example negotiated grid', () => {
  it('says the same in CSV and JSON', () => {
    const fromCsv = parseGridFile(dataFile('example-grid.csv'), 'csv');
    const fromJson = parseGridFile(dataFile('example-grid.json'), 'json');
    expect(fromCsv.length).toBeGreaterThan(0);
    expect(fromJson).toEqual(fromCsv);
  });
});
