import {
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  NodeConnectionTypes,
} from 'n8n-workflow';
import { apiRequest, CREDENTIALS, filled, idempotencyKeyFor } from '../../shared/api';
import { orderProperties } from './OrderDescription';
import { rateProperties } from './RateDescription';

type Operation = (this: IExecuteFunctions, i: number) => Promise<IDataObject[]>;

const OPERATIONS: Record<string, Record<string, Operation>> = {
  order: {
    async create(i) {
      const { idempotency_key: explicitKey, ...additional } = this.getNodeParameter(
        'additionalFields',
        i,
        {},
      ) as IDataObject;
      const body = filled({
        customer_email: this.getNodeParameter('customer_email', i),
        delivery_address: this.getNodeParameter('delivery_address', i, ''),
        ...additional,
      } as IDataObject);
      const key = String(explicitKey ?? '').trim() || idempotencyKeyFor(body);
      const data = await apiRequest.call(this, {
        method: 'POST',
        path: '/orders',
        body,
        headers: { 'Idempotency-Key': key },
      });
      return [data!.order as IDataObject];
    },
    async get(i) {
      const ref = String(this.getNodeParameter('trackingRef', i)).trim();
      const data = await apiRequest.call(this, { method: 'GET', path: `/orders/${encodeURIComponent(ref)}` });
      return [data!.order as IDataObject];
    },
    async list(i) {
      const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
      const limit = returnAll ? Number.POSITIVE_INFINITY : (this.getNodeParameter('limit', i, 50) as number);
      const status = this.getNodeParameter('status', i, '') as string;
      const orders: IDataObject[] = [];
      let cursor: string | null = null;
      // Keyset pages of up to 200, following next_cursor until the limit or the last page.
      do {
        const qs: IDataObject = filled({ status, cursor, limit: Math.min(200, limit - orders.length) });
        const data = await apiRequest.call(this, { method: 'GET', path: '/orders', qs });
        orders.push(...(data!.orders as IDataObject[]));
        cursor = data!.next_cursor as string | null;
      } while (cursor && orders.length < limit);
      return orders;
    },
  },
  rate: {
    async get(i) {
      const body = filled({
        delivery_zip: this.getNodeParameter('delivery_zip', i, ''),
        delivery_address: this.getNodeParameter('delivery_address', i, ''),
        ...(this.getNodeParameter('additionalFields', i, {}) as IDataObject),
      } as IDataObject);
      const data = await apiRequest.call(this, { method: 'POST', path: '/rates', body });
      const rates = data!.rates as IDataObject[];
      // `cheapest` spares a workflow a sort: most only want the lowest price.
      // `reason` (out_of_zone, unknown_postcode, incomplete_grid) says why nothing is available.
      return [
        { available: data!.available, reason: data!.reason ?? null, rates, cheapest: rates[0] ?? null },
      ];
    },
  },
};

export class LivraisonDlv implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Livraison DLV',
    name: 'livraisonDlv',
    icon: 'file:livraisonDlv.svg',
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Create and track last-mile delivery orders, and get delivery rates',
    defaults: { name: 'Livraison DLV' },
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: CREDENTIALS, required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        default: 'order',
        options: [
          { name: 'Order', value: 'order' },
          { name: 'Rate', value: 'rate' },
        ],
      },
      ...orderProperties,
      ...rateProperties,
    ],
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const out: INodeExecutionData[] = [];
    for (let i = 0; i < items.length; i++) {
      const resource = this.getNodeParameter('resource', i) as string;
      const operation = this.getNodeParameter('operation', i) as string;
      try {
        const run = OPERATIONS[resource]?.[operation];
        if (!run) throw new Error(`Unknown operation ${resource}.${operation}`);
        for (const json of await run.call(this, i)) out.push({ json, pairedItem: { item: i } });
      } catch (error) {
        if (!this.continueOnFail()) throw error;
        out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  }
}
