'use strict';

const { apiRequest, filledFields } = require('../lib/api');
const { SERVICES, UNIT_TYPES } = require('../lib/choices');
const { idempotencyKeyFor } = require('../lib/idempotency');
const { SAMPLE_ORDER } = require('../lib/samples');

/** The body fields of POST /orders, in the order the Zap editor shows them. */
const ORDER_FIELDS = [
  { key: 'customer_email', label: 'Customer email', required: true, helpText: 'E-mail of your customer.' },
  {
    key: 'delivery_address',
    label: 'Delivery address',
    helpText:
      'Full French address with its postcode, in Île-de-France. Leave empty to create the order awaiting its address.',
  },
  { key: 'delivery_recipient', label: 'Recipient name' },
  { key: 'delivery_phone', label: 'Recipient phone', helpText: 'French or international number.' },
  { key: 'delivery_email', label: 'Recipient email' },
  { key: 'amount_eur', label: 'Value of the goods (EUR)', type: 'number' },
  { key: 'service', label: 'Service', choices: SERVICES, helpText: 'Default: standard.' },
  { key: 'unit_type', label: 'Unit type', choices: UNIT_TYPES, helpText: 'Default: parcel.' },
  { key: 'quantity', label: 'Number of units', type: 'integer', helpText: 'Default: 1.' },
  { key: 'unit_weight', label: 'Weight of one unit', helpText: 'e.g. `2.5kg` or `500g`. Default: 1 kg.' },
  { key: 'pickup_address', label: 'Pickup address', helpText: "Default: your brand's pickup address." },
  {
    key: 'reference',
    label: 'Reference',
    helpText: 'Your own order number: shown on the tracking page and invoices.',
  },
].map((field) => ({ type: 'string', required: false, ...field }));

const ORDER_KEYS = ORDER_FIELDS.map((field) => field.key);

async function createOrder(z, bundle) {
  const body = filledFields(bundle.inputData, ORDER_KEYS);
  const explicitKey = String(bundle.inputData.idempotency_key || '').trim();
  const data = await apiRequest(z, bundle, {
    method: 'POST',
    path: '/orders',
    body,
    headers: { 'Idempotency-Key': explicitKey || idempotencyKeyFor(body) },
  });
  return { id: data.order.tracking_ref, ...data.order };
}

module.exports = {
  key: 'create_order',
  noun: 'Order',
  display: {
    label: 'Create Delivery Order',
    description: 'Creates a delivery order: priced from your grid, with a promised date and a tracking link.',
  },
  operation: {
    inputFields: [
      ...ORDER_FIELDS,
      {
        key: 'idempotency_key',
        label: 'Idempotency key',
        type: 'string',
        required: false,
        helpText:
          'Optional. Retries of this step never create a second order: by default the key is derived from the fields above.',
      },
    ],
    perform: createOrder,
    sample: { id: SAMPLE_ORDER.tracking_ref, ...SAMPLE_ORDER },
  },
};
