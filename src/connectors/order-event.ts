import type { OrderLink } from '../db/repositories/connector-sync-repository.ts';
import type { Stores } from '../db/stores.ts';
import type { OrderJson } from '../domain/orders/order-json.ts';
import type { Connection, Platform } from './connection.ts';
import type { ConnectionsService } from './connections-service.ts';

/** An outbox event about a delivery order that came from a shop of `platform`, with its link. */
export interface ShopOrderEvent {
  event: { type: 'order.created' | 'order.status_changed'; brandId: string; data: unknown; at: Date };
  order: OrderJson;
  link: OrderLink;
  connection: Connection;
}

/**
 * What every connector's status job reads first: the event, its order, and the shop link the order
 * came from — or why there is nothing to send (the connectors listen per brand, and a brand may link
 * shops of several platforms, or create orders by API too).
 */
export async function shopOrderEvent(
  deps: { sync: Stores['connectorSync']; connections: ConnectionsService },
  eventId: string,
  platform: Platform,
  platformName: string,
): Promise<ShopOrderEvent | { skip: string }> {
  const event = await deps.sync.findEvent(eventId);
  if (!event || (event.type !== 'order.created' && event.type !== 'order.status_changed'))
    return { skip: 'not an order event' };
  const order = (event.data as { order: OrderJson }).order;
  const link = await deps.sync.findLinkByTrackingRef(order.tracking_ref);
  if (!link) return { skip: 'not a shop order' };
  const connection = await deps.connections.get(null, link.connectionId);
  if (connection.platform !== platform) return { skip: `not a ${platformName} order` };
  if (connection.status !== 'active') return { skip: `link ${connection.status}: nothing sent` };
  return { event: { ...event, type: event.type }, order, link, connection };
}

/**
 * A connector's status job gave up on an event: the brand sees, as a sync problem, that the shop
 * missed this update of the order. Nothing when the event or its shop link is gone.
 */
export async function recordUpdateNotSent(
  sync: Stores['connectorSync'],
  eventId: string,
  platformName: string,
  reason: string,
  at: Date,
): Promise<void> {
  const event = await sync.findEvent(eventId);
  const order = (event?.data as { order?: OrderJson } | undefined)?.order;
  const link = order ? await sync.findLinkByTrackingRef(order.tracking_ref) : null;
  if (!link || !event || !order) return;
  await sync.recordProblem({
    connectionId: link.connectionId,
    brandId: event.brandId,
    kind: 'sync_failed',
    externalId: link.externalId,
    externalName: link.externalName,
    message: `Could not send ${event.type} (${order.status}) of ${order.tracking_ref} to ${platformName}: ${reason}`,
    details: { code: 'update_not_sent', tracking_ref: order.tracking_ref, status: order.status },
    at,
  });
}
