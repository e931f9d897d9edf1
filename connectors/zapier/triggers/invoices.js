'use strict';

const { apiRequest } = require('../lib/api');
const { restHookTrigger } = require('../lib/rest-hook');
const { SAMPLE_INVOICE } = require('../lib/samples');

const invoiceIssued = restHookTrigger({
  key: 'invoice_issued',
  noun: 'Invoice',
  label: 'Invoice Issued',
  description: "Triggers when a month's invoice is issued (on the 1st, for the month before).",
  eventType: 'invoice.issued',
  toRecord: (data) => data.invoice,
  // Samples: the latest issued invoices (drafts are the running month, not issued yet).
  list: async (z, bundle) => {
    const data = await apiRequest(z, bundle, { method: 'GET', path: '/invoices?type=invoice&limit=10' });
    return data.invoices.filter((invoice) => invoice.status !== 'draft').slice(0, 3);
  },
  sample: SAMPLE_INVOICE,
});

module.exports = { invoiceIssued };
