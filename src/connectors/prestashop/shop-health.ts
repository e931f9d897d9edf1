import type { Stores } from '../../db/stores.ts';
import type { Connection } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import { isShopApiFailure } from '../shop-api-error.ts';

/** The start of the reason an active link carries while its shop cannot be reached. */
export const RETRYING = 'PrestaShop could not be reached; retrying';

/**
 * What the brand sees of a shop's Webservice calls, on its link: a refused key breaks it (nothing is
 * retried until it is linked again), an unreachable shop is noted once with when it started (the jobs
 * keep retrying), and the first call that goes through clears the note.
 */
export function prestashopShopHealth(deps: {
  stores: Pick<Stores, 'connections'>;
  connections: ConnectionsService;
  clock: () => Date;
}) {
  return {
    async succeeded(connection: Connection): Promise<void> {
      if (connection.statusReason?.startsWith(RETRYING))
        await deps.stores.connections.setHealth(connection.id, 'active', null, deps.clock());
    },

    /** Returns true when the link is now broken (the caller stops); otherwise the caller rethrows. */
    async failed(connection: Connection, err: unknown): Promise<boolean> {
      if (isShopApiFailure(err, 'unauthorized')) {
        await deps.connections.markBroken(
          connection.id,
          `PrestaShop refused the Webservice key (401): link the shop again with a new key. ${err.message}`,
        );
        return true;
      }
      if (isShopApiFailure(err, 'retry_later') && !connection.statusReason?.startsWith(RETRYING)) {
        const at = deps.clock();
        await deps.stores.connections.setHealth(
          connection.id,
          'active',
          `${RETRYING} since ${at.toISOString()} (${err.message})`,
          at,
        );
      }
      return false;
    },
  };
}

export type PrestaShopShopHealth = ReturnType<typeof prestashopShopHealth>;
