import type { Stores, Transact } from '../db/stores.ts';
import type { OrderInput } from '../domain/orders/order-input.ts';
import type { OrderService } from '../domain/orders/order-service.ts';
import { type AppError, isAppError } from '../errors.ts';
import type { Connection, ProblemDetails, ProblemKind } from './connection.ts';

/** A shop order as the connectors name it: its exact id on the platform, and what the merchant calls it. */
export interface ExternalOrderRef {
  externalId: string;
  name: string | null;
}

/** Our refusals of an order that make a sync problem (the brand's to fix), not a failed job. */
const PROBLEM_OF: Partial<Record<string, ProblemKind>> = {
  out_of_zone: 'out_of_zone',
  invalid_address: 'invalid_address',
  unpriceable: 'unpriceable',
  invalid_request: 'invalid_order',
};

class AlreadyLinked extends Error {}

/**
 * What every shop connector does with a shop order once mapped: create its one delivery order
 * (idempotent on connection + shop order id, even when two deliveries race), cancel it when the shop
 * cancels, and record what the brand must fix as a sync problem instead of failing the job.
 */
export function connectorOrderSync(deps: {
  stores: Pick<Stores, 'connectorSync' | 'brands'>;
  transact: Transact;
  orders: OrderService;
  clock: () => Date;
}) {
  const { stores, clock } = deps;
  const sync = stores.connectorSync;

  async function problem(
    connection: Connection,
    ref: ExternalOrderRef | null,
    kind: ProblemKind,
    message: string,
    details: ProblemDetails = {},
  ): Promise<string> {
    await sync.recordProblem({
      connectionId: connection.id,
      brandId: connection.brandId,
      kind,
      externalId: ref?.externalId ?? '',
      externalName: ref?.name ?? null,
      message,
      details,
      at: clock(),
    });
    return `problem ${kind}: ${message}`;
  }

  /**
   * An order created while the link is broken (the shop refused our token): the delivery order needs
   * no call to the shop, but its tracking cannot go back, and the brand must know.
   */
  function trackingNotSent(connection: Connection, ref: ExternalOrderRef, trackingRef: string) {
    return problem(
      connection,
      ref,
      'sync_failed',
      `Delivery ${trackingRef} was created, but its tracking is not sent to the shop: the shop refused our access. Connect the shop again; the tracking of orders created meanwhile stays here.`,
      { code: 'tracking_link_broken', tracking_ref: trackingRef },
    );
  }

  return {
    problem,

    /** True when the shop order already has its delivery order (skip fetching what `create` needs). */
    async isLinked(connection: Connection, externalId: string): Promise<boolean> {
      return (await sync.findLink(connection.id, externalId)) !== null;
    },

    /** The shop order's delivery order, created once; a refusal of ours becomes a sync problem. */
    async create(connection: Connection, ref: ExternalOrderRef, input: OrderInput): Promise<string> {
      const existing = await sync.findLink(connection.id, ref.externalId);
      if (existing) return `duplicate: already ${existing.trackingRef}`;
      const brand = await stores.brands.findById(connection.brandId);
      if (!brand) return 'ignored: brand not found';
      // Billable orders only for a brand someone has vouched for by confirming their address (a
      // link made before that was required, or by the operator once such an owner had arrived).
      const unconfirmedSince = await stores.brands.unconfirmedSince(brand.id);
      if (unconfirmedSince && connection.createdAt >= unconfirmedSince)
        return problem(
          connection,
          ref,
          'invalid_order',
          'No owner of this brand has confirmed their e-mail address: the order was not created. Confirm it, then ask us to import the order again.',
          { code: 'owner_unconfirmed' },
        );
      let prepared: Awaited<ReturnType<OrderService['prepare']>>;
      try {
        prepared = await deps.orders.prepare(brand, input, connection.platform);
      } catch (err) {
        const kind = isAppError(err) ? PROBLEM_OF[err.code] : undefined;
        if (kind === undefined) throw err;
        const field = (err as AppError).details?.[0];
        const details: ProblemDetails = field
          ? { code: 'invalid_field', field: field.field, problem: field.message }
          : {};
        return problem(connection, ref, kind, (err as AppError).message, details);
      }
      try {
        const created = await deps.transact(async (tx) => {
          const order = await deps.orders.insert(prepared, tx.orders);
          const linked = await tx.connectorSync.linkOrder(
            {
              connectionId: connection.id,
              externalId: ref.externalId,
              externalName: ref.name,
              orderId: order.id,
              trackingRef: order.trackingRef,
            },
            clock(),
          );
          // Another delivery of the same order won the race: this order (and its event) is rolled back.
          if (!linked) throw new AlreadyLinked();
          return order;
        });
        if (connection.status === 'broken') await trackingNotSent(connection, ref, created.trackingRef);
        return `created ${created.trackingRef}`;
      } catch (err) {
        if (err instanceof AlreadyLinked) return 'duplicate: created concurrently';
        throw err;
      }
    },

    /** The shop cancelled: the delivery order too, unless it is already on its way (a problem). */
    async cancel(connection: Connection, ref: ExternalOrderRef): Promise<string> {
      const link = await sync.findLink(connection.id, ref.externalId);
      if (!link) return 'ignored: no delivery order for it';
      try {
        await deps.orders.cancel(connection.brandId, link.trackingRef);
        return `cancelled ${link.trackingRef}`;
      } catch (err) {
        if (!isAppError(err) || err.code !== 'invalid_transition') throw err;
        const current = await deps.orders.get(connection.brandId, link.trackingRef);
        // Cancelled meanwhile by another change (an order already cancelled is no refusal).
        if (current.status === 'cancelled') return `already cancelled ${link.trackingRef}`;
        return problem(
          connection,
          ref,
          'not_cancellable',
          `The shop cancelled the order but delivery ${link.trackingRef} can no longer be cancelled: ${err.message}`,
          { code: 'cancelled_too_late', tracking_ref: link.trackingRef },
        );
      }
    },
  };
}

export type ConnectorOrderSync = ReturnType<typeof connectorOrderSync>;
