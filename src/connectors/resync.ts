import { AppError, invalidField } from '../errors.ts';
import type { Connection, Platform } from './connection.ts';
import type { ConnectionsService } from './connections-service.ts';

/**
 * A platform's catch-up for one link: reads the shop's orders changed since `since` (none given: the
 * platform's default) and takes those we miss (idempotent per shop order). Returns what it did, in
 * a line, and the figures behind it.
 */
export type Resync = (
  connection: Connection,
  since: Date | undefined,
) => Promise<{ outcome: string; from: Date | null; figures?: Record<string, unknown> }>;

/**
 * `dlv connectors resync ID [--since ISO]`, for every platform that plugs its `Resync` in (deps.ts):
 * the operator's way to recover orders after an outage longer than the platform's own catch-up, or
 * orders from before the link. `since` is never in the future.
 */
export function connectorResync(deps: {
  connections: ConnectionsService;
  clock: () => Date;
  resyncers: Partial<Record<Platform, Resync>>;
}) {
  return {
    /** Whether the platform can resync (the CLI's message when not). */
    supports: (platform: Platform) => deps.resyncers[platform] !== undefined,

    async resync(
      brandId: string | null,
      id: string,
      since?: Date,
    ): Promise<{
      connection: Connection;
      /** Null: from the link's own high-water mark. */
      since: Date | null;
      outcome: string;
      figures: Record<string, unknown>;
    }> {
      const connection = await deps.connections.get(brandId, id);
      const resync = deps.resyncers[connection.platform];
      if (!resync)
        throw new AppError('invalid_request', `Resync is not available for ${connection.platform} links.`);
      if (since !== undefined && Number.isNaN(since.getTime()))
        throw invalidField('since', 'must be an ISO 8601 date-time');
      if (since !== undefined && since.getTime() > deps.clock().getTime())
        throw invalidField('since', 'must not be in the future');
      const done = await resync(connection, since);
      return { connection, since: done.from, outcome: done.outcome, figures: done.figures ?? {} };
    },
  };
}

export type ConnectorResync = ReturnType<typeof connectorResync>;
