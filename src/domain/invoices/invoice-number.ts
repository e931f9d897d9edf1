/**
 * Invoice numbers are `F` + year + `-` + 6-digit sequence, gap-free per year (SPEC §2); credit
 * notes have their own series, `A` + year + `-` + sequence (SPEC §6). Allocating the sequence is the
 * repository's job (in the issuing transaction); this module only spells it.
 */

const NUMBER = /^F(\d{4})-(\d{6})$/;
const MAX_INVOICE_SEQUENCE = 999_999;

export interface InvoiceNumberParts {
  year: number;
  sequence: number;
}

export function formatInvoiceNumber(year: number, sequence: number): string {
  return formatNumber('F', year, sequence);
}

/** `A` for "avoir": a series of its own, so both stay gap-free. */
export function formatCreditNoteNumber(year: number, sequence: number): string {
  return formatNumber('A', year, sequence);
}

function formatNumber(series: 'F' | 'A', year: number, sequence: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) {
    throw new RangeError(`invoice year must have 4 digits, got ${year}`);
  }
  // A 7-digit sequence would break the fixed width that keeps numbers sorting as text.
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > MAX_INVOICE_SEQUENCE) {
    throw new RangeError(`invoice sequence must be 1–${MAX_INVOICE_SEQUENCE}, got ${sequence}`);
  }
  return `${series}${year}-${String(sequence).padStart(6, '0')}`;
}

export function parseInvoiceNumber(value: string): InvoiceNumberParts | null {
  const match = NUMBER.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const sequence = Number(match[2]);
  if (year < 1000 || sequence < 1) return null;
  return { year, sequence };
}
