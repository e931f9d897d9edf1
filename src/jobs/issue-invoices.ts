import { defineJob } from './job.ts';

/**
 * Hourly: issues the previous month (Europe/Paris) for every brand not yet invoiced. Idempotent, so
 * running it every hour means the 1st's run happens at most an hour after midnight in Paris, and a
 * worker that was down catches up as soon as it is back.
 */
export const ISSUE_DUE_INVOICES = defineJob({
  name: 'invoices_issue_due',
  payloadVersion: 1,
  fields: [],
  schedule: '5 * * * * ?max=5',
  async run(deps, _payload, helpers) {
    const { period, issued } = await deps.invoices.issueDue();
    if (issued.length > 0) helpers.logger.info(`issued ${issued.length} invoice(s) for ${period}`);
  },
});
