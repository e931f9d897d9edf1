import type { EInvoiceTransmissionService } from '../domain/einvoicing/transmission-service.ts';
import { defineJob } from './job.ts';
import { EINVOICE_SUBMIT_SPEC } from './job-names.ts';

/**
 * An issued invoice's or credit note's Factur-X to the e-invoicing platform, enqueued in the issuing
 * transaction. A platform outage fails the attempt: the queue tries again later (its backoff), and
 * each attempt asks the platform for the document's number first, so it is never sent twice.
 */
export const EINVOICE_SUBMIT = defineJob({
  ...EINVOICE_SUBMIT_SPEC,
  async run(deps: { einvoices: Pick<EInvoiceTransmissionService, 'submit'> }, payload, helpers) {
    const transmission = await deps.einvoices.submit(payload.document_id);
    helpers.logger.info(
      `e-invoice ${transmission.number} ${transmission.status} on ${transmission.platform ?? 'the platform'}`,
    );
  },
});
