import type { RecipientDataService } from '../domain/privacy/recipient-data-service.ts';
import { defineJob } from './job.ts';
import { ANONYMISE_RECIPIENT_DATA_SPEC } from './job-names.ts';

/**
 * Hourly: the recipient's data of orders ended more than RECIPIENT_DATA_RETENTION_DAYS ago is
 * erased, in batches (docs/security.md, "Personal data"); their proof files with it.
 */
export const ANONYMISE_RECIPIENT_DATA = defineJob({
  ...ANONYMISE_RECIPIENT_DATA_SPEC,
  schedule: '45 * * * * ?max=3',
  async run(deps: { recipientData: Pick<RecipientDataService, 'anonymiseExpired'> }, _payload, helpers) {
    const run = await deps.recipientData.anonymiseExpired();
    if (run.orders > 0) {
      helpers.logger.info(
        `erased the recipient's data of ${run.orders} ended orders (${run.files} proof files)${run.finished ? '' : ' (more next run)'}`,
      );
    }
  },
});
