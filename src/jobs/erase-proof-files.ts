import type { ProofService } from '../domain/proofs/proof-service.ts';
import { defineJob } from './job.ts';
import { ERASE_PROOF_FILES_SPEC } from './job-names.ts';

/**
 * Daily (04:40, a quiet hour): the photos and signatures of attempts older than 90 days are erased
 * from object storage and their keys cleared; the facts (time, who took the parcel, where) stay with
 * the order (docs/proof-of-delivery.md). In batches, and idempotent: a run cut short is finished by
 * the next.
 */
export const ERASE_PROOF_FILES = defineJob({
  ...ERASE_PROOF_FILES_SPEC,
  schedule: '40 4 * * * ?max=3',
  async run(deps: { proofs: Pick<ProofService, 'eraseExpiredFiles'> }, _payload, helpers) {
    const erased = await deps.proofs.eraseExpiredFiles();
    if (erased.attempts > 0) {
      helpers.logger.info(`erased ${erased.files} proof files of ${erased.attempts} delivery attempts`);
    }
  },
});
