import { type AddressKeys, addressDigest } from '../../domain/recipients/address-key.ts';
import type { OptOutsByKey } from '../../domain/recipients/notification-ports.ts';
import type { Channel, OptOuts } from '../../domain/recipients/ports.ts';
import type { Queryable } from '../pool.ts';

/**
 * Recipients who asked for nothing more (recipient_opt_outs), kept by the keyed digest of their
 * address (address-key.ts): for every brand, never emptied. The first request is kept (its source
 * and time). A row still `keyed = false` (written before migration 0040, or by an instance of the
 * previous release during a rolling upgrade, until the next start keys it: opt-out-key.ts) holds
 * the unkeyed digest and is matched by it.
 */
export function recipientOptOutsRepository(db: Queryable, keys: AddressKeys): OptOuts & OptOutsByKey {
  const isKeyOptedOut = async (channel: Channel, key: Buffer) => {
    const { rowCount } = await db.query(
      'SELECT 1 FROM recipient_opt_outs WHERE channel = $1 AND address_hash = $2 AND keyed',
      [channel, key],
    );
    return rowCount === 1;
  };
  const optOutKey: OptOutsByKey['optOutKey'] = async (channel, key, source) => {
    await db.query(
      `INSERT INTO recipient_opt_outs (channel, address_hash, source, keyed) VALUES ($1, $2, $3, true)
       ON CONFLICT (channel, address_hash) DO NOTHING`,
      [channel, key, source],
    );
  };
  return {
    isKeyOptedOut,
    optOutKey,
    async isOptedOut(channel, address) {
      const digest = addressDigest(channel, address);
      const { rowCount } = await db.query(
        `SELECT 1 FROM recipient_opt_outs
          WHERE channel = $1 AND ((address_hash = $2 AND keyed) OR (address_hash = $3 AND NOT keyed))`,
        [channel, await keys.ofDigest(digest), digest],
      );
      return (rowCount ?? 0) > 0;
    },
    optOut: async (channel, address, source) => optOutKey(channel, await keys.of(channel, address), source),
  };
}
