import type { OrderLink } from '../../db/repositories/connector-sync-repository.ts';
import type { Stores } from '../../db/stores.ts';
import type { OrderJson } from '../../domain/orders/order-json.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import type { ConnectionsService } from '../connections-service.ts';
import { recordUpdateNotSent, shopOrderEvent } from '../order-event.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import type { FulfillmentEventStatus, ShopifyOperations } from './operations.ts';

/** The tracking sync's job queues, one per delivery order: `shopify:<tracking ref>`. */
export const SHOPIFY_QUEUE_PREFIX = 'shopify';

/** Our statuses as Shopify fulfillment events; the others (pending…) have none. */
const FULFILLMENT_EVENT_OF: Partial<Record<OrderStatus, FulfillmentEventStatus>> = {
  picked_up: 'CARRIER_PICKED_UP',
  in_transit: 'IN_TRANSIT',
  out_for_delivery: 'OUT_FOR_DELIVERY',
  failed_attempt: 'ATTEMPTED_DELIVERY',
  delivered: 'DELIVERED',
  returned: 'FAILURE',
  cancelled: 'FAILURE',
};

/** The promised Paris day as an instant: 16:00 UTC is the end of the round (17:00 or 18:00 in Paris). */
const estimatedDelivery = (day: string | null) => (day ? `${day}T16:00:00Z` : null);

/**
 * Tracking pushed back to the shop, for delivery orders that came from it. Nothing while the parcel
 * waits for pickup: a fulfillment tells Shopify (and, notified, the customer) that the order has
 * shipped, and a fulfilled order can no longer be cancelled there. So the first status past
 * `pending` makes our fulfillment (our tracking number and page, the customer notified per the
 * link's setting at that moment), and each status change is a fulfillment event on it; a delivery
 * order cancelled before pickup leaves the shop's order unfulfilled. Throws a `retry_later` ShopApiError when
 * the job should run again later; a refused token breaks the link (the brand sees it) instead of
 * retrying for nothing.
 */
export function shopifyTrackingSync(deps: {
  stores: Pick<Stores, 'connectorSync'>;
  connections: ConnectionsService;
  operations: ShopifyOperations;
  carrierName: string;
}) {
  const sync = deps.stores.connectorSync;

  /**
   * Our fulfillment, made at pickup: one an earlier run made whose answer never reached us (found
   * by our tracking number) is adopted, never made twice; else one over the fulfillment orders
   * still open to us. Null when the shop's order has nothing left for us to fulfil (cancelled or
   * fulfilled otherwise): then none will ever come.
   */
  async function fulfil(
    shop: string,
    token: string,
    link: OrderLink,
    order: OrderJson,
    notifyCustomer: boolean,
  ): Promise<string | null> {
    const state = await deps.operations.fulfillmentState(shop, token, link.externalId, link.trackingRef);
    if (state.existing) {
      await sync.setFulfillment(link.connectionId, link.externalId, state.existing);
      return state.existing;
    }
    if (state.open.length === 0) return null;
    const fulfillmentId = await deps.operations.createFulfillment(shop, token, {
      fulfillmentOrderIds: state.open,
      tracking: { company: deps.carrierName, number: order.tracking_ref, url: order.tracking_url },
      notifyCustomer,
    });
    await sync.setFulfillment(link.connectionId, link.externalId, fulfillmentId);
    return fulfillmentId;
  }

  return {
    /** The job gave up on this event: the brand sees that the shop missed this update. */
    recordFailure: (eventId: string, reason: string): Promise<void> =>
      recordUpdateNotSent(sync, eventId, 'Shopify', reason, new Date()),

    async handle(eventId: string): Promise<string> {
      const found = await shopOrderEvent(
        { sync, connections: deps.connections },
        eventId,
        'shopify',
        'Shopify',
      );
      if ('skip' in found) return found.skip;
      const { event, order, link, connection } = found;
      // Created, waiting for its address or for pickup: nothing has shipped yet.
      const status = FULFILLMENT_EVENT_OF[order.status];
      if (!status) return `no event for ${order.status}`;
      // Cancelled before pickup, before any fulfillment: the shop's order stays unfulfilled. (An
      // order fulfilled at its creation, before fulfillments waited for pickup, still hears it.)
      if (order.status === 'cancelled' && !link.fulfillmentId)
        return 'cancelled before pickup: the shop order stays unfulfilled';
      const token = await deps.connections.tokenOf(connection);
      if (token === null) return 'no credentials: nothing sent';
      const { shop } = connection;
      try {
        const fulfillmentId =
          link.fulfillmentId ?? (await fulfil(shop, token, link, order, connection.notifyCustomer));
        if (fulfillmentId === null) return 'no open fulfillment order: nothing to send';
        await deps.operations.createFulfillmentEvent(shop, token, {
          fulfillmentId,
          status,
          happenedAt: event.at.toISOString(),
          estimatedDeliveryAt: order.status === 'delivered' ? null : estimatedDelivery(order.promised_date),
          ...(order.status === 'cancelled' ? { message: 'Delivery cancelled' } : {}),
        });
        return link.fulfillmentId
          ? `event ${status} sent`
          : `fulfillment ${fulfillmentId}, event ${status} sent`;
      } catch (err) {
        if (isShopApiFailure(err, 'unauthorized')) {
          await deps.connections.markBroken(
            connection.id,
            'Shopify refused the access token (401): link the shop again',
          );
          return 'link broken: token refused';
        }
        throw err;
      }
    },
  };
}
