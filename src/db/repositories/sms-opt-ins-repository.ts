import { addressKey } from '../../domain/recipients/address-key.ts';
import type { SmsOptBackIn } from '../../domain/recipients/sms-replies.ts';
import type { Queryable } from '../pool.ts';

/**
 * A number's START: its SMS opt-out is lifted, whichever way it came (STOP, the link of a text),
 * but for the operator's, which only the operator lifts.
 */
export function smsOptInsRepository(db: Queryable): SmsOptBackIn {
  return {
    async optBackIn(number) {
      const { rowCount } = await db.query(
        `DELETE FROM recipient_opt_outs WHERE channel = 'sms' AND address_hash = $1 AND source <> 'operator'`,
        [addressKey('sms', number)],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
