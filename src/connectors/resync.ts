import { AppError, invalidField } from '../errors.ts';
import type { Connection, Platform } from './connection.ts';
import type { ConnectionsService } from './connections-service.ts';

/**
 * A platform's catch-up for one link: reads the shop's orders changed since `since` and takes those
 * we miss (idempotent per shop order). Returns what it did, in a line.
 */
export type Resync = (connection: Connection, since: Date) => Promise<string>;

/**
 * `dlv connectors resync ID [--since ISO]`, for every platform that plugs its `Resync` in (deps.ts):
 * the operator's way to recover orders after an outage longer than the platform's own catch-up, or
 * orders from before the link. `since` defaults to the link's creation; never in the future.
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
    ): Promise<{ connection: Connection; since: Date; outcome: string }> {
      const connection = await deps.connections.get(brandId, id);
      const resync = deps.resyncers[connection.platform];
      if (!resync)
        throw new AppError('invalid_request', `Resync is not available for ${connection.platform} links.`);
      const from = since ?? connection.createdAt;
      if (Number.isNaN(from.getTime())) throw invalidField('since', 'must be an ISO 8601 date-time');
      if (from.getTime() > deps.clock().getTime()) throw invalidField('since', 'must not be in the future');
      return { connection, since: from, outcome: await resync(connection, from) };
    },
  };
}

export type ConnectorResync = ReturnType<typeof connectorResync>;
