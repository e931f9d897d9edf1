import { stringify } from 'csv-stringify/sync';
import type { EmissionStatement } from './ports.ts';

/** Grams as kilograms with the grams kept (3 decimals), metres as kilometres likewise. */
const thousandths = (n: number) => Math.round(n) / 1000;

/** The statement as the API answers it (`GET /emissions`). */
export function emissionStatementJson(s: EmissionStatement) {
  return {
    period: s.period,
    totals: {
      orders: s.totals.orders,
      parcels: s.totals.parcels,
      distance_km: thousandths(s.totals.distanceM),
      co2e_kg: thousandths(s.totals.grams),
    },
    by_vehicle: s.rows.map((r) => ({
      vehicle: r.vehicle,
      data_level: r.dataLevel,
      orders: r.orders,
      parcels: r.parcels,
      distance_km: thousandths(r.distanceM),
      co2e_kg: thousandths(r.grams),
    })),
    data_levels: s.dataLevels,
    method: s.method,
    method_text: s.methodText,
  };
}

/**
 * The statement as CSV (RFC 4180, a header row): one row per vehicle kind and data level, then the
 * total, in grams and metres (integers: a spreadsheet sums them exactly); each row names its method
 * (the text is on the PDF and in the JSON).
 */
export function emissionStatementCsv(s: EmissionStatement): string {
  const rows: (string | number)[][] = [
    ['period', 'vehicle', 'data_level', 'orders', 'parcels', 'distance_m', 'co2e_grams', 'method'],
    ...s.rows.map((r) => [
      s.period,
      r.vehicle,
      r.dataLevel,
      r.orders,
      r.parcels,
      r.distanceM,
      r.grams,
      s.method,
    ]),
    [s.period, 'total', '', s.totals.orders, s.totals.parcels, s.totals.distanceM, s.totals.grams, s.method],
  ];
  return stringify(rows);
}
