import { randomBytes } from 'node:crypto';
import type { Stores, Transact } from '../../db/stores.ts';
import { AppError, invalidField } from '../../errors.ts';
import type { Connection } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { CredentialCipher } from '../credentials.ts';
import { checkWebserviceKey, parseWebserviceKey } from './key-check.ts';
import { openSealed, type PrestaShopCredentials, sealCredentials } from './shop-credentials.ts';
import { wallClock } from './wall-clock.ts';
import type { PrestaShopWebservice } from './webservice-client.ts';

/** A new push secret: 32 random bytes, as the module's settings field takes them. */
export const newShopSecret = () => randomBytes(32).toString('base64url');

/**
 * Changing a linked shop's secrets without linking it again (the account area's Shops page): a
 * Webservice key added or replaced (tried on the shop first, as when linking: a refused key changes
 * nothing) turns the poll and statuses back on and mends a link broken by a refused key; the push
 * secret rotated, the old one refused from the next push on (every push reads the stored secret).
 * `brandId` null is the operator; another brand's link is not_found.
 */
export function prestashopLinkUpkeep(deps: {
  stores: Pick<Stores, 'connections'>;
  transact: Transact;
  connections: ConnectionsService;
  ws: PrestaShopWebservice;
  cipher: CredentialCipher;
  clock: () => Date;
  refusal: string | null;
  onChanged: () => void;
}) {
  const { cipher, clock } = deps;

  async function liveLink(brandId: string | null, id: string): Promise<Connection> {
    if (deps.refusal) throw new AppError('unavailable', deps.refusal);
    const connection = await deps.connections.get(brandId, id);
    if (connection.platform !== 'prestashop')
      throw new AppError('invalid_request', `${connection.id} is not a PrestaShop shop.`);
    if (connection.status === 'disconnected')
      throw new AppError('invalid_request', 'This shop is disconnected: connect it again.');
    return connection;
  }

  /** Re-seals the link's credentials changed by `change`, its row locked meanwhile. */
  async function reseal(
    connection: Connection,
    change: (current: PrestaShopCredentials) => PrestaShopCredentials,
    more: (tx: Stores) => Promise<void> = async () => {},
  ): Promise<PrestaShopCredentials> {
    return deps.transact(async (tx) => {
      const sealed = await tx.connections.credentialsForUpdate(connection.id);
      if (!sealed) throw new AppError('invalid_request', 'This shop is disconnected: connect it again.');
      const current = await openSealed(cipher, connection.id, sealed);
      if (!current)
        throw new AppError(
          'unavailable',
          'The shop’s stored credentials cannot be read (CONNECTOR_SECRET_KEY changed): disconnect it and connect it again.',
        );
      const next = change(current);
      const scopes = next.key === null ? 'push' : 'push,webservice';
      await tx.connections.replaceCredentials(
        connection.id,
        await sealCredentials(cipher, connection.id, next),
        scopes,
        clock(),
      );
      await more(tx);
      return next;
    });
  }

  return {
    async replaceKey(brandId: string | null, id: string, rawKey: unknown): Promise<Connection> {
      const connection = await liveLink(brandId, id);
      const key = parseWebserviceKey(rawKey);
      if (key === null) throw invalidField('key', 'is required');
      const settings = await checkWebserviceKey(deps.ws, connection.shop, key);
      const at = clock();
      await reseal(
        connection,
        (current) => ({ secret: current.secret, key }),
        async (tx) => {
          // A shop without a mark starts polling from now, as a link made with a key does.
          await tx.prestashopShops.enablePoll(connection.id, {
            timeZone: settings.timeZone,
            deliveredStateId: settings.deliveredStateId,
            polledThrough: wallClock(at, settings.timeZone),
          });
          // The key just worked: a link broken by a refused key, or noted unreachable, is healthy.
          if (connection.status === 'broken' || connection.statusReason !== null)
            await tx.connections.setHealth(connection.id, 'active', null, at);
        },
      );
      deps.onChanged();
      return deps.connections.get(brandId, id);
    },

    /** The new secret, to show once. */
    async rotateSecret(
      brandId: string | null,
      id: string,
    ): Promise<{ connection: Connection; secret: string }> {
      const connection = await liveLink(brandId, id);
      const secret = newShopSecret();
      await reseal(connection, (current) => ({ secret, key: current.key }));
      return { connection, secret };
    },
  };
}
