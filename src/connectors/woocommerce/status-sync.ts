import type { Stores } from '../../db/stores.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import type { ConnectionsService } from '../connections-service.ts';
import { recordUpdateNotSent, shopOrderEvent } from '../order-event.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import type { WooOperations } from './operations.ts';
import { wooAccess } from './woo-credentials.ts';

/** The order note for each status (French: the shop's customers read the customer notes). */
const NOTE_OF: Partial<Record<OrderStatus, string>> = {
  picked_up: 'Votre colis a été pris en charge par notre livreur.',
  in_transit: 'Colis en transit.',
  out_for_delivery: 'Votre colis est en cours de livraison aujourd’hui.',
  failed_attempt: 'Nous n’avons pas pu livrer votre colis ; une nouvelle tentative sera planifiée.',
  delivered: 'Votre colis a été livré.',
  returned: 'Colis retourné à l’expéditeur.',
  cancelled: 'Livraison annulée.',
};

/** The statuses the customer is told about (a customer note, e-mailed by WooCommerce). */
const CUSTOMER_STATUSES = new Set<OrderStatus>([
  'picked_up',
  'out_for_delivery',
  'delivered',
  'failed_attempt',
]);

/**
 * Delivery statuses written back to the shop for delivery orders that came from it: a private
 * note with the tracking link on creation, plus a Shipment Tracking entry when the shop runs that
 * extension (checked once: a shop without it answers 404 rest_no_route, remembered as absent); on
 * each status change a note (a customer note for the ones the customer cares about, unless the
 * brand turned notifications off); delivered sets the shop order to `completed`. The idempotent
 * calls come first and the note last, so a retry after a failure adds no second note for them.
 * A refused key breaks the link (the brand sees it) instead of retrying for nothing.
 */
export function wooStatusSync(deps: {
  stores: Pick<Stores, 'connectorSync' | 'connections'>;
  connections: ConnectionsService;
  operations: WooOperations;
  carrierName: string;
}) {
  const sync = deps.stores.connectorSync;
  const { operations } = deps;

  return {
    /** The job gave up on this event: the brand sees that the shop missed this update. */
    recordFailure: (eventId: string, reason: string): Promise<void> =>
      recordUpdateNotSent(sync, eventId, 'WooCommerce', reason, new Date()),

    /**
     * `rerun`: this event's job ran before (a failed attempt, or a worker killed mid-job): its note
     * may already be on the order, so it is looked for first — a note, unlike the tracking entry
     * and the status, is not idempotent, and a customer note is e-mailed.
     */
    async handle(eventId: string, options: { rerun?: boolean } = {}): Promise<string> {
      const found = await shopOrderEvent(
        { sync, connections: deps.connections },
        eventId,
        'woocommerce',
        'WooCommerce',
      );
      if ('skip' in found) return found.skip;
      const { event, order, link, connection } = found;
      const shop = await wooAccess(deps.connections, connection);
      if (shop === null) return 'no credentials: nothing sent';
      const id = link.externalId;
      const addNote = async (text: string, toCustomer: boolean) => {
        if (options.rerun && (await operations.hasNoteSince(shop, id, text, event.at)))
          return 'note (already there)';
        await operations.addNote(shop, id, text, toCustomer);
        return 'note';
      };
      try {
        if (event.type === 'order.created') {
          const done: string[] = [];
          if (connection.syncState.shipmentTracking !== 'absent') {
            const present = await operations.addShipmentTracking(shop, id, {
              provider: deps.carrierName,
              number: order.tracking_ref,
              link: order.tracking_url,
              dateShipped: event.at.toISOString().slice(0, 10),
            });
            const known = present ? 'present' : 'absent';
            if (connection.syncState.shipmentTracking !== known)
              await deps.stores.connections.mergeSyncState(connection.id, { shipmentTracking: known });
            if (present) done.push('tracking entry');
          }
          const noted = await addNote(
            `${deps.carrierName} : livraison ${order.tracking_ref} créée. Suivi : ${order.tracking_url}`,
            false,
          );
          return [...done, noted].join(' + ');
        }
        const note = NOTE_OF[order.status];
        if (!note) return `nothing for ${order.status}`;
        if (order.status === 'delivered') await operations.setOrderStatus(shop, id, 'completed');
        const toCustomer = connection.notifyCustomer && CUSTOMER_STATUSES.has(order.status);
        const noted = await addNote(
          `${note} Suivi ${order.tracking_ref} : ${order.tracking_url}`,
          toCustomer,
        );
        return `${order.status === 'delivered' ? 'completed + ' : ''}${toCustomer ? 'customer ' : ''}${noted} ${order.status}`;
      } catch (err) {
        if (isShopApiFailure(err, 'unauthorized')) {
          await deps.connections.markBroken(
            connection.id,
            'WooCommerce refused the API key (401): connect the shop again',
          );
          return 'link broken: key refused';
        }
        throw err;
      }
    },
  };
}
