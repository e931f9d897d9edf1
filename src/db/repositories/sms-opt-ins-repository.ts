import { type AddressKeys, addressDigest } from '../../domain/recipients/address-key.ts';
import type { SmsOptBackIn } from '../../domain/recipients/sms-replies.ts';
import type { Queryable } from '../pool.ts';

/**
 * A number's START: its SMS opt-out is lifted, whichever way it came (STOP, the link of a text),
 * but for the operator's, which only the operator lifts. A row not keyed yet goes by its digest.
 */
export function smsOptInsRepository(db: Queryable, keys: AddressKeys): SmsOptBackIn {
  return {
    async optBackIn(number) {
      const digest = addressDigest('sms', number);
      const { rowCount } = await db.query(
        `DELETE FROM recipient_opt_outs
          WHERE channel = 'sms' AND source <> 'operator'
            AND ((address_hash = $1 AND keyed) OR (address_hash = $2 AND NOT keyed))`,
        [await keys.ofDigest(digest), digest],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
