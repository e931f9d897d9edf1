import type { EInvoiceNote } from '../einvoicing/french-mentions.ts';
import { EMISSION_METHOD } from './emission-method.ts';

/**
 * The CO₂e information of a document's transport services (Code des transports L1431-3), as an
 * invoice note (BG-1, subject AAI) the Factur-X XML and its PDF both carry: the sum of the lines'
 * figures. None when no line has one yet (orders not delivered, a credit note's cancelled orders).
 */
export function co2eInvoiceNote(lines: readonly { co2eGrams: number | null }[]): EInvoiceNote | null {
  const counted = lines.filter((l) => l.co2eGrams !== null);
  if (counted.length === 0) return null;
  const grams = counted.reduce((sum, l) => sum + (l.co2eGrams ?? 0), 0);
  const figure = grams.toLocaleString('fr-FR').replace(/\u202f|\u00a0/g, ' ');
  return {
    subjectCode: 'AAI',
    text: `Information GES (Code des transports, art. L1431-3) : ${figure} g CO₂e pour les ${counted.length} livraison(s) effectuée(s) de ce document (méthode ${EMISSION_METHOD}, relevé mensuel détaillé disponible).`,
  };
}
