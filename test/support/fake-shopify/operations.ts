import { gid, gidNumber, nextBigId } from './ids.ts';
import { findFulfillmentOrder, type ShopState } from './state.ts';

/**
 * The Admin GraphQL fields the connector uses, with their argument types (2025-10), their cost
 * (mutations cost 10; a query its objects and connections) and the payload Shopify returns.
 * Arguments arrive already coerced (graphql-input.ts): only business rules are checked here, and
 * they answer with userErrors like Shopify does.
 */

type UserError = { field: string[] | null; message: string };
type Args = Record<string, any>;

export interface Operation {
  kind: 'query' | 'mutation';
  args: Record<string, string>;
  requestedCost: number;
  run(shop: ShopState, args: Args): { result: unknown; actualCost: number };
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const MUTATION_COST = 10;

function mutation(args: Record<string, string>, run: (shop: ShopState, args: Args) => unknown): Operation {
  return {
    kind: 'mutation',
    args,
    requestedCost: MUTATION_COST,
    run: (shop, values) => ({ result: run(shop, values), actualCost: MUTATION_COST }),
  };
}

const failed = (key: string, userErrors: UserError[]) => ({ [key]: null, userErrors });

export const OPERATIONS: Record<string, Operation> = {
  webhookSubscriptionCreate: mutation(
    { topic: 'WebhookSubscriptionTopic!', webhookSubscription: 'WebhookSubscriptionInput!' },
    (shop, { topic, webhookSubscription }) => {
      // 2025-10 takes the address as `uri`; `callbackUrl` is deprecated there, and alone before it.
      const field = webhookSubscription.uri !== undefined ? 'uri' : 'callbackUrl';
      const uri: string | undefined = webhookSubscription.uri ?? webhookSubscription.callbackUrl;
      if (!uri) {
        return failed('webhookSubscription', [
          { field: ['webhookSubscription', field], message: "Address can't be blank" },
        ]);
      }
      if (shop.webhookSubscriptions.some((s) => s.topic === topic && s.uri === uri)) {
        return failed('webhookSubscription', [
          { field: ['webhookSubscription', field], message: 'Address for this topic has already been taken' },
        ]);
      }
      const subscription = {
        id: gid('WebhookSubscription', nextBigId()),
        topic,
        uri,
        callbackUrl: uri,
        addressField: field,
        format: webhookSubscription.format ?? 'JSON',
        createdAt: now(),
      } as const;
      shop.webhookSubscriptions.push(subscription);
      const { addressField: _, ...shown } = subscription;
      return {
        webhookSubscription: { ...shown, endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: uri } },
        userErrors: [],
      };
    },
  ),

  webhookSubscriptionDelete: mutation({ id: 'ID!' }, (shop, { id }) => {
    const index = shop.webhookSubscriptions.findIndex((s) => s.id === id);
    if (index < 0) {
      return failed('deletedWebhookSubscriptionId', [
        { field: ['id'], message: 'Webhook subscription does not exist' },
      ]);
    }
    shop.webhookSubscriptions.splice(index, 1);
    return { deletedWebhookSubscriptionId: id, userErrors: [] };
  }),

  carrierServiceCreate: mutation({ input: 'DeliveryCarrierServiceCreateInput!' }, (shop, { input }) => {
    const service = { id: gid('DeliveryCarrierService', nextBigId()), ...input };
    shop.carrierServices.push(service);
    return {
      carrierService: { ...service, formattedName: `${input.name} (Rates provided by app)` },
      userErrors: [],
    };
  }),

  carrierServiceDelete: mutation({ id: 'ID!' }, (shop, { id }) => {
    const index = shop.carrierServices.findIndex((s) => s.id === id);
    if (index < 0) {
      return failed('deletedId', [{ field: ['id'], message: 'The carrier or app could not be found.' }]);
    }
    shop.carrierServices.splice(index, 1);
    return { deletedId: id, userErrors: [] };
  }),

  fulfillmentCreate: mutation({ fulfillment: 'FulfillmentInput!', message: 'String' }, fulfillmentCreate),

  fulfillmentEventCreate: mutation(
    { fulfillmentEvent: 'FulfillmentEventInput!' },
    (shop, { fulfillmentEvent }) => {
      const fulfillment = shop.fulfillments.find((f) => f.id === fulfillmentEvent.fulfillmentId);
      if (!fulfillment) {
        return failed('fulfillmentEvent', [
          { field: ['fulfillmentEvent', 'fulfillmentId'], message: 'Fulfillment does not exist.' },
        ]);
      }
      const event = {
        id: gid('FulfillmentEvent', nextBigId()),
        fulfillmentId: fulfillment.id,
        status: fulfillmentEvent.status,
        happenedAt: fulfillmentEvent.happenedAt ?? now(),
        estimatedDeliveryAt: fulfillmentEvent.estimatedDeliveryAt ?? null,
        message: fulfillmentEvent.message ?? null,
      };
      shop.fulfillmentEvents.push(event);
      const { fulfillmentId: _, ...shown } = event;
      return { fulfillmentEvent: shown, userErrors: [] };
    },
  ),

  order: {
    kind: 'query',
    args: { id: 'ID!' },
    // order (1) + fulfillmentOrders connection (2) + first: 10 nodes (10) + fulfillments(first: 20)
    // (a plain list, Order.fulfillments: [Fulfillment!]!: 1 per object asked)
    requestedCost: 33,
    run(shop, { id }) {
      const order = shop.orders.find((o) => o.gid === id);
      if (!order) return { result: null, actualCost: 1 };
      const nodes = order.fulfillmentOrders.map((fo) => ({ id: fo.id, status: fo.status }));
      // Newest last, as Shopify lists them; each with its FulfillmentTrackingInfo list.
      const fulfillments = shop.fulfillments
        .filter((f) => f.orderGid === order.gid)
        .slice(0, 20)
        .map(({ id: fulfillmentId, name, status, trackingInfo, createdAt }) => ({
          id: fulfillmentId,
          name,
          status,
          trackingInfo: trackingInfo.map((t) => ({ ...t })),
          createdAt,
        }));
      return {
        result: { id: order.gid, name: order.name, fulfillmentOrders: { nodes }, fulfillments },
        actualCost: 3 + nodes.length + fulfillments.length,
      };
    },
  },
};

/** Creates one fulfillment over fulfillment orders of a single order, whole or by line items. */
function fulfillmentCreate(shop: ShopState, { fulfillment: input, message }: Args) {
  const requests: {
    fulfillmentOrderId: string;
    fulfillmentOrderLineItems?: { id: string; quantity: number }[];
  }[] = input.lineItemsByFulfillmentOrder;
  const fulfillmentOrders = requests.map((r) => findFulfillmentOrder(shop, r.fulfillmentOrderId));
  if (!requests.length || fulfillmentOrders.some((fo) => !fo)) {
    return failed('fulfillment', [{ field: ['fulfillment'], message: 'Fulfillment order does not exist.' }]);
  }
  for (const fo of fulfillmentOrders) {
    if (fo!.status !== 'OPEN' && fo!.status !== 'IN_PROGRESS') {
      const message = `Fulfillment order ${gidNumber(fo!.id)} has an unfulfillable status= ${fo!.status.toLowerCase()}.`;
      return failed('fulfillment', [{ field: ['fulfillment'], message }]);
    }
  }
  if (new Set(fulfillmentOrders.map((fo) => fo!.orderGid)).size > 1) {
    return failed('fulfillment', [
      { field: ['fulfillment'], message: 'All fulfillment orders must belong to the same order.' },
    ]);
  }
  // Quantities: a listed line item takes its quantity, an unlisted fulfillment order takes all.
  const takes = new Map<object, number>();
  for (const [index, request] of requests.entries()) {
    const fo = fulfillmentOrders[index]!;
    for (const line of fo.lineItems) {
      const listed = request.fulfillmentOrderLineItems?.find((l) => l.id === line.id);
      const quantity = request.fulfillmentOrderLineItems ? (listed?.quantity ?? 0) : line.remainingQuantity;
      if (quantity > line.remainingQuantity || (listed && quantity <= 0)) {
        return failed('fulfillment', [
          { field: ['fulfillment'], message: 'Invalid fulfillment order line item quantity requested.' },
        ]);
      }
      takes.set(line, quantity);
    }
    const unknown = request.fulfillmentOrderLineItems?.find(
      (l) => !fo.lineItems.some((line) => line.id === l.id),
    );
    if (unknown) {
      return failed('fulfillment', [
        { field: ['fulfillment'], message: 'Invalid fulfillment order line item quantity requested.' },
      ]);
    }
  }
  for (const [line, quantity] of takes) (line as { remainingQuantity: number }).remainingQuantity -= quantity;
  for (const fo of fulfillmentOrders) {
    fo!.status = fo!.lineItems.every((line) => line.remainingQuantity === 0) ? 'CLOSED' : 'IN_PROGRESS';
  }
  const order = shop.orders.find((o) => o.gid === fulfillmentOrders[0]!.orderGid)!;
  const tracking = input.trackingInfo ?? {};
  const created = {
    id: gid('Fulfillment', nextBigId()),
    orderGid: order.gid,
    name: `${order.name}.${shop.fulfillments.filter((f) => f.orderGid === order.gid).length + 1}`,
    status: 'SUCCESS' as const,
    fulfillmentOrderIds: fulfillmentOrders.map((fo) => fo!.id),
    trackingInfo:
      tracking.number || tracking.url || tracking.company
        ? [{ company: tracking.company ?? null, number: tracking.number ?? null, url: tracking.url ?? null }]
        : [],
    notifyCustomer: input.notifyCustomer ?? false,
    message: message ?? null,
    createdAt: now(),
  };
  shop.fulfillments.push(created);
  const { id, name, status, trackingInfo, createdAt } = created;
  return { fulfillment: { id, name, status, trackingInfo, createdAt }, userErrors: [] };
}
