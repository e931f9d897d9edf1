import type { Stores, Transact } from '../../db/stores.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import { AppError } from '../../errors.ts';
import type { Connection, ProblemDetails, ProblemKind } from '../connection.ts';
import { connectorOrderSync } from '../order-sync.ts';
import { mapPaidOrder, type ShopOrderRef, shopOrderRef } from './order-mapping.ts';
import { parseShopifyJson, toGid } from './shopify-json.ts';

/** The topics we act on; anything else is stored and marked ignored. */
const ORDER_TOPICS = new Set(['orders/paid', 'orders/cancelled']);

/** A webhook whose signature the receiving route has checked (X-Shopify-Hmac-Sha256). */
export interface ReceivedWebhook {
  /** From X-Shopify-Shop-Domain, validated. */
  shop: string;
  topic: unknown;
  webhookId: unknown;
  rawBody: Buffer;
}

const header = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * Shopify's webhooks: received (signature checked, stored once per delivery id, a job enqueued in
 * the same statement: the answer goes back at once) and then processed by that job.
 */
export function shopifyWebhookInbox(deps: {
  stores: Pick<Stores, 'connections' | 'connectorSync' | 'brands'>;
  transact: Transact;
  orders: OrderService;
  clock: () => Date;
  /** The job that processes a stored webhook (src/jobs/shopify-process-webhook.ts). */
  processJob: string;
  /** CARRIER_NAME: our carrier service's name on shops linked before it was recorded per link. */
  carrierName: string;
  onChanged: () => void;
}) {
  const { stores, clock } = deps;
  const sync = stores.connectorSync;

  const shared = connectorOrderSync({ stores, transact: deps.transact, orders: deps.orders, clock });
  const toRef = (ref: ShopOrderRef | null) => (ref ? { externalId: ref.gid, name: ref.name } : null);
  const problem = (
    connection: Connection,
    ref: ShopOrderRef | null,
    kind: ProblemKind,
    message: string,
    details: ProblemDetails = {},
  ) => shared.problem(connection, toRef(ref), kind, message, details);

  async function orderPaid(connection: Connection, payload: unknown): Promise<string> {
    // Shopify reports a carrier-calculated rate under its carrier service's name: the one we
    // registered on this shop (CARRIER_NAME may have changed since).
    const carrierName = connection.remoteIds.carrierServiceName ?? deps.carrierName;
    const mapped = mapPaidOrder(payload, connection.orderFilter, carrierName);
    if (mapped === null) return 'ignored: no order id';
    if (mapped.kind === 'skip') return `skipped: ${mapped.reason}`;
    if (mapped.kind === 'problem')
      return problem(connection, mapped.ref, mapped.problem, mapped.message, mapped.details);
    return shared.create(connection, toRef(mapped.ref)!, mapped.input);
  }

  async function orderCancelled(connection: Connection, payload: unknown): Promise<string> {
    const ref = shopOrderRef(payload);
    if (ref === null) return 'ignored: no order id';
    return shared.cancel(connection, toRef(ref)!);
  }

  /** customers/redact and customers/data_request name orders by numeric id; we keep gids. */
  function orderGids(payload: unknown): string[] {
    const ids = (payload as { orders_to_redact?: unknown; orders_requested?: unknown }) ?? {};
    const list = [ids.orders_to_redact, ids.orders_requested].find(Array.isArray) ?? [];
    return list.map((id) => toGid('Order', id)).filter((gid): gid is string => gid !== null);
  }

  async function process(topic: string, shop: string, connection: Connection | null, payload: unknown) {
    if (topic === 'shop/redact') {
      await sync.eraseShop('shopify', shop);
      return { outcome: 'erased the shop’s data', erase: true };
    }
    if (topic === 'customers/redact') {
      await sync.eraseOrders('shopify', shop, orderGids(payload));
      return { outcome: 'erased the customer’s data', erase: true };
    }
    if (connection === null) return { outcome: 'ignored: shop never linked', erase: false };
    if (topic === 'customers/data_request') {
      const customer = (payload as { customer?: { id?: unknown } }).customer;
      const orders = orderGids(payload);
      const outcome = await problem(
        connection,
        null,
        'data_request',
        `Customer ${toGid('Customer', customer?.id) ?? '(unknown)'} asked for their data (orders: ${
          orders.join(', ') || 'none named'
        }). Answer within 30 days; the request is kept in the connector inbox.`,
        {
          code: 'customer_data_request',
          customer: toGid('Customer', customer?.id) ?? '?',
          orders: orders.join(', ') || '—',
        },
      );
      return { outcome, erase: false };
    }
    if (topic === 'app/uninstalled') {
      if (connection.status !== 'disconnected') {
        // The token is already void: nothing to remove on the shop's side.
        await stores.connections.disconnect(connection.id, 'app uninstalled from the shop', clock());
        deps.onChanged();
      }
      return { outcome: 'disconnected', erase: true };
    }
    if (!ORDER_TOPICS.has(topic)) return { outcome: `ignored topic ${topic}`, erase: false };
    // A broken link (the shop refused our token) still receives paid orders: the customer paid for
    // a delivery, and creating it needs no call to Shopify; only the tracking push back does.
    if (connection.status === 'disconnected') return { outcome: 'ignored: link disconnected', erase: false };
    const outcome =
      topic === 'orders/paid'
        ? await orderPaid(connection, payload)
        : await orderCancelled(connection, payload);
    return { outcome, erase: false };
  }

  return {
    /**
     * Stores a signed delivery and enqueues its processing; true when new, false when already
     * stored (Shopify retrying the same X-Shopify-Webhook-Id).
     */
    async receive(webhook: ReceivedWebhook): Promise<boolean> {
      const { shop } = webhook;
      const topic = header(webhook.topic);
      const deliveryId = header(webhook.webhookId);
      if (topic === null) throw new AppError('invalid_request', 'X-Shopify-Topic: is required');
      if (deliveryId === null || deliveryId.length > 200)
        throw new AppError('invalid_request', 'X-Shopify-Webhook-Id: is required (at most 200 characters)');
      const payload = webhook.rawBody.toString('utf8');
      let externalOrderId: string | null = null;
      if (ORDER_TOPICS.has(topic)) {
        try {
          externalOrderId = shopOrderRef(parseShopifyJson(payload))?.gid ?? null;
        } catch {
          // Stored anyway: the job records what was wrong with it.
        }
      }
      const id = await sync.receive(
        { platform: 'shopify', deliveryId, shop, topic, externalOrderId, payload, at: clock() },
        deps.processJob,
      );
      return id !== null;
    },

    /** The job's work for one stored webhook; safe to run twice. Returns what was done. */
    async process(inboxId: number): Promise<string> {
      const entry = await sync.findInbox(inboxId);
      if (!entry) return 'gone';
      if (entry.processedAt) return `already processed: ${entry.outcome}`;
      const connection = await stores.connections.findByShop('shopify', entry.shop);
      let payload: unknown = {};
      try {
        payload = entry.payload === null ? {} : parseShopifyJson(entry.payload);
      } catch {
        await sync.markProcessed(entry.id, 'ignored: the payload is not JSON', clock());
        return 'ignored: the payload is not JSON';
      }
      const { outcome, erase } = await process(entry.topic, entry.shop, connection, payload);
      await sync.markProcessed(entry.id, outcome, clock(), erase);
      return outcome;
    },
  };
}
