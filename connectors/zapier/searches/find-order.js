'use strict';

const { baseUrl, throwApiError } = require('../lib/api');
const { SAMPLE_ORDER } = require('../lib/samples');

module.exports = {
  key: 'find_order',
  noun: 'Order',
  display: {
    label: 'Find Order by Tracking Reference',
    description: 'Finds a delivery order, with its tracking history, by its tracking reference (DLV-…).',
  },
  operation: {
    inputFields: [
      {
        key: 'tracking_ref',
        label: 'Tracking reference',
        type: 'string',
        required: true,
        helpText: 'e.g. `DLV-7K3M9Q2XHP`.',
      },
    ],
    perform: async (z, bundle) => {
      const ref = String(bundle.inputData.tracking_ref || '').trim();
      const response = await z.request({
        method: 'GET',
        url: `${baseUrl(bundle)}/orders/${encodeURIComponent(ref)}`,
        skipThrowForStatus: true,
      });
      // No such order (or another brand's): "nothing found", so the Zap can branch on it.
      if (response.status === 404) return [];
      if (response.status >= 400) throwApiError(z, response);
      const { order } = response.data;
      return [{ id: order.tracking_ref, ...order }];
    },
    sample: { id: SAMPLE_ORDER.tracking_ref, ...SAMPLE_ORDER, events: [] },
  },
};
