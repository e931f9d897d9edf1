import type { Task } from 'graphile-worker';
import type { Deps } from '../deps.ts';

export const ISSUE_DUE_INVOICES = 'invoices_issue_due';

/**
 * Hourly: issues the previous month (Europe/Paris) for every brand not yet invoiced. Idempotent, so
 * running it every hour means the 1st's run happens at most an hour after midnight in Paris, and a
 * worker that was down catches up as soon as it is back.
 */
export function issueDueInvoicesTask(deps: Deps): Task {
  return async (_payload, helpers) => {
    const { period, issued } = await deps.invoices.issueDue();
    if (issued.length > 0) helpers.logger.info(`issued ${issued.length} invoice(s) for ${period}`);
  };
}
