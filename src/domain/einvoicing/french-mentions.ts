/**
 * The mentions a French B2B invoice must carry, worded once for both the PDF and the Factur-X XML
 * (as notes with their UNTDID 4451 subject codes), so the two always say the same thing.
 */

/** An invoice note (EN 16931 BG-1): its text and subject code. */
export interface EInvoiceNote {
  /** UNTDID 4451: AAB discount, PMD penalties, PMT recovery indemnity, TXD tax, AAI general. */
  subjectCode: 'AAB' | 'PMD' | 'PMT' | 'TXD' | 'AAI';
  text: string;
}

/** The nature of the operation (mandatory from September 2026): deliveries are services. */
const OPERATION_NATURE = "Nature de l'opération : prestations de services (transport et livraison de colis).";
/** BT-23 business process: S1, an invoice for services (the French reform's "cadre de facturation"). */
export const BUSINESS_PROCESS_SERVICES = 'S1';

const VAT_ON_DEBITS = "Option pour le paiement de la taxe d'après les débits.";
/** Without the option, VAT on services is due when paid (CGI art. 269, 2-c). */
const VAT_ON_RECEIPTS = "TVA exigible à l'encaissement (prestations de services).";
const NO_DISCOUNT = "Pas d'escompte pour paiement anticipé.";
const LATE_PENALTIES =
  "En cas de retard de paiement, des pénalités de retard sont exigibles de plein droit au taux égal à trois fois le taux d'intérêt légal (art. L441-10 du Code de commerce).";
const RECOVERY_INDEMNITY =
  'En cas de retard de paiement, une indemnité forfaitaire pour frais de recouvrement de 40 € est due (art. L441-10 et D441-5 du Code de commerce).';

/**
 * Every note of a document, in print order. `extra` is where further mentions go without touching
 * the legal ones (the CO₂e information of transport services, Code des transports L1431-3, is the
 * next: an `AAI` note with the document's total).
 */
export function frenchMentions(options: {
  vatOnDebits: boolean;
  extra?: readonly EInvoiceNote[];
}): EInvoiceNote[] {
  return [
    { subjectCode: 'AAI', text: OPERATION_NATURE },
    { subjectCode: 'TXD', text: options.vatOnDebits ? VAT_ON_DEBITS : VAT_ON_RECEIPTS },
    { subjectCode: 'AAB', text: NO_DISCOUNT },
    { subjectCode: 'PMD', text: LATE_PENALTIES },
    { subjectCode: 'PMT', text: RECOVERY_INDEMNITY },
    ...(options.extra ?? []),
  ];
}
