import type { Stores } from '../../db/stores.ts';
import type { Connection } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { ConnectorOrderSync as OrderIntake } from '../order-sync.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import type { WooOperations, WooShopAccess } from './operations.ts';
import { mapWooOrder, type WooOrder, wooLoad, wooOrderRef } from './order-mapping.ts';
import { wooAccess } from './woo-credentials.ts';
import { gmt } from './woo-dates.ts';

/** The shop status of a paid order waiting to be shipped. */
const PAID_STATUS = 'processing';

/**
 * WooCommerce orders into the connectors' inbox, then into delivery orders. A webhook and the
 * poll store the same thing: the order's state, keyed by (link, order, date_modified_gmt, status),
 * so that state is stored once whichever arrives first (WooCommerce's X-WC-Webhook-Delivery-ID is a
 * hash of the webhook id and the current second: not one per event), and each stored state is
 * processed by one job. The job acts on the order as the shop has it when it runs.
 */
export function wooOrderSync(deps: {
  stores: Pick<Stores, 'connections' | 'connectorSync'>;
  connections: ConnectionsService;
  operations: WooOperations;
  intake: OrderIntake;
  clock: () => Date;
  /** The job that processes a stored order state (src/jobs/woocommerce-process-order.ts). */
  processJob: string;
}) {
  const { stores, clock, operations, intake } = deps;
  const sync = stores.connectorSync;

  /** The delivery order's load: each line's product weight in the store's unit. */
  async function loadOf(shop: WooShopAccess, order: WooOrder) {
    const lines = order.line_items ?? [];
    const gramsPerUnit = await operations.gramsPerWeightUnit(shop);
    const weights = new Map<string, string | null>();
    for (const line of lines) {
      const product = Number(line.product_id) || 0;
      const variation = Number(line.variation_id) || 0;
      const key = `${product}/${variation}`;
      if (product > 0 && !weights.has(key))
        weights.set(key, await operations.productWeight(shop, product, variation));
    }
    return wooLoad(
      lines,
      (l) => weights.get(`${Number(l.product_id) || 0}/${Number(l.variation_id) || 0}`) ?? null,
      gramsPerUnit,
    );
  }

  async function intakeOrder(connection: Connection, shop: WooShopAccess, stored: WooOrder): Promise<string> {
    const ref = wooOrderRef(stored);
    if (ref === null) return 'ignored: no order id';
    const externalRef = { externalId: ref.id, name: ref.name };
    if (stored.status === 'cancelled') return intake.cancel(connection, externalRef);
    const wanted = [PAID_STATUS, ...connection.extraStatuses];
    if (!wanted.includes(stored.status ?? '')) return `ignored: status ${stored.status}`;
    if (await intake.isLinked(connection, ref.id)) return 'duplicate: already linked';
    // Jobs may run out of order: the order as it is now decides (cancelled since, address changed…).
    const order = await operations.getOrder(shop, ref.id);
    if (order.status === 'cancelled') return intake.cancel(connection, externalRef);
    if (!wanted.includes(order.status ?? '')) return `ignored: status now ${order.status}`;
    const mapped = mapWooOrder(order, connection.orderFilter);
    if (mapped === null) return 'ignored: no order id';
    if (mapped.kind === 'skip') return `skipped: ${mapped.reason}`;
    if (mapped.kind === 'problem')
      return intake.problem(connection, externalRef, mapped.problem, mapped.message);
    return intake.create(connection, externalRef, { ...mapped.input, ...(await loadOf(shop, order)) });
  }

  return {
    /**
     * Stores one order state (a webhook's body or a polled order) and enqueues its processing, in
     * one statement; false when that state was stored already.
     */
    async store(connection: Connection, order: WooOrder, payload: string, topic: string): Promise<boolean> {
      const ref = wooOrderRef(order);
      if (ref === null) return false;
      const deliveryId = [connection.id, ref.id, order.date_modified_gmt ?? '', order.status ?? ''].join(':');
      const id = await sync.receive(
        {
          platform: 'woocommerce',
          deliveryId: deliveryId.slice(0, 200),
          shop: connection.shop,
          topic,
          externalOrderId: ref.id,
          payload,
          at: clock(),
        },
        deps.processJob,
      );
      return id !== null;
    },

    /** The job gave up (the shop unreachable for hours): the brand sees which order was not taken. */
    async recordFailure(inboxId: number, reason: string): Promise<void> {
      const entry = await sync.findInbox(inboxId);
      const connection = entry ? await stores.connections.findByShop('woocommerce', entry.shop) : null;
      if (!entry || !connection) return;
      await intake.problem(
        connection,
        entry.externalOrderId
          ? { externalId: entry.externalOrderId, name: `#${entry.externalOrderId}` }
          : null,
        'sync_failed',
        `Could not take the shop's order ${entry.externalOrderId ?? ''}: ${reason}. The next poll will try again.`,
      );
      // Forgotten, and the poll's mark moved back before it: the next poll that reaches the shop
      // stores this state again and it gets a new run of attempts.
      await sync.forgetInbox(entry.id);
      const modified = (() => {
        try {
          return (JSON.parse(entry.payload ?? '{}') as WooOrder).date_modified_gmt ?? null;
        } catch {
          return null;
        }
      })();
      if (typeof modified === 'string' && Date.parse(`${modified}Z`) > 0)
        await stores.connections.rewindCursor(
          connection.id,
          gmt(new Date(Date.parse(`${modified}Z`) - 1000)),
        );
    },

    /** The job's work for one stored state; safe to run twice. Throws to be retried (shop down). */
    async process(inboxId: number): Promise<string> {
      const entry = await sync.findInbox(inboxId);
      if (!entry) return 'gone';
      if (entry.processedAt) return `already processed: ${entry.outcome}`;
      const finish = async (outcome: string) => {
        await sync.markProcessed(entry.id, outcome, clock());
        return outcome;
      };
      const connection = await stores.connections.findByShop('woocommerce', entry.shop);
      if (connection?.status !== 'active') return finish(`ignored: link ${connection?.status ?? 'missing'}`);
      let order: WooOrder;
      try {
        order = JSON.parse(entry.payload ?? '{}') as WooOrder;
      } catch {
        return finish('ignored: the payload is not JSON');
      }
      const shop = await wooAccess(deps.connections, connection);
      if (shop === null) return finish('ignored: no credentials');
      try {
        return finish(await intakeOrder(connection, shop, order));
      } catch (err) {
        if (isShopApiFailure(err, 'unauthorized')) {
          await deps.connections.markBroken(
            connection.id,
            `WooCommerce refused the API key (401): connect the shop again`,
          );
          return finish('link broken: key refused');
        }
        if (isShopApiFailure(err, 'request_failed')) {
          const ref = wooOrderRef(order);
          return finish(
            await intake.problem(
              connection,
              ref ? { externalId: ref.id, name: ref.name } : null,
              'sync_failed',
              `Could not read the order from the shop: ${err.message}`,
            ),
          );
        }
        throw err;
      }
    },
  };
}

export type WooOrderSync = ReturnType<typeof wooOrderSync>;
