import type { Stores } from '../db/stores.ts';
import { AppError, invalidField } from '../errors.ts';
import {
  CONNECTION_ID_PATTERN,
  type Connection,
  type OrderFilter,
  type Platform,
  type SyncProblem,
} from './connection.ts';
import type { CredentialCipher } from './credentials.ts';

export const DEFAULT_PROBLEM_LIMIT = 50;

const MAX_PROBLEM_LIMIT = 500;

/**
 * What a platform does on the shop's side when a brand disconnects (remove our webhooks…); throws
 * when some of it could not be removed (the shop unreachable, the token refused).
 */
export type RemoteCleanup = (connection: Connection, token: string) => Promise<void>;

/**
 * What became of our registrations on the shop when it was disconnected: `removed`; `failed` (the
 * shop could not be reached or refused: the brand should uninstall the app from its admin); `none`
 * (nothing to remove: no credentials left, or already disconnected).
 */
export type RemoteOutcome = 'removed' | 'failed' | 'none';

/**
 * A brand's shop links, for every platform: list them with their health and problems, change their
 * settings, disconnect them. `brandId` null is the operator (every brand); a brand asking for
 * another brand's link gets not_found. The account area and `dlv connectors` both call this.
 */
export function connectionsService(deps: {
  stores: Pick<Stores, 'connections' | 'connectorSync'>;
  cipher: CredentialCipher;
  clock: () => Date;
  /** Called after a change made here, so this instance's directory need not wait for its poll. */
  onChanged: () => void;
  remoteCleanup: Partial<Record<Platform, RemoteCleanup>>;
  /** The platforms whose links take extra statuses (src/connectors/connector.ts), and which. */
  extraStatuses: ReadonlyArray<{ platform: Platform; label: string; statuses: readonly string[] }>;
}) {
  const { connections, connectorSync } = deps.stores;

  async function get(brandId: string | null, id: string): Promise<Connection> {
    const found = CONNECTION_ID_PATTERN.test(id) ? await connections.find(id) : null;
    if (!found || (brandId !== null && found.brandId !== brandId))
      throw new AppError('not_found', `No shop connection with id "${id}".`);
    return found;
  }

  async function tokenOf(connection: Connection): Promise<string | null> {
    const sealed = await connections.credentialsOf(connection.id);
    return sealed ? deps.cipher.decrypt(sealed, connection.id) : null;
  }

  return {
    get,
    tokenOf,

    /** Each link with its number of sync problems and when its shop was last heard from, newest link first. */
    async list(
      brandId: string | null,
    ): Promise<{ connection: Connection; problems: number; lastSyncAt: Date | null }[]> {
      const [list, counts, syncs] = await Promise.all([
        connections.list(brandId),
        connectorSync.problemCounts(brandId),
        connectorSync.lastSyncs(brandId),
      ]);
      return list.map((connection) => ({
        connection,
        problems: counts.get(connection.id) ?? 0,
        lastSyncAt: syncs.get(connection.id) ?? null,
      }));
    },

    async problems(filter: {
      brandId: string | null;
      connectionId?: string;
      limit?: number;
    }): Promise<SyncProblem[]> {
      const limit = filter.limit ?? DEFAULT_PROBLEM_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PROBLEM_LIMIT)
        throw invalidField('limit', `must be an integer from 1 to ${MAX_PROBLEM_LIMIT}`);
      if (filter.connectionId !== undefined) await get(filter.brandId, filter.connectionId);
      return connectorSync.listProblems(
        { brandId: filter.brandId, connectionId: filter.connectionId },
        limit,
      );
    },

    async updateSettings(
      brandId: string | null,
      id: string,
      settings: { orderFilter?: string; notifyCustomer?: boolean; extraStatuses?: string[] },
    ): Promise<Connection> {
      const connection = await get(brandId, id);
      const { orderFilter, extraStatuses } = settings;
      if (orderFilter !== undefined && orderFilter !== 'ours' && orderFilter !== 'all')
        throw invalidField('order_filter', 'must be ours or all');
      if (extraStatuses !== undefined) {
        const allowed = deps.extraStatuses.find((p) => p.platform === connection.platform)?.statuses;
        if (!allowed) {
          const platforms = deps.extraStatuses.map((p) => p.label).join(' or ');
          throw invalidField('extra_statuses', `only ${platforms} links take extra statuses`);
        }
        const bad = extraStatuses.find((s) => !allowed.includes(s));
        if (bad !== undefined)
          throw invalidField('extra_statuses', `must be among ${allowed.join(', ')} (not ${bad})`);
      }
      await connections.updateSettings(
        connection.id,
        {
          orderFilter: orderFilter as OrderFilter | undefined,
          notifyCustomer: settings.notifyCustomer,
          extraStatuses: extraStatuses === undefined ? undefined : [...new Set(extraStatuses)],
        },
        deps.clock(),
      );
      return get(brandId, id);
    },

    /**
     * Removes what we registered on the shop (best effort: an uninstalled app's registrations are
     * gone already), then erases the credentials: a shop out of reach never keeps a brand linked.
     * `remote` says which, so the caller can tell the brand to finish in the shop's admin.
     * Disconnecting twice is not an error.
     */
    async disconnect(
      brandId: string | null,
      id: string,
      reason = 'disconnected by the brand',
    ): Promise<Connection & { remote: RemoteOutcome }> {
      const connection = await get(brandId, id);
      if (connection.status === 'disconnected') return { ...connection, remote: 'none' };
      const cleanup = deps.remoteCleanup[connection.platform];
      const token = await tokenOf(connection).catch(() => null);
      let remote: RemoteOutcome = 'none';
      if (cleanup && token)
        remote = await cleanup(connection, token).then(
          () => 'removed' as const,
          () => 'failed' as const,
        );
      await connections.disconnect(connection.id, reason, deps.clock());
      deps.onChanged();
      return { ...(await get(brandId, id)), remote };
    },

    /** The shop refused our token: stop calling it until it is linked again. */
    async markBroken(id: string, reason: string): Promise<void> {
      await connections.setHealth(id, 'broken', reason.slice(0, 500), deps.clock());
      deps.onChanged();
    },
  };
}

export type ConnectionsService = ReturnType<typeof connectionsService>;
