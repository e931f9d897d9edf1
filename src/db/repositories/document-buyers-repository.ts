import type { DocumentBuyer, DocumentBuyerStore } from '../../domain/invoices/ports.ts';
import type { Queryable } from '../pool.ts';

/** The buyer block frozen with an issued invoice or credit note (migration 0017). */
export function documentBuyersRepository(db: Queryable): DocumentBuyerStore {
  return {
    /** Copies the brand's billing details as they are now; inside the issuing transaction. */
    async freeze(documentId: string, brandId: string): Promise<void> {
      await db.query(
        `INSERT INTO document_buyers (document_id, name, address, siren, vat_number, siret, service_address)
         SELECT $1, coalesce(legal_name, name), coalesce(billing_address, default_pickup_address), siren, vat_number,
                siret, default_pickup_address
           FROM brands WHERE id = $2`,
        [documentId, brandId],
      );
    },
    async copy(fromDocumentId: string, toDocumentId: string): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO document_buyers (document_id, name, address, siren, vat_number, siret, service_address)
         SELECT $2, name, address, siren, vat_number, siret, service_address
           FROM document_buyers WHERE document_id = $1`,
        [fromDocumentId, toDocumentId],
      );
      return rowCount === 1;
    },
    async find(documentId: string): Promise<DocumentBuyer | null> {
      const { rows } = await db.query<{
        name: string;
        address: string | null;
        siren: string | null;
        vat_number: string | null;
        siret: string | null;
        service_address: string | null;
      }>(
        'SELECT name, address, siren, vat_number, siret, service_address FROM document_buyers WHERE document_id = $1',
        [documentId],
      );
      const r = rows[0];
      return r
        ? {
            name: r.name,
            address: r.address,
            siren: r.siren,
            vatNumber: r.vat_number,
            siret: r.siret,
            serviceAddress: r.service_address,
          }
        : null;
    },
  };
}
