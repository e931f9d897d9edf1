import { errorExample, IDEMPOTENCY_KEY_REUSED, type OperationExamples } from './types.ts';

const NOT_LABELLABLE = {
  summary: 'The order cannot be collected yet',
  message:
    'Order DLV-7K3M9Q2XHP is awaiting_address: only an order that can be collected (not awaiting_address, not cancelled) has a label.',
  details: [
    {
      field: 'trackingRef',
      message: 'DLV-7K3M9Q2XHP is awaiting_address: only an order that can be collected has a label',
    },
  ],
};

/** Examples of the label operations (the documents themselves are binary: described, not shown). */
export const LABEL_EXAMPLES: Record<string, OperationExamples> = {
  getOrderLabel: {
    responses: {
      404: {
        unknown: {
          summary: 'No such order for this brand',
          value: errorExample('not_found', 'No order with trackingRef "DLV-7K3M9Q2XHP".'),
        },
      },
    },
    unprocessable: {
      not_labellable: NOT_LABELLABLE,
    },
  },
  printLabels: {
    request: {
      pdf: {
        summary: 'Two orders on A6 pages',
        value: { tracking_refs: ['DLV-7K3M9Q2XHP', 'DLV-3F9A0C1D2E'], format: 'pdf', size: 'a6' },
      },
      zpl: {
        summary: 'For a 4×6 thermal printer',
        value: { tracking_refs: ['DLV-7K3M9Q2XHP'], format: 'zpl', size: '4x6' },
      },
    },
    responses: {
      400: {
        repeated: {
          summary: 'A reference given twice',
          value: errorExample(
            'invalid_request',
            'Each order is listed once: tracking_refs[1] repeats tracking_refs[0] (DLV-7K3M9Q2XHP).',
            [{ field: 'tracking_refs[1]', message: 'repeats tracking_refs[0] (DLV-7K3M9Q2XHP)' }],
          ),
        },
      },
    },
    unprocessable: {
      unknown_orders: {
        summary: 'A reference names no order of the brand',
        message: '1 reference(s) name no order of the brand; nothing was printed: tracking_refs[1].',
        details: [
          { field: 'tracking_refs[1]', message: 'no order of the brand has the reference "DLV-0000000000"' },
        ],
      },
      not_labellable: {
        summary: 'An order is cancelled',
        message:
          'Order DLV-3F9A0C1D2E is cancelled: only an order that can be collected (not awaiting_address, not cancelled) has a label.',
        details: [
          {
            field: 'tracking_refs[1]',
            message: 'DLV-3F9A0C1D2E is cancelled: only an order that can be collected has a label',
          },
        ],
      },
      idempotency_key_reused: IDEMPOTENCY_KEY_REUSED,
      too_many_labels: {
        summary: 'More than 1,000 labels',
        message:
          'These orders make 1200 labels (one per unit); a document holds at most 1000: print them in several batches.',
      },
    },
  },
};
