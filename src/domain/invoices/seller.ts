/** The legal identity printed as the issuer of every invoice (mandatory on a French B2B invoice). */
export interface SellerIdentity {
  name: string;
  /** Printed one entry per line: street, then postcode and city. */
  address: string[];
  /** 9 digits, grouped by 3 as the INSEE register prints it. */
  siren: string;
  /** Intra-community VAT number (numéro de TVA intracommunautaire). */
  vatNumber: string;
  email?: string;
  /** The establishment issuing the invoices (14 digits), when set: the e-invoice's seller identifier. */
  siret?: string;
  /** The account the invoices are paid into (SEPA credit transfer), printed and in the e-invoice. */
  iban?: string;
  bic?: string;
}

/**
 * Placeholder identity for development and demos, used until the operator sets SELLER_* (see
 * config.ts). The SIREN deliberately fails the Luhn check so it can never be a real company's; the
 * VAT number's key (74) is computed from it the official way, so the pair still looks consistent.
 */
export const DEFAULT_SELLER: Readonly<SellerIdentity> = Object.freeze({
  name: 'DLV Logistique SAS',
  address: ['12 rue des Petites-Écuries', '75010 Paris', 'France'],
  siren: '912 345 678',
  vatNumber: 'FR74912345678',
  email: 'facturation@dlv-logistique.fr',
  // A well-formed IBAN (its check digits hold) of no real account, like the SIREN above.
  iban: 'FR7630006000011234567890189',
});

/** The key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97, two digits. */
export function frenchVatKey(siren: string): string {
  const digits = siren.replace(/\s/g, '');
  return String((12 + 3 * (Number(digits) % 97)) % 97).padStart(2, '0');
}

/** SIREN as printed: three groups of three digits. */
export function formatSiren(siren: string): string {
  return siren.replace(/\s/g, '').replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
}
