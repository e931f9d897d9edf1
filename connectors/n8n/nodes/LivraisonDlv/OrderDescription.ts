import type { INodeProperties } from 'n8n-workflow';

const SERVICES = [
  { name: 'Express (Same Day)', value: 'express' },
  { name: 'Standard (Next Business Day)', value: 'standard' },
  { name: 'Economy (3 Business Days)', value: 'economy' },
];
export const UNIT_TYPES = [
  { name: 'Parcel', value: 'parcel' },
  { name: 'Envelope', value: 'envelope' },
  { name: 'Bulky', value: 'bulky' },
  { name: 'Pallet', value: 'pallet' },
];

const show = (resource: string, operation: string[]) => ({ show: { resource: [resource], operation } });

/** The Order resource's operations and fields (names are the API's body and query fields). */
export const orderProperties: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['order'] } },
    default: 'create',
    options: [
      {
        name: 'Create',
        value: 'create',
        action: 'Create a delivery order',
        description: 'Create a priced delivery order',
      },
      {
        name: 'Get',
        value: 'get',
        action: 'Get an order',
        description: 'Get an order and its tracking history',
      },
      {
        name: 'Get Many',
        value: 'list',
        action: 'Get many orders',
        description: 'List orders, newest first',
      },
    ],
  },
  {
    displayName: 'Customer Email',
    name: 'customer_email',
    type: 'string',
    placeholder: 'name@email.com',
    required: true,
    default: '',
    displayOptions: show('order', ['create']),
  },
  {
    displayName: 'Delivery Address',
    name: 'delivery_address',
    type: 'string',
    default: '',
    description:
      'Full French address with its postcode, in Île-de-France. Empty: the order waits for its address.',
    displayOptions: show('order', ['create']),
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: show('order', ['create']),
    options: [
      {
        displayName: 'Amount (EUR)',
        name: 'amount_eur',
        type: 'number',
        typeOptions: { numberPrecision: 2 },
        default: 0,
      },
      {
        displayName: 'Idempotency Key',
        name: 'idempotency_key',
        type: 'string',
        default: '',
        description: 'Default: derived from the fields, so a retried item never creates a second order',
      },
      { displayName: 'Pickup Address', name: 'pickup_address', type: 'string', default: '' },
      {
        displayName: 'Quantity',
        name: 'quantity',
        type: 'number',
        typeOptions: { minValue: 1, maxValue: 1000 },
        default: 1,
      },
      {
        displayName: 'Recipient Email',
        name: 'delivery_email',
        type: 'string',
        placeholder: 'name@email.com',
        default: '',
      },
      { displayName: 'Recipient Name', name: 'delivery_recipient', type: 'string', default: '' },
      { displayName: 'Recipient Phone', name: 'delivery_phone', type: 'string', default: '' },
      {
        displayName: 'Reference',
        name: 'reference',
        type: 'string',
        default: '',
        description: 'Your own order number',
      },
      { displayName: 'Service', name: 'service', type: 'options', options: SERVICES, default: 'standard' },
      {
        displayName: 'Unit Type',
        name: 'unit_type',
        type: 'options',
        options: UNIT_TYPES,
        default: 'parcel',
      },
      { displayName: 'Unit Weight', name: 'unit_weight', type: 'string', default: '', placeholder: '2.5kg' },
    ],
  },
  {
    displayName: 'Tracking Reference',
    name: 'trackingRef',
    type: 'string',
    required: true,
    default: '',
    placeholder: 'DLV-7K3M9Q2XHP',
    displayOptions: show('order', ['get']),
  },
  {
    displayName: 'Return All',
    name: 'returnAll',
    type: 'boolean',
    default: false,
    description: 'Whether to return all results or only up to a given limit',
    displayOptions: show('order', ['list']),
  },
  {
    displayName: 'Limit',
    name: 'limit',
    type: 'number',
    typeOptions: { minValue: 1, maxValue: 200 },
    default: 50,
    description: 'Max number of results to return',
    displayOptions: { show: { resource: ['order'], operation: ['list'], returnAll: [false] } },
  },
  {
    displayName: 'Status',
    name: 'status',
    type: 'options',
    default: '',
    displayOptions: show('order', ['list']),
    options: [
      { name: 'Any', value: '' },
      ...[
        'awaiting_address',
        'pending',
        'picked_up',
        'in_transit',
        'out_for_delivery',
        'delivered',
        'failed_attempt',
        'returned',
        'cancelled',
      ].map((value) => ({ name: value.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()), value })),
    ],
  },
];
