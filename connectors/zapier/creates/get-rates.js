'use strict';

const { apiRequest, filledFields } = require('../lib/api');
const { UNIT_TYPES } = require('../lib/choices');
const { SAMPLE_RATES } = require('../lib/samples');

const RATE_KEYS = ['delivery_zip', 'delivery_address', 'unit_type', 'quantity', 'unit_weight'];

module.exports = {
  key: 'get_rates',
  noun: 'Rate',
  display: {
    label: 'Get Delivery Rates',
    description: 'Gets the services, prices and promised dates for a destination and load, cheapest first.',
  },
  operation: {
    inputFields: [
      {
        key: 'delivery_zip',
        label: 'Destination postcode',
        type: 'string',
        required: false,
        helpText: 'Give this or the address.',
      },
      { key: 'delivery_address', label: 'Destination address', type: 'string', required: false },
      { key: 'unit_type', label: 'Unit type', type: 'string', required: false, choices: UNIT_TYPES },
      { key: 'quantity', label: 'Number of units', type: 'integer', required: false },
      {
        key: 'unit_weight',
        label: 'Weight of one unit',
        type: 'string',
        required: false,
        helpText: 'e.g. `2.5kg`.',
      },
    ],
    perform: async (z, bundle) => {
      const data = await apiRequest(z, bundle, {
        method: 'POST',
        path: '/rates',
        body: filledFields(bundle.inputData, RATE_KEYS),
      });
      // `cheapest` saves a Zap a lookup step: most workflows only want the lowest price.
      // `reason` (out_of_zone, unknown_postcode, incomplete_grid) says why nothing is available.
      return {
        available: data.available,
        reason: data.reason || null,
        rates: data.rates,
        cheapest: data.rates[0] || null,
      };
    },
    sample: SAMPLE_RATES,
  },
};
