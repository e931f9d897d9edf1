import type { Stores } from '../../db/stores.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { CredentialCipher } from '../credentials.ts';
import { recordUpdateNotSent, shopOrderEvent } from '../order-event.ts';
import { openCredentials } from './shop-credentials.ts';
import type { PrestaShopShopHealth } from './shop-health.ts';
import { listOf, oneOf, readShopSettings } from './shop-settings.ts';
import { type PrestaShopWebservice, toPrestaShopXml } from './webservice-client.ts';

/**
 * Statuses pushed back to the shop through its Webservice, for delivery orders that came from it:
 * on creation our tracking number into the order's `order_carriers` row (GET it, PUT it back whole:
 * PUT replaces the object), and on delivery an `order_histories` entry moving the order to the shop's
 * "delivered" state, with `sendemail=1` when the link notifies customers (the state's own e-mail). The shop down: thrown, the job retries with backoff, and the link says so until
 * a call goes through. The key refused (401): the link is broken, the brand told.
 */
export function prestashopStatusSync(deps: {
  stores: Pick<Stores, 'connectorSync' | 'connections' | 'prestashopShops'>;
  connections: ConnectionsService;
  cipher: CredentialCipher;
  ws: PrestaShopWebservice;
  health: PrestaShopShopHealth;
  clock: () => Date;
}) {
  const { stores, ws } = deps;
  const sync = stores.connectorSync;

  async function writeTracking(
    url: string,
    key: string,
    orderId: string,
    trackingRef: string,
  ): Promise<string> {
    const rows = listOf(
      await ws.get(url, key, 'order_carriers', { display: 'full', 'filter[id_order]': `[${orderId}]` }),
      'order_carriers',
    );
    const row = rows[0];
    if (!row) return 'no order_carrier row: nothing to write';
    if (row.tracking_number === trackingRef) return 'tracking number already set';
    await ws.put(
      url,
      key,
      `order_carriers/${Number(row.id)}`,
      toPrestaShopXml('order_carrier', { ...row, tracking_number: trackingRef }),
    );
    return `tracking number set on order_carrier ${row.id}`;
  }

  async function markDelivered(
    url: string,
    key: string,
    connectionId: string,
    orderId: string,
    notifyCustomer: boolean,
  ): Promise<string> {
    let stateId = (await stores.prestashopShops.find(connectionId))?.deliveredStateId ?? null;
    if (stateId === null) {
      stateId = (await readShopSettings(ws, url, key)).deliveredStateId;
      if (stateId === null) return 'the shop has no "delivered" state: nothing written';
      await stores.prestashopShops.setDeliveredState(connectionId, stateId);
    }
    const order = oneOf(
      await ws.get(url, key, `orders/${orderId}`, { display: '[id,current_state]' }),
      'orders',
      'order',
    );
    // Already there (a retry after a lost answer, or the merchant was quicker): no second history row.
    if (String(order?.current_state) === String(stateId)) return 'already delivered in the shop';
    await ws.post(
      url,
      key,
      'order_histories',
      toPrestaShopXml('order_history', { id_order: orderId, id_order_state: stateId }),
      // OrderHistory::addWs sends the state's e-mail (per its settings) only when asked to.
      notifyCustomer ? { sendemail: '1' } : {},
    );
    return `order state ${stateId} (delivered) added`;
  }

  return {
    /** The job gave up on this event: the brand sees that the shop missed this update. */
    recordFailure: (eventId: string, reason: string): Promise<void> =>
      recordUpdateNotSent(sync, eventId, 'PrestaShop', reason, deps.clock()),

    async handle(eventId: string): Promise<string> {
      const found = await shopOrderEvent(
        { sync, connections: deps.connections },
        eventId,
        'prestashop',
        'PrestaShop',
      );
      if ('skip' in found) return found.skip;
      const { event, order, link, connection } = found;
      const key = (await openCredentials(stores, deps.cipher, connection.id))?.key ?? null;
      if (key === null) return 'no Webservice key: nothing sent';
      try {
        let outcome = `nothing to send for ${order.status}`;
        if (event.type === 'order.created')
          outcome = await writeTracking(connection.shop, key, link.externalId, order.tracking_ref);
        else if (order.status === 'delivered')
          outcome = await markDelivered(
            connection.shop,
            key,
            connection.id,
            link.externalId,
            connection.notifyCustomer,
          );
        await deps.health.succeeded(connection);
        return outcome;
      } catch (err) {
        if (await deps.health.failed(connection, err)) return 'link broken: key refused';
        throw err;
      }
    },
  };
}
