import { AppError, isAppError } from '../../errors.ts';
import type { OrderWithEvents } from '../orders/order.ts';
import type { OrderJson } from '../orders/order-json.ts';
import type { OrderService } from '../orders/order-service.ts';
import { canTransition, isOrderStatus, type OrderStatus } from '../orders/state-machine.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { Role, User } from './user.ts';

/** Orders per page of the account area's list. */
const ACCOUNT_ORDERS_PAGE = 25;

/**
 * Finance people see the brand's orders (to check what an invoice bills) but do not act on them:
 * cancelling is the job of whoever runs the shop's integration, the owner or a developer.
 */
export const canCancelOrders = (role: Role): boolean => role !== 'finance';

/** What the API allows a brand: cancelling before pickup (awaiting_address or pending). */
export const isCancellable = (status: OrderStatus): boolean => canTransition(status, 'cancelled');

interface OrderSearch {
  /** A tracking reference (typed loosely, normalised like the API does) or the brand's own reference. */
  q?: string;
  status?: string;
  cursor?: string;
}

/**
 * The account area's view of the brand's orders, over the order service (the same rules, cursors
 * and JSON as the API), with who-may-do-what by role.
 */
export interface AccountOrders {
  /**
   * A page of the brand's orders, newest first. A search that is one of the brand's tracking
   * references shows that order; anything else is looked up as the start of the brand's own
   * `reference` (an exact reference being its own prefix).
   */
  search(user: User, search: OrderSearch): Promise<{ orders: OrderJson[]; nextCursor: string | null }>;
  get(user: User, trackingRef: string): Promise<OrderWithEvents>;
  cancel(user: User, trackingRef: string): Promise<OrderWithEvents>;
  trackingUrl(order: OrderWithEvents): string;
}

export function accountOrders(orders: OrderService): AccountOrders {
  return {
    async search(
      user: User,
      search: OrderSearch,
    ): Promise<{ orders: OrderJson[]; nextCursor: string | null }> {
      const q = search.q?.trim() || undefined;
      const status = search.status || undefined;
      const ref = q ? normaliseTrackingRef(q) : null;
      if (ref && !search.cursor) {
        const order = await orders.get(user.brandId, ref).catch((err) => {
          if (isAppError(err) && err.code === 'not_found') return null;
          throw err;
        });
        if (order && (!status || (isOrderStatus(status) && order.status === status)))
          return { orders: [orders.detailJson(order)], nextCursor: null };
      }
      const page = await orders.listJson(user.brandId, {
        status,
        reference: q,
        cursor: search.cursor || undefined,
        limit: ACCOUNT_ORDERS_PAGE,
      });
      return {
        orders: page.orders.map((json) => JSON.parse(json) as OrderJson),
        nextCursor: page.nextCursor,
      };
    },

    get: (user: User, trackingRef: string): Promise<OrderWithEvents> => orders.get(user.brandId, trackingRef),

    async cancel(user: User, trackingRef: string): Promise<OrderWithEvents> {
      if (!canCancelOrders(user.role))
        throw new AppError('insufficient_scope', 'Your role cannot cancel orders.');
      return orders.cancel(user.brandId, trackingRef);
    },

    trackingUrl: (order: OrderWithEvents): string => orders.detailJson(order).tracking_url,
  };
}
