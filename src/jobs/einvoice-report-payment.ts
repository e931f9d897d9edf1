import type { EInvoiceTransmissionService } from '../domain/einvoicing/transmission-service.ts';
import { defineJob } from './job.ts';
import { EINVOICE_REPORT_PAYMENT_SPEC } from './job-names.ts';

/**
 * A paid invoice's payment data (date, amount per VAT rate) to the e-invoicing platform, enqueued
 * when it is marked paid (services, VAT due when paid). Retried like the submission, once sent.
 */
export const EINVOICE_REPORT_PAYMENT = defineJob({
  ...EINVOICE_REPORT_PAYMENT_SPEC,
  async run(deps: { einvoices: Pick<EInvoiceTransmissionService, 'reportPayment'> }, payload, helpers) {
    if (await deps.einvoices.reportPayment(payload.invoice_id))
      helpers.logger.info(`payment of ${payload.invoice_id} reported to the e-invoicing platform`);
  },
});
