import type { RecipientDataService } from '../domain/privacy/recipient-data-service.ts';
import { defineJob } from './job.ts';
import { ANONYMISE_RECIPIENT_DATA_SPEC } from './job-names.ts';

/**
 * Hourly: the recipient's data of orders ended more than RECIPIENT_DATA_RETENTION_DAYS ago is
 * erased, in paced batches, their proof files with it (docs/security.md, "Personal data"). A run
 * that reached its time budget with orders still due is continued a second later (one job under a
 * key), as the message logs' purge is.
 */
export const ANONYMISE_RECIPIENT_DATA = defineJob({
  ...ANONYMISE_RECIPIENT_DATA_SPEC,
  schedule: '45 * * * * ?max=3',
  async run(deps: { recipientData: Pick<RecipientDataService, 'anonymiseExpired'> }, _payload, helpers) {
    const run = await deps.recipientData.anonymiseExpired();
    if (run.orders > 0) {
      helpers.logger.info(
        `erased the recipient's data of ${run.orders} ended orders (${run.files} proof files)${run.finished ? '' : '; going on'}`,
      );
    }
    if (!run.finished) {
      await helpers.addJob(
        ANONYMISE_RECIPIENT_DATA_SPEC.name,
        { v: ANONYMISE_RECIPIENT_DATA_SPEC.payloadVersion },
        { jobKey: `${ANONYMISE_RECIPIENT_DATA_SPEC.name}:more`, runAt: new Date(Date.now() + 1000) },
      );
    }
  },
});
