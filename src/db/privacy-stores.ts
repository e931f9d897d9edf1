import type { PrivacyStores } from '../domain/privacy/ports.ts';
import type { UnitOfWork } from '../domain/shared/stores.ts';
import { type Pool, withTransaction } from './pool.ts';
import { auditRepository } from './repositories/audit-repository.ts';
import { recipientDataRepository } from './repositories/recipient-data-repository.ts';

/** The erasure's unit of work: its stores on one transaction's client. */
export function privacyTransact(pool: Pool): UnitOfWork<PrivacyStores> {
  return (work) =>
    withTransaction(pool, (client) =>
      work({ recipientData: recipientDataRepository(client), audit: auditRepository(client) }),
    );
}
