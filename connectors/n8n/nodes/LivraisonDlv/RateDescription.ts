import type { INodeProperties } from 'n8n-workflow';
import { UNIT_TYPES } from './OrderDescription';

const show = { show: { resource: ['rate'], operation: ['get'] } };

/** The Rate resource: POST /rates for a destination and a load. */
export const rateProperties: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['rate'] } },
    default: 'get',
    options: [
      {
        name: 'Get',
        value: 'get',
        action: 'Get delivery rates',
        description: 'Services, prices and dates, cheapest first',
      },
    ],
  },
  {
    displayName: 'Destination Postcode',
    name: 'delivery_zip',
    type: 'string',
    default: '',
    placeholder: '75011',
    description: 'Give this or the destination address',
    displayOptions: show,
  },
  {
    displayName: 'Destination Address',
    name: 'delivery_address',
    type: 'string',
    default: '',
    displayOptions: show,
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: show,
    options: [
      {
        displayName: 'Quantity',
        name: 'quantity',
        type: 'number',
        typeOptions: { minValue: 1, maxValue: 1000 },
        default: 1,
      },
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
];
