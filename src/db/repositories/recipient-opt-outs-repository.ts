import { addressKey } from '../../domain/recipients/address-key.ts';
import type { OptOutsByKey } from '../../domain/recipients/notification-ports.ts';
import type { Channel, OptOuts } from '../../domain/recipients/ports.ts';
import type { Queryable } from '../pool.ts';

/**
 * Recipients who asked for nothing more (recipient_opt_outs), kept by the digest of their address
 * (address-key.ts): for every brand, never emptied. The first request is kept (its source and time).
 */
export function recipientOptOutsRepository(db: Queryable): OptOuts & OptOutsByKey {
  const isKeyOptedOut = async (channel: Channel, key: Buffer) => {
    const { rowCount } = await db.query(
      'SELECT 1 FROM recipient_opt_outs WHERE channel = $1 AND address_hash = $2',
      [channel, key],
    );
    return rowCount === 1;
  };
  const optOutKey: OptOutsByKey['optOutKey'] = async (channel, key, source) => {
    await db.query(
      `INSERT INTO recipient_opt_outs (channel, address_hash, source) VALUES ($1, $2, $3)
       ON CONFLICT (channel, address_hash) DO NOTHING`,
      [channel, key, source],
    );
  };
  return {
    isKeyOptedOut,
    optOutKey,
    isOptedOut: (channel, address) => isKeyOptedOut(channel, addressKey(channel, address)),
    optOut: (channel, address, source) => optOutKey(channel, addressKey(channel, address), source),
  };
}
