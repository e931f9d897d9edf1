import { invalidField } from '../../errors.ts';
import { nextPeriod } from './billing-period.ts';

/**
 * The order of the invoice list: newest period first; within a period, its credit notes (newest
 * number first) before the invoice — or draft — they correct, i.e. newest issued first. A credit
 * note belongs to the period of the invoice it corrects. An item's place is (period, key) compared
 * descending, where the key is '' for an invoice and the number for a credit note ('A…' > '').
 */
export interface ListPosition {
  period: string;
  key: string;
}

export function positionOf(item: {
  period: string;
  number: string | null;
  creditsInvoice?: object | null;
}): ListPosition {
  return { period: item.period, key: item.creditsInvoice ? (item.number ?? '') : '' };
}

/** Whether `item` comes strictly after `after` in list order. */
export function comesAfter(item: ListPosition, after: ListPosition): boolean {
  return item.period < after.period || (item.period === after.period && item.key < after.key);
}

export function newestFirst(a: ListPosition, b: ListPosition): number {
  if (a.period !== b.period) return a.period < b.period ? 1 : -1;
  return a.key === b.key ? 0 : a.key < b.key ? 1 : -1;
}

/** The bound for a query on invoices only (key ''): those strictly before this period. */
export function invoicesBefore(after: ListPosition): string {
  return after.key === '' ? after.period : nextPeriod(after.period);
}

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
const KEY = /^(A\d{4}-\d{6})?$/;

/** The position a cursor carries (sealed by the cursor codec, so clients never see it). */
export const formatPosition = (at: ListPosition) => `${at.period}.${at.key}`;

export function parsePosition(text: string): ListPosition {
  const [period = '', key = '', ...rest] = text.split('.');
  if (rest.length > 0 || !PERIOD.test(period) || !KEY.test(key))
    throw invalidField('cursor', 'is not a cursor returned by this API');
  return { period, key };
}
