import type { Stores, Transact } from '../db/stores.ts';
import type { OrderInput } from '../domain/orders/order-input.ts';
import type { OrderService } from '../domain/orders/order-service.ts';
import { type AppError, isAppError } from '../errors.ts';
import type { Connection, ProblemKind } from './connection.ts';

/** A shop order as the connectors name it: the link's external id and what the merchant calls it. */
export interface ExternalRef {
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
 * What every shop connector does with a shop order, whatever brought it (a webhook, a poll, a
 * push): one delivery order per shop order (the link is written in the order's transaction, so a
 * duplicate or concurrent delivery can never make a second), a cancellation when still possible,
 * and a sync problem — never a failed job — for what the brand must fix. Returns what was done.
 */
export function orderIntake(deps: {
  stores: Pick<Stores, 'connectorSync' | 'brands'>;
  transact: Transact;
  orders: OrderService;
  clock: () => Date;
}) {
  const { stores, clock } = deps;
  const sync = stores.connectorSync;

  async function problem(
    connection: Connection,
    ref: ExternalRef | null,
    kind: ProblemKind,
    message: string,
  ) {
    await sync.recordProblem({
      connectionId: connection.id,
      brandId: connection.brandId,
      kind,
      externalId: ref?.externalId ?? '',
      externalName: ref?.name ?? null,
      message,
      at: clock(),
    });
    return `problem ${kind}: ${message}`;
  }

  return {
    problem,

    /** True when the shop order already has its delivery order (skip fetching what `create` needs). */
    async isLinked(connection: Connection, externalId: string): Promise<boolean> {
      return (await sync.findLink(connection.id, externalId)) !== null;
    },

    async create(connection: Connection, ref: ExternalRef, input: OrderInput): Promise<string> {
      const existing = await sync.findLink(connection.id, ref.externalId);
      if (existing) return `duplicate: already ${existing.trackingRef}`;
      const brand = await stores.brands.findById(connection.brandId);
      if (!brand) return 'ignored: brand not found';
      let prepared: Awaited<ReturnType<OrderService['prepare']>>;
      try {
        prepared = await deps.orders.prepare(brand, input);
      } catch (err) {
        const kind = isAppError(err) ? PROBLEM_OF[err.code] : undefined;
        if (kind === undefined) throw err;
        return problem(connection, ref, kind, (err as AppError).message);
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
        return `created ${created.trackingRef}`;
      } catch (err) {
        if (err instanceof AlreadyLinked) return 'duplicate: created concurrently';
        throw err;
      }
    },

    async cancel(connection: Connection, ref: ExternalRef, platformName: string): Promise<string> {
      const link = await sync.findLink(connection.id, ref.externalId);
      if (!link) return 'ignored: no delivery order for it';
      try {
        await deps.orders.cancel(connection.brandId, link.trackingRef);
        return `cancelled ${link.trackingRef}`;
      } catch (err) {
        if (!isAppError(err) || err.code !== 'invalid_transition') throw err;
        // The same cancellation seen again (a webhook, then the poll): nothing more to do.
        const current = await deps.orders.getAnyBrand(link.trackingRef);
        if (current.status === 'cancelled') return `already cancelled ${link.trackingRef}`;
        return problem(
          connection,
          ref,
          'not_cancellable',
          `${platformName} cancelled the order but delivery ${link.trackingRef} can no longer be cancelled: ${err.message}`,
        );
      }
    },
  };
}

export type OrderIntake = ReturnType<typeof orderIntake>;
