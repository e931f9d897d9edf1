import type { EInvoiceTransmissionService } from '../domain/einvoicing/transmission-service.ts';
import { defineJob } from './job.ts';
import { EINVOICES_SYNC_SPEC } from './job-names.ts';

/**
 * Every five minutes: the e-invoicing platform's status updates since the last reading (received,
 * accepted, refused with the reason…) onto the documents, each change told as
 * `invoice.status_changed`. A reading that fails starts again from the same place next time.
 */
export const EINVOICES_SYNC = defineJob({
  ...EINVOICES_SYNC_SPEC,
  schedule: '*/5 * * * * ?max=1',
  async run(deps: { einvoices: Pick<EInvoiceTransmissionService, 'sync'> }, _payload, helpers) {
    const { read, changed } = await deps.einvoices.sync();
    if (changed > 0) helpers.logger.info(`e-invoices: ${changed} status change(s) of ${read} update(s) read`);
  },
});
