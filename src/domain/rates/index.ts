export type { QuoteRatesInput, Rate, RatesQuote } from './quote-rates.ts';
export { quoteRates } from './quote-rates.ts';
