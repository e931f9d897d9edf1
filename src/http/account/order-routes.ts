import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountOrders, canCancelOrders, isCancellable } from '../../domain/accounts/account-orders.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { ProofService } from '../../domain/proofs/proof-service.ts';
import type { RecipientNotifications } from '../../domain/recipients/notification-service.ts';
import type { TestData } from '../../domain/test-mode/test-data.ts';
import { isAppError } from '../../errors.ts';
import { formError } from './auth-routes.ts';
import type { PageContextOf } from './context.ts';
import { query } from './form.ts';
import { isTestView, viewedUser } from './test-data-routes.ts';
import { cancelOrderPage, orderPage, ordersPage, type ProofView } from './views/order-pages.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const refOf = (request: FastifyRequest) => (request.params as { trackingRef: string }).trackingRef;

/** What the order pages use. */
interface OrderRoutesContext {
  orders: OrderService;
  proofs: Pick<ProofService, 'attemptsOf' | 'pagePath'>;
  recipientNotifications: Pick<RecipientNotifications, 'ofOrder'>;
  testData: Pick<TestData, 'twinOf'>;
}

/** The order page's proof of delivery: the facts, and its files' links signed for 15 minutes. */
async function proofView(proofs: OrderRoutesContext['proofs'], orderId: number): Promise<ProofView> {
  const attempts = await proofs.attemptsOf(orderId);
  const delivered = attempts.findLast((a) => a.outcome === 'delivered') ?? null;
  return {
    delivered,
    photoPath: delivered?.photoKey ? await proofs.pagePath(delivered.id, 'photo') : null,
    signaturePath: delivered?.signatureKey ? await proofs.pagePath(delivered.id, 'signature') : null,
    failed: attempts.filter((a) => a.outcome === 'failed_attempt'),
  };
}

/**
 * The brand's orders: the list (status filter, search, "older" pages), an order's page, and its
 * cancellation (confirmation first). Every role sees orders; only owners and developers cancel.
 */
export function orderRoutes(
  app: FastifyInstance,
  deps: OrderRoutesContext,
  { context }: { context: PageContextOf },
): void {
  const orders = accountOrders(deps.orders);

  app.get('/orders', SIGNED_IN, async (request, reply) => {
    const user = await viewedUser(request, deps.testData);
    const ctx = await context(request, reply);
    const cursor = query(request, 'cursor', 500);
    // Read inside the `try` (a control character in the search is its error: form.ts), again to redraw.
    const asked = () => ({ q: query(request, 'q', 100).trim(), status: query(request, 'status', 40) });
    try {
      const filters = asked();
      const page = await orders.search(user, { ...filters, cursor });
      return sendPage(reply, ordersPage(ctx, { ...page, paged: cursor !== '' }, filters));
    } catch (err) {
      // A hand-edited address (unknown status, a cursor from another search): the form again, with why.
      const error = formError(err, ctx, {
        status: 'orders.status',
        reference: 'orders.search',
        q: 'orders.search',
      });
      const empty = { orders: [], nextCursor: null, paged: cursor !== '' };
      return sendPage(reply, ordersPage(ctx, empty, asked(), error), 400);
    }
  });

  async function orderView(
    request: FastifyRequest,
    reply: FastifyReply,
    state: { error?: string; justCancelled?: boolean } = {},
    status = 200,
  ) {
    const user = await viewedUser(request, deps.testData);
    const order = await orders.get(user, refOf(request));
    const ctx = await context(request, reply);
    // The redirect after a cancellation says so; the same address on an order not cancelled says nothing.
    const notice =
      state.justCancelled && order.status === 'cancelled'
        ? ctx.t('orders.cancelled', { ref: order.trackingRef })
        : undefined;
    const page = orderPage(ctx, order, {
      trackingUrl: orders.trackingUrl(order),
      proof: await proofView(deps.proofs, order.id),
      messages: await deps.recipientNotifications.ofOrder(order.id),
      canCancel: canCancelOrders(user.role),
      cancellable: isCancellable(order.status),
      notice,
      error: state.error,
    });
    return sendPage(reply, page, status);
  }

  app.get('/orders/:trackingRef', SIGNED_IN, (request, reply) =>
    orderView(request, reply, { justCancelled: query(request, 'cancelled') === '1' }),
  );

  app.get('/orders/:trackingRef/cancel', SIGNED_IN, async (request, reply) => {
    const user = await viewedUser(request, deps.testData);
    const ctx = await context(request, reply);
    const order = await orders.get(user, refOf(request));
    if (!canCancelOrders(user.role))
      return orderView(request, reply, { error: ctx.t('orders.readOnly') }, 403);
    if (!isCancellable(order.status)) {
      const error = ctx.t('orders.notCancellable', { status: ctx.t(`orderStatus.${order.status}`) });
      return orderView(request, reply, { error }, 422);
    }
    return sendPage(reply, cancelOrderPage(ctx, order));
  });

  app.post('/orders/:trackingRef/cancel', SIGNED_IN, async (request, reply) => {
    const user = await viewedUser(request, deps.testData);
    const ctx = await context(request, reply);
    try {
      const order = await orders.cancel(user, refOf(request));
      const mode = isTestView(request) ? '&mode=test' : '';
      return reply.redirect(
        `/account/orders/${encodeURIComponent(order.trackingRef)}?cancelled=1${mode}`,
        303,
      );
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (err.code === 'insufficient_scope')
        return orderView(request, reply, { error: ctx.t('orders.readOnly') }, 403);
      if (err.code !== 'invalid_transition') throw err;
      // Picked up meanwhile (or already cancelled): the order as it is now, and why nothing changed.
      const order = await orders.get(user, refOf(request));
      const error = ctx.t('orders.notCancellable', { status: ctx.t(`orderStatus.${order.status}`) });
      return orderView(request, reply, { error }, 422);
    }
  });
}
