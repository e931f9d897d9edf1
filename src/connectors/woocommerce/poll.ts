import type { Stores } from '../../db/stores.ts';
import { AppError } from '../../errors.ts';
import type { Connection } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import { PAGE_SIZE, WEBHOOK_TOPICS, type WooOperations, type WooShopAccess } from './operations.ts';
import type { WooOrderSync } from './order-sync.ts';
import { wooAccess } from './woo-credentials.ts';
import { gmt } from './woo-dates.ts';
import { wooUrls } from './woo-urls.ts';

/**
 * How far back each poll looks before its high-water mark: `modified_after` is exclusive and to the
 * second, a webhook's order may be saved a moment after a later one, and clocks drift.
 */
const POLL_OVERLAP_MS = 5 * 60 * 1000;
/** Pages one poll reads at most; the next poll continues from the mark. */
const MAX_PAGES = 50;

export interface PollSummary {
  seen: number;
  stored: number;
  cursor: string | null;
  webhooks: string[];
}

/**
 * The safety net for lost webhooks (WooCommerce never retries one): the orders modified since the
 * link's mark, oldest change first, each stored like a webhook (the same state is stored once, so
 * what a webhook brought is not processed again). Pages are walked by date (the next page starts
 * at the last date seen, less a second), not by number: an order changed during the walk moves to
 * the end of the list and would shift numbered pages over one we have not read. The same poll
 * checks our webhooks: one WooCommerce disabled after repeated failures is reactivated, one the
 * merchant deleted is made again; the brand sees what happened in the link's health.
 */
export function wooPoll(deps: {
  stores: Pick<Stores, 'connections'>;
  connections: ConnectionsService;
  operations: WooOperations;
  orderSync: WooOrderSync;
  clock: () => Date;
  baseUrl: string;
  onChanged: () => void;
}) {
  const { stores, operations, clock } = deps;

  async function walkOrders(connection: Connection, shop: WooShopAccess, since: string) {
    let start = since;
    let page = 1;
    let seen = 0;
    let stored = 0;
    let cursor: string | null = null;
    for (let read = 0; read < MAX_PAGES; read++) {
      const { body, totalPages } = await operations.ordersModifiedAfter(shop, start, page);
      const orders = Array.isArray(body) ? body : [];
      for (const order of orders) {
        seen++;
        if (await deps.orderSync.store(connection, order, JSON.stringify(order), 'poll')) stored++;
        const modified = order.date_modified_gmt;
        if (typeof modified === 'string' && (cursor === null || modified > cursor)) cursor = modified;
      }
      if (orders.length < PAGE_SIZE || page >= totalPages) break;
      const last = orders.at(-1)?.date_modified_gmt;
      const next = typeof last === 'string' ? gmt(new Date(Date.parse(`${last}Z`) - 1000)) : start;
      // A full page within one second: only the API's page numbers get past it.
      if (next > start) {
        start = next;
        page = 1;
      } else page++;
    }
    return { seen, stored, cursor };
  }

  /** Our webhooks as the shop has them: reactivated when disabled, made again when deleted. */
  async function checkWebhooks(connection: Connection, shop: WooShopAccess & { webhookSecret: string }) {
    const ids = connection.remoteIds.webhookSubscriptions ?? [];
    const notes: string[] = [];
    const kept = [...ids];
    for (const [index, id] of ids.entries()) {
      const webhook = await operations.getWebhook(shop, id);
      if (webhook === null) {
        const topic = WEBHOOK_TOPICS[index];
        if (!topic) continue;
        const [created] = await operations.createWebhooks(
          shop,
          wooUrls(deps.baseUrl).webhooks(connection.id),
          shop.webhookSecret,
          'Livraison DLV',
          [topic],
        );
        kept[index] = created!;
        notes.push(`webhook ${id} (${topic}) was deleted in the shop: made again as ${created}`);
      } else if (webhook.status !== 'active') {
        await operations.activateWebhook(shop, id);
        notes.push(
          `webhook ${id} (${webhook.topic}) was ${webhook.status} by WooCommerce after failed deliveries: reactivated`,
        );
      }
    }
    if (kept.some((id, i) => id !== ids[i]))
      await stores.connections.setRemoteIds(
        connection.id,
        { ...connection.remoteIds, webhookSubscriptions: kept },
        clock(),
      );
    if (notes.length > 0)
      await stores.connections.mergeSyncState(connection.id, {
        webhooksReactivatedAt: clock().toISOString(),
        webhookNotice: notes.join('; ').slice(0, 500),
      });
    return notes;
  }

  async function poll(connectionId: string, options: { since?: Date } = {}): Promise<PollSummary> {
    const connection = await deps.connections.get(null, connectionId);
    if (connection.platform !== 'woocommerce')
      throw new AppError(
        'invalid_request',
        `${connection.id} is a ${connection.platform} link, not WooCommerce.`,
      );
    if (connection.status !== 'active')
      throw new AppError(
        'invalid_request',
        `${connection.id} is ${connection.status}: connect the shop again first.`,
      );
    const shop = await wooAccess(deps.connections, connection);
    if (shop === null) throw new AppError('invalid_request', `${connection.id} has no credentials.`);
    const mark =
      options.since ?? new Date(Date.parse(`${connection.syncCursor ?? gmt(connection.createdAt)}Z`));
    const since = gmt(new Date(mark.getTime() - (options.since ? 0 : POLL_OVERLAP_MS)));
    try {
      const webhooks = await checkWebhooks(connection, shop);
      const walked = await walkOrders(connection, shop, since);
      await stores.connections.recordSync(
        connection.id,
        { cursor: walked.cursor, error: null, reached: true, rewind: options.since !== undefined },
        clock(),
      );
      return { ...walked, webhooks };
    } catch (err) {
      if (isShopApiFailure(err, 'unauthorized')) {
        await deps.connections.markBroken(
          connection.id,
          'WooCommerce refused the API key (401): connect the shop again',
        );
        throw new AppError(
          'unauthorized',
          `The shop refused the API key; ${connection.id} is now marked broken.`,
        );
      }
      if (isShopApiFailure(err, 'retry_later') || isShopApiFailure(err, 'request_failed')) {
        await stores.connections.recordSync(connection.id, { error: err.message, reached: false }, clock());
        throw new AppError('unavailable', `Could not poll ${connection.shop}: ${err.message}`);
      }
      throw err;
    }
  }

  return { poll };
}
