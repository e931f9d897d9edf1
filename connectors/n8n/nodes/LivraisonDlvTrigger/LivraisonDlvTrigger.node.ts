import {
  type IDataObject,
  type IHookFunctions,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  type IWebhookResponseData,
  NodeConnectionTypes,
} from 'n8n-workflow';
import { apiRequest, CREDENTIALS } from '../../shared/api';
import { signatureProblem } from '../../shared/signature';

/** What the node keeps between activations (n8n's static data of the node, per workflow). */
interface Subscription {
  subscriptionId?: string;
  secret?: string;
}

const EVENTS = [
  { name: 'Order Created', value: 'order.created', description: 'A delivery order was created' },
  {
    name: 'Order Status Changed',
    value: 'order.status_changed',
    description: 'Any status change, with the previous status',
  },
  { name: 'Order Delivered', value: 'order.delivered', description: 'An order reached its recipient' },
  { name: 'Order Delivery Failed', value: 'order.delivery_failed', description: 'A delivery attempt failed' },
  {
    name: 'Order Labelled',
    value: 'order.labelled',
    description: "An order's label was printed for the first time",
  },
  {
    name: 'Order Rescheduled',
    value: 'order.rescheduled',
    description: "An order's promised day was moved by its recipient",
  },
  {
    name: 'Order Address Flagged',
    value: 'order.address_flagged',
    description: "An order's delivery address was flagged (see its address_warnings)",
  },
  {
    name: 'Order Arrival Time Changed',
    value: 'order.eta_changed',
    description: "An order's announced delivery window moved by 30 minutes or more",
  },
  { name: 'Invoice Issued', value: 'invoice.issued', description: "A month's invoice was issued" },
  { name: 'Credit Note Issued', value: 'credit_note.issued', description: 'A credit note was issued' },
  {
    name: 'Invoice E-Invoice Status Changed',
    value: 'invoice.status_changed',
    description: "An invoice's or credit note's e-invoice status changed on the e-invoicing platform",
  },
  {
    name: 'Pickup Completed',
    value: 'pickup.completed',
    description: 'A pickup was closed, with the parcels collected and those missing',
  },
];

function stored(context: IHookFunctions | IWebhookFunctions): Subscription & IDataObject {
  return context.getWorkflowStaticData('node') as Subscription & IDataObject;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * Deletes the node's subscription on the API when `remote` (404: already deleted, from the account
 * area say — the goal is reached), and forgets its id and secret.
 */
async function forgetSubscription(context: IHookFunctions, remote: boolean): Promise<void> {
  const data = stored(context);
  if (remote && data.subscriptionId) {
    await apiRequest.call(context, {
      method: 'DELETE',
      path: `/webhook-subscriptions/${encodeURIComponent(data.subscriptionId)}`,
      allowNotFound: true,
    });
  }
  delete data.subscriptionId;
  delete data.secret;
}

export class LivraisonDlvTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Livraison DLV Trigger',
    name: 'livraisonDlvTrigger',
    icon: 'file:livraisonDlv.svg',
    group: ['trigger'],
    version: 1,
    subtitle: '={{$parameter["events"].join(", ")}}',
    description:
      'Starts the workflow on Livraison DLV events (orders, invoices, pickups), signed per Standard Webhooks',
    defaults: { name: 'Livraison DLV Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: CREDENTIALS, required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        required: true,
        default: ['order.created'],
        options: EVENTS,
        description: 'The events that start the workflow',
      },
    ],
  };

  webhookMethods = {
    default: {
      /** True when our subscription still exists, for this URL and these events. */
      async checkExists(this: IHookFunctions): Promise<boolean> {
        const data = stored(this);
        if (!data.subscriptionId) return false;
        const found = await apiRequest.call(this, {
          method: 'GET',
          path: `/webhook-subscriptions/${encodeURIComponent(data.subscriptionId)}`,
          allowNotFound: true,
        });
        const subscription = found?.subscription as IDataObject | undefined;
        const events = this.getNodeParameter('events') as string[];
        if (
          subscription &&
          subscription.status === 'active' &&
          subscription.url === this.getNodeWebhookUrl('default') &&
          sameSet(subscription.event_types as string[], events)
        ) {
          return true;
        }
        // Gone, disabled, or made for another URL or other events: replace it.
        await forgetSubscription(this, Boolean(subscription));
        return false;
      },

      async create(this: IHookFunctions): Promise<boolean> {
        const workflow = this.getWorkflow();
        const created = await apiRequest.call(this, {
          method: 'POST',
          path: '/webhook-subscriptions',
          body: {
            url: this.getNodeWebhookUrl('default') as string,
            event_types: this.getNodeParameter('events') as string[],
            description: `n8n: ${workflow.name ?? workflow.id ?? 'workflow'}`.slice(0, 200),
          },
        });
        const data = stored(this);
        data.subscriptionId = (created!.subscription as IDataObject).id as string;
        // Shown once by the API; kept in the node's static data to verify every delivery.
        data.secret = created!.secret as string;
        return true;
      },

      async delete(this: IHookFunctions): Promise<boolean> {
        await forgetSubscription(this, Boolean(stored(this).subscriptionId));
        return true;
      },
    },
  };

  /** A delivery: checked against the subscription's secret before anything runs. */
  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const req = this.getRequestObject();
    const res = this.getResponseObject();
    const { secret } = stored(this);
    if (!req.rawBody && typeof req.readRawBody === 'function') await req.readRawBody();
    const problem =
      secret && req.rawBody ? signatureProblem(secret, this.getHeaderData(), req.rawBody) : 'no secret';
    if (problem) {
      // 401 makes the API retry later (then disable the subscription): a forged call gets nothing.
      res.status(401).json({ ok: false, error: 'invalid_signature' });
      return { noWebhookResponse: true };
    }
    const event = JSON.parse(req.rawBody.toString('utf8')) as {
      type: string;
      id: string;
      created_at: string;
      data: IDataObject;
    };
    const wanted = this.getNodeParameter('events') as string[];
    // Another event type (the subscription was widened elsewhere): acknowledged, not run.
    if (!wanted.includes(event.type)) return { webhookResponse: { ok: true, ignored: event.type } };
    return {
      workflowData: [
        [{ json: { event: event.type, event_id: event.id, created_at: event.created_at, ...event.data } }],
      ],
    };
  }
}
