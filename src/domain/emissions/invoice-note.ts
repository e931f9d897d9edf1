import type { EInvoiceNote } from '../einvoicing/french-mentions.ts';

/**
 * Grams of CO₂e as a French document prints them, the unit always said: "7 489 g CO₂e". Grams, not
 * kilograms, on invoices: a parcel's share is a few hundred grams, and the XML, the PDF and the API's
 * `co2e_grams` then carry the same integer (docs/emissions.md, "Units").
 */
export function gramsCo2eFr(grams: number): string {
  // Hand-grouped like formatEurosFr: Intl's narrow spaces differ between ICU builds.
  return `${String(grams).replace(/\B(?=(\d{3})+$)/g, ' ')} g CO₂e`;
}

/** The lines' CO₂e summed, or null when no line has a figure yet. */
export function linesCo2e(
  lines: readonly { co2eGrams: number | null }[],
): { grams: number; counted: number } | null {
  const counted = lines.filter((l) => l.co2eGrams !== null);
  if (counted.length === 0) return null;
  return { grams: counted.reduce((sum, l) => sum + (l.co2eGrams ?? 0), 0), counted: counted.length };
}

/**
 * The CO₂e information of a document's transport services (Code des transports L1431-3), as an
 * invoice note (BG-1, subject AAI) the Factur-X XML and its PDF both carry: the sum of the lines'
 * figures. None when no line has one yet (orders not delivered, a credit note's cancelled orders).
 * It names no method identifier: each order keeps the one it was computed with, and a document may
 * gather several (before and after a change of settings); the monthly statement lists them.
 */
export function co2eInvoiceNote(lines: readonly { co2eGrams: number | null }[]): EInvoiceNote | null {
  const sum = linesCo2e(lines);
  if (!sum) return null;
  return {
    subjectCode: 'AAI',
    text: `Information GES (Code des transports, art. L1431-3) : ${gramsCo2eFr(sum.grams)} (grammes d'équivalent CO₂) pour les ${sum.counted} livraison(s) effectuée(s) de ce document (méthode Code des transports D1431-1 et suivants / ISO 14083 ; méthode, facteurs et niveaux de données de chaque livraison : relevé mensuel).`,
  };
}

/** A line's own CO₂e (BT-127, the invoice line note), or null until its order is delivered or returned. */
export function co2eLineNote(line: { co2eGrams: number | null }): string | null {
  return line.co2eGrams === null ? null : `CO₂e du transport : ${gramsCo2eFr(line.co2eGrams)}`;
}
