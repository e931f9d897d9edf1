import type { InvoiceService } from '../domain/invoices/invoice-service.ts';
import { defineJob } from './job.ts';
import { ISSUE_DUE_INVOICES_SPEC } from './job-names.ts';

/**
 * Hourly: issues the previous month (Europe/Paris) for every brand not yet invoiced. Idempotent, so
 * running it every hour means the 1st's run happens at most an hour after midnight in Paris, and a
 * worker that was down catches up as soon as it is back. A brand lacking what its e-invoice needs
 * (SIREN, billing address) is held: the job does not fail for it (the others are issued), says so
 * at every run until it is given, and the first run after that issues the month.
 */
export const ISSUE_DUE_INVOICES = defineJob({
  ...ISSUE_DUE_INVOICES_SPEC,
  schedule: '5 * * * * ?max=5',
  async run(deps: { invoices: Pick<InvoiceService, 'issueDue'> }, _payload, helpers) {
    const { period, issued, held } = await deps.invoices.issueDue();
    if (issued.length > 0) helpers.logger.info(`issued ${issued.length} invoice(s) for ${period}`);
    for (const brand of held) helpers.logger.warn(`${period} not issued: ${brand.reason}`);
  },
});
