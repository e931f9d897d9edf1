export { DEFAULT_GRID_URL, loadDefaultGrid } from './default-grid.ts';
export type { Grid, GridIndex, GridRow, Price, PriceQuery } from './grid.ts';
export { findBand, indexGrid, priceFor, requirePrice } from './grid.ts';
export type { GridFileFormat } from './grid-file.ts';
export { formatGridCsv, formatGridJson, GRID_COLUMNS, parseGridFile, sortGrid } from './grid-file.ts';
export {
  centsToEuros,
  eurosToCents,
  formatEuros,
  hasAtMostTwoDecimals,
  inclTaxCents,
  parseEurosToCents,
  VAT_RATE,
  vatCents,
} from './money.ts';
export type { ServiceCode, ServiceInfo } from './services.ts';
export { DEFAULT_SERVICE, isServiceCode, parseService, SERVICE_CODES, SERVICES } from './services.ts';
export type { UnitType } from './units.ts';
export {
  DEFAULT_UNIT_TYPE,
  formatWeight,
  isUnitType,
  MAX_QUANTITY,
  MAX_UNIT_WEIGHT_GRAMS,
  parseQuantity,
  parseUnitType,
  parseWeightGrams,
  UNIT_TYPES,
} from './units.ts';
