import type { RemoteIds } from '../connection.ts';
import { isShopApiFailure, ShopApiError } from '../shop-api-error.ts';
import type { ShopifyAdminClient } from './admin-client.ts';

/** The topics a link subscribes to by API; the privacy topics are set in the app's configuration. */
const SUBSCRIBED_TOPICS = ['ORDERS_PAID', 'ORDERS_CANCELLED', 'APP_UNINSTALLED'] as const;

/** Our fulfillment event statuses (Shopify's FulfillmentEventStatus enum values we send). */
export type FulfillmentEventStatus =
  | 'CARRIER_PICKED_UP'
  | 'IN_TRANSIT'
  | 'OUT_FOR_DELIVERY'
  | 'ATTEMPTED_DELIVERY'
  | 'DELIVERED'
  | 'FAILURE';

interface UserError {
  field?: string[] | null;
  message: string;
}

function checkUserErrors(operation: string, errors: UserError[] | undefined): void {
  if (errors && errors.length > 0)
    throw new ShopApiError(
      'shopify',
      'request_failed',
      `${operation}: ${errors.map((e) => e.message).join('; ')}`.slice(0, 500),
    );
}

const WEBHOOK_SUBSCRIPTION_CREATE = `mutation webhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic }
    userErrors { field message }
  }
}`;

const CARRIER_SERVICE_CREATE = `mutation carrierServiceCreate($input: DeliveryCarrierServiceCreateInput!) {
  carrierServiceCreate(input: $input) {
    carrierService { id name callbackUrl active }
    userErrors { field message }
  }
}`;

const WEBHOOK_SUBSCRIPTION_DELETE = `mutation webhookSubscriptionDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } }
}`;

const CARRIER_SERVICE_DELETE = `mutation carrierServiceDelete($id: ID!) {
  carrierServiceDelete(id: $id) { deletedId userErrors { field message } }
}`;

// Its fulfillments too: one we made whose answer never reached us (a crash, a cut connection) is
// only found there, its fulfillment orders being closed by then.
const FULFILLMENT_STATE = `query fulfillmentState($id: ID!) {
  order(id: $id) {
    fulfillmentOrders(first: 10) { nodes { id status } }
    fulfillments(first: 20) { id status trackingInfo { number } }
  }
}`;

const FULFILLMENT_CREATE = `mutation fulfillmentCreate($fulfillment: FulfillmentInput!, $message: String) {
  fulfillmentCreate(fulfillment: $fulfillment, message: $message) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

const FULFILLMENT_EVENT_CREATE = `mutation fulfillmentEventCreate($fulfillmentEvent: FulfillmentEventInput!) {
  fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
    fulfillmentEvent { id status }
    userErrors { field message }
  }
}`;

/** Fulfillment orders we may fulfil: the others are closed, cancelled, on hold or someone else's. */
const FULFILLABLE = new Set(['OPEN', 'IN_PROGRESS']);

/** The Admin GraphQL operations the connector makes, each checking its `userErrors`. */
export function shopifyOperations(client: ShopifyAdminClient) {
  const operations = {
    /**
     * What linking a shop registers: the webhooks, then the carrier service. A webhook refused
     * undoes what was registered (so linking again starts clean) and throws; a carrier service
     * refused (the shop's plan lacks carrier-calculated shipping) is a warning: orders and
     * tracking work without live rates.
     */
    async register(
      shop: string,
      token: string,
      urls: { webhooks: string; rates: string; carrierName: string },
    ): Promise<{ remoteIds: RemoteIds; warnings: string[] }> {
      const webhookSubscriptions: string[] = [];
      try {
        for (const topic of SUBSCRIBED_TOPICS) {
          const data = await client.graphql<{
            webhookSubscriptionCreate: {
              webhookSubscription: { id: string } | null;
              userErrors: UserError[];
            };
          }>(shop, token, WEBHOOK_SUBSCRIPTION_CREATE, {
            topic,
            // `uri` since 2025-10 (SHOPIFY_API_VERSION), where `callbackUrl` is deprecated.
            webhookSubscription: { uri: urls.webhooks, format: 'JSON' },
          });
          checkUserErrors(`webhookSubscriptionCreate ${topic}`, data.webhookSubscriptionCreate.userErrors);
          const id = data.webhookSubscriptionCreate.webhookSubscription?.id;
          if (id) webhookSubscriptions.push(id);
        }
      } catch (err) {
        await operations.unregister(shop, token, { webhookSubscriptions });
        throw err;
      }
      const warnings: string[] = [];
      let carrierService: string | undefined;
      try {
        const data = await client.graphql<{
          carrierServiceCreate: { carrierService: { id: string } | null; userErrors: UserError[] };
        }>(shop, token, CARRIER_SERVICE_CREATE, {
          input: {
            name: urls.carrierName,
            callbackUrl: urls.rates,
            active: true,
            supportsServiceDiscovery: true,
          },
        });
        checkUserErrors('carrierServiceCreate', data.carrierServiceCreate.userErrors);
        carrierService = data.carrierServiceCreate.carrierService?.id;
      } catch (err) {
        if (!isShopApiFailure(err, 'request_failed')) {
          await operations.unregister(shop, token, { webhookSubscriptions });
          throw err;
        }
        warnings.push(
          `Live rates at checkout are not available on this shop (${err.message}); carrier-calculated shipping needs the Advanced plan, or the Shopify plan billed yearly or with the add-on.`,
        );
      }
      return {
        remoteIds: {
          webhookSubscriptions,
          ...(carrierService ? { carrierService, carrierServiceName: urls.carrierName } : {}),
        },
        warnings,
      };
    },

    /** Best effort on disconnect: what fails here is gone anyway once the app is uninstalled. */
    async unregister(shop: string, token: string, ids: RemoteIds): Promise<string[]> {
      const failures: string[] = [];
      const calls = [
        ...(ids.webhookSubscriptions ?? []).map((id) => [WEBHOOK_SUBSCRIPTION_DELETE, id] as const),
        ...(ids.carrierService ? [[CARRIER_SERVICE_DELETE, ids.carrierService] as const] : []),
      ];
      for (const [mutation, id] of calls) {
        try {
          await client.graphql(shop, token, mutation, { id });
        } catch (err) {
          failures.push(`${id}: ${(err as Error).message}`);
          // A refused token or an unreachable shop will not take the next call either.
          if (isShopApiFailure(err, 'unauthorized') || isShopApiFailure(err, 'retry_later')) break;
        }
      }
      return failures;
    },

    /**
     * The order's fulfillment orders still open for fulfilment, and the fulfillment (not
     * cancelled) carrying `trackingNumber`, if any.
     */
    async fulfillmentState(
      shop: string,
      token: string,
      orderGid: string,
      trackingNumber: string,
    ): Promise<{ open: string[]; existing: string | null }> {
      const data = await client.graphql<{
        order: {
          fulfillmentOrders: { nodes: { id: string; status: string }[] };
          fulfillments: { id: string; status: string; trackingInfo: { number: string | null }[] }[];
        } | null;
      }>(shop, token, FULFILLMENT_STATE, { id: orderGid });
      if (!data.order)
        throw new ShopApiError('shopify', 'request_failed', `order ${orderGid} not found on ${shop}`);
      const ours = data.order.fulfillments.find(
        (f) => f.status !== 'CANCELLED' && f.trackingInfo.some((t) => t.number === trackingNumber),
      );
      return {
        open: data.order.fulfillmentOrders.nodes.filter((n) => FULFILLABLE.has(n.status)).map((n) => n.id),
        existing: ours?.id ?? null,
      };
    },

    async createFulfillment(
      shop: string,
      token: string,
      input: {
        fulfillmentOrderIds: string[];
        tracking: { company: string; number: string; url: string };
        notifyCustomer: boolean;
      },
    ): Promise<string> {
      const data = await client.graphql<{
        fulfillmentCreate: { fulfillment: { id: string } | null; userErrors: UserError[] };
      }>(shop, token, FULFILLMENT_CREATE, {
        fulfillment: {
          lineItemsByFulfillmentOrder: input.fulfillmentOrderIds.map((fulfillmentOrderId) => ({
            fulfillmentOrderId,
          })),
          trackingInfo: input.tracking,
          notifyCustomer: input.notifyCustomer,
        },
      });
      checkUserErrors('fulfillmentCreate', data.fulfillmentCreate.userErrors);
      const id = data.fulfillmentCreate.fulfillment?.id;
      if (!id)
        throw new ShopApiError('shopify', 'request_failed', 'fulfillmentCreate returned no fulfillment');
      return id;
    },

    async createFulfillmentEvent(
      shop: string,
      token: string,
      event: {
        fulfillmentId: string;
        status: FulfillmentEventStatus;
        happenedAt: string;
        estimatedDeliveryAt: string | null;
        message?: string;
      },
    ): Promise<void> {
      const data = await client.graphql<{ fulfillmentEventCreate: { userErrors: UserError[] } }>(
        shop,
        token,
        FULFILLMENT_EVENT_CREATE,
        {
          fulfillmentEvent: {
            fulfillmentId: event.fulfillmentId,
            status: event.status,
            happenedAt: event.happenedAt,
            ...(event.estimatedDeliveryAt ? { estimatedDeliveryAt: event.estimatedDeliveryAt } : {}),
            ...(event.message ? { message: event.message } : {}),
          },
        },
      );
      checkUserErrors('fulfillmentEventCreate', data.fulfillmentEventCreate.userErrors);
    },
  };
  return operations;
}

export type ShopifyOperations = ReturnType<typeof shopifyOperations>;
