import type { Stores, Transact } from '../../db/stores.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import { AppError, isAppError } from '../../errors.ts';
import type { Connection, ProblemDetails, ProblemKind } from '../connection.ts';
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

/** Our refusals of an order that make a sync problem (the brand's to fix), not a failed job. */
const PROBLEM_OF: Partial<Record<string, ProblemKind>> = {
  out_of_zone: 'out_of_zone',
  invalid_address: 'invalid_address',
  unpriceable: 'unpriceable',
  invalid_request: 'invalid_order',
};

class AlreadyLinked extends Error {}

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
  onChanged: () => void;
}) {
  const { stores, clock } = deps;
  const sync = stores.connectorSync;

  async function problem(
    connection: Connection,
    ref: ShopOrderRef | null,
    kind: ProblemKind,
    message: string,
    details: ProblemDetails = {},
  ) {
    await sync.recordProblem({
      connectionId: connection.id,
      brandId: connection.brandId,
      kind,
      externalId: ref?.gid ?? '',
      externalName: ref?.name ?? null,
      message,
      details,
      at: clock(),
    });
    return `problem ${kind}: ${message}`;
  }

  /** An order created while the link is broken: the brand must know Shopify will not hear of it. */
  function trackingNotSent(connection: Connection, ref: ShopOrderRef, trackingRef: string) {
    return problem(
      connection,
      ref,
      'sync_failed',
      `Delivery ${trackingRef} was created, but its tracking is not sent to Shopify: the shop refused our access token. Connect the shop again; the tracking of orders created meanwhile stays here.`,
      { code: 'tracking_link_broken', tracking_ref: trackingRef },
    );
  }

  async function orderPaid(connection: Connection, payload: unknown): Promise<string> {
    const mapped = mapPaidOrder(payload, connection.orderFilter);
    if (mapped === null) return 'ignored: no order id';
    if (mapped.kind === 'skip') return `skipped: ${mapped.reason}`;
    if (mapped.kind === 'problem')
      return problem(connection, mapped.ref, mapped.problem, mapped.message, mapped.details);
    const existing = await sync.findLink(connection.id, mapped.ref.gid);
    if (existing) return `duplicate: already ${existing.trackingRef}`;
    const brand = await stores.brands.findById(connection.brandId);
    if (!brand) return 'ignored: brand not found';
    let prepared: Awaited<ReturnType<OrderService['prepare']>>;
    try {
      prepared = await deps.orders.prepare(brand, mapped.input);
    } catch (err) {
      const kind = isAppError(err) ? PROBLEM_OF[err.code] : undefined;
      if (kind === undefined) throw err;
      const field = (err as AppError).details?.[0];
      const details: ProblemDetails = field
        ? { code: 'invalid_field', field: field.field, problem: field.message }
        : {};
      return problem(connection, mapped.ref, kind, (err as AppError).message, details);
    }
    try {
      const created = await deps.transact(async (tx) => {
        const order = await deps.orders.insert(prepared, tx.orders);
        const linked = await tx.connectorSync.linkOrder(
          {
            connectionId: connection.id,
            externalId: mapped.ref.gid,
            externalName: mapped.ref.name,
            orderId: order.id,
            trackingRef: order.trackingRef,
          },
          clock(),
        );
        // Another delivery of the same order won the race: this order (and its event) is rolled back.
        if (!linked) throw new AlreadyLinked();
        return order;
      });
      if (connection.status === 'broken') await trackingNotSent(connection, mapped.ref, created.trackingRef);
      return `created ${created.trackingRef}`;
    } catch (err) {
      if (err instanceof AlreadyLinked) return 'duplicate: created concurrently';
      throw err;
    }
  }

  async function orderCancelled(connection: Connection, payload: unknown): Promise<string> {
    const ref = shopOrderRef(payload);
    if (ref === null) return 'ignored: no order id';
    const link = await sync.findLink(connection.id, ref.gid);
    if (!link) return 'ignored: no delivery order for it';
    try {
      await deps.orders.cancel(connection.brandId, link.trackingRef);
      return `cancelled ${link.trackingRef}`;
    } catch (err) {
      if (!isAppError(err) || err.code !== 'invalid_transition') throw err;
      return problem(
        connection,
        ref,
        'not_cancellable',
        `The shop cancelled the order but delivery ${link.trackingRef} can no longer be cancelled: ${err.message}`,
        { code: 'cancelled_too_late', tracking_ref: link.trackingRef },
      );
    }
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

export type ShopifyWebhookInbox = ReturnType<typeof shopifyWebhookInbox>;
