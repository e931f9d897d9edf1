import { addressKey } from '../../domain/recipients/address-key.ts';
import type { OptOuts } from '../../domain/recipients/ports.ts';
import type { Queryable } from '../pool.ts';

/** Recipients who asked for nothing more (recipient_opt_outs), kept by the digest of their address. */
export function recipientOptOutsRepository(db: Queryable): OptOuts {
  return {
    async isOptedOut(channel, address) {
      const { rowCount } = await db.query(
        'SELECT 1 FROM recipient_opt_outs WHERE channel = $1 AND address_hash = $2',
        [channel, addressKey(channel, address)],
      );
      return (rowCount ?? 0) > 0;
    },
    async optOut(channel, address, source) {
      // The first opt-out stays as it was (its source, its date): asking again changes nothing.
      await db.query(
        `INSERT INTO recipient_opt_outs (channel, address_hash, source) VALUES ($1, $2, $3)
         ON CONFLICT (channel, address_hash) DO NOTHING`,
        [channel, addressKey(channel, address), source],
      );
    },
  };
}
