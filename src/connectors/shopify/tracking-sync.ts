import type { OrderLink } from '../../db/repositories/connector-sync-repository.ts';
import type { Stores } from '../../db/stores.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import type { ConnectionsService } from '../connections-service.ts';
import { recordUpdateNotSent, shopOrderEvent } from '../order-event.ts';
import { ShopifyRetryLater, ShopifyUnauthorized } from './admin-client.ts';
import type { FulfillmentEventStatus, ShopifyOperations } from './operations.ts';

/** The tracking sync's job queues, one per delivery order: `shopify:<tracking ref>`. */
export const SHOPIFY_QUEUE_PREFIX = 'shopify';

/** Our statuses as Shopify fulfillment events; the others (pending…) have none. */
export const FULFILLMENT_EVENT_OF: Partial<Record<OrderStatus, FulfillmentEventStatus>> = {
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
 * Tracking pushed back to the shop, for delivery orders that came from it: on creation a
 * fulfillment carrying our tracking number and page; on each status change a fulfillment event.
 * Throws ShopifyRetryLater when the job should run again later; a refused token breaks the link
 * (the brand sees it) instead of retrying for nothing.
 */
export function shopifyTrackingSync(deps: {
  stores: Pick<Stores, 'connectorSync'>;
  connections: ConnectionsService;
  operations: ShopifyOperations;
  carrierName: string;
}) {
  const sync = deps.stores.connectorSync;

  /**
   * Our fulfillment on the shop when we have none recorded: one made by an earlier run whose
   * answer never reached us (found by our tracking number) is adopted, never made twice. Null with
   * the fulfillment orders still open to us, or none left.
   */
  async function adoptOrFind(shop: string, token: string, link: OrderLink) {
    const state = await deps.operations.fulfillmentState(shop, token, link.externalId, link.trackingRef);
    if (state.existing) await sync.setFulfillment(link.connectionId, link.externalId, state.existing);
    return state;
  }

  /**
   * A status changed before the order has our fulfillment recorded: it may exist already (adopted),
   * the order.created job may still be waiting for Shopify (try again later), or the shop's order
   * has nothing left for us to fulfil (cancelled or fulfilled otherwise): then none will ever come.
   */
  async function fulfillmentToCome(shop: string, token: string, link: OrderLink): Promise<string | null> {
    const { open, existing } = await adoptOrFind(shop, token, link);
    if (existing) return existing;
    // Made meanwhile (its fulfillment orders are then closed): read the link again.
    const now = await sync.findLink(link.connectionId, link.externalId);
    if (now?.fulfillmentId) return now.fulfillmentId;
    if (open.length === 0) return null;
    throw new ShopifyRetryLater('the fulfillment is not created yet', null);
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
      const token = await deps.connections.tokenOf(connection);
      if (token === null) return 'no credentials: nothing sent';
      const { shop } = connection;
      try {
        if (event.type === 'order.created') {
          if (link.fulfillmentId) return `fulfillment ${link.fulfillmentId} exists`;
          const { open: fulfillmentOrderIds, existing } = await adoptOrFind(shop, token, link);
          if (existing) return `fulfillment ${existing} adopted`;
          if (fulfillmentOrderIds.length === 0) return 'no open fulfillment order: nothing to fulfil';
          const fulfillmentId = await deps.operations.createFulfillment(shop, token, {
            fulfillmentOrderIds,
            tracking: { company: deps.carrierName, number: order.tracking_ref, url: order.tracking_url },
            notifyCustomer: connection.notifyCustomer,
          });
          await sync.setFulfillment(link.connectionId, link.externalId, fulfillmentId);
          return `fulfillment ${fulfillmentId} created`;
        }
        const status = FULFILLMENT_EVENT_OF[order.status];
        if (!status) return `no event for ${order.status}`;
        const fulfillmentId = link.fulfillmentId ?? (await fulfillmentToCome(shop, token, link));
        if (fulfillmentId === null) return 'no fulfillment on the shop: nothing to send';
        await deps.operations.createFulfillmentEvent(shop, token, {
          fulfillmentId,
          status,
          happenedAt: event.at.toISOString(),
          estimatedDeliveryAt: order.status === 'delivered' ? null : estimatedDelivery(order.promised_date),
          ...(order.status === 'cancelled' ? { message: 'Delivery cancelled' } : {}),
        });
        return `event ${status} sent`;
      } catch (err) {
        if (err instanceof ShopifyUnauthorized) {
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

export type ShopifyTrackingSync = ReturnType<typeof shopifyTrackingSync>;
