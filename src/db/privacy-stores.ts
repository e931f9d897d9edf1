import type { PrivacyStores } from '../domain/privacy/ports.ts';
import type { AddressKeys } from '../domain/recipients/address-key.ts';
import type { UnitOfWork } from '../domain/shared/stores.ts';
import { type Pool, withTransaction } from './pool.ts';
import { auditRepository } from './repositories/audit-repository.ts';
import { recipientDataRepository } from './repositories/recipient-data-repository.ts';
import { recipientOptOutsRepository } from './repositories/recipient-opt-outs-repository.ts';

/** The erasure's unit of work: its stores on one transaction's client (`keys`: the opt-outs' digests). */
export function privacyTransact(pool: Pool, keys: AddressKeys): UnitOfWork<PrivacyStores> {
  return (work) =>
    withTransaction(pool, (client) =>
      work({
        recipientData: recipientDataRepository(client),
        optOuts: recipientOptOutsRepository(client, keys),
        audit: auditRepository(client),
      }),
    );
}
