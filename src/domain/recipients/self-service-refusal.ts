import { AppError, type ErrorCode } from '../../errors.ts';

/**
 * Why the page refused a code step; the page says it in the reader's language:
 * - `wrong_code`: not the code sent (`triesLeft` more tries on this code);
 * - `code_burnt`: the 5th wrong try, or a code already burnt: ask for another;
 * - `code_expired`: sent more than 10 minutes ago;
 * - `no_code`: none was asked for (or it was used);
 * - `daily_limit`: 5 codes were sent for this order today (Paris);
 * - `not_open`: the order can no longer be changed (out for delivery, delivered…);
 * - `no_address`: the order has no address for that channel (or the channel is off);
 * - `send_failed`: the e-mail or SMS could not be sent now.
 */
export type RefusalReason =
  | 'wrong_code'
  | 'code_burnt'
  | 'code_expired'
  | 'no_code'
  | 'daily_limit'
  | 'not_open'
  | 'no_address'
  | 'send_failed';

const STATUS_CODE: Record<RefusalReason, ErrorCode> = {
  wrong_code: 'invalid_request',
  code_burnt: 'invalid_request',
  code_expired: 'invalid_request',
  no_code: 'invalid_request',
  daily_limit: 'rate_limited',
  not_open: 'invalid_transition',
  no_address: 'invalid_request',
  send_failed: 'unavailable',
};

const MESSAGE: Record<RefusalReason, string> = {
  wrong_code: 'code: not the code sent',
  code_burnt: 'code: too many wrong tries; ask for a new code',
  code_expired: 'code: expired; ask for a new code',
  no_code: 'code: no code was asked for; ask for one',
  daily_limit: 'Five codes were already sent for this order today; try again tomorrow.',
  not_open: 'This delivery can no longer be changed.',
  no_address: 'channel: the order has no address for it',
  send_failed: 'The code could not be sent; try again in a moment.',
};

export class SelfServiceRefusal extends AppError {
  constructor(
    readonly reason: RefusalReason,
    /** For `wrong_code`: the tries left on this code. */
    readonly triesLeft: number | null = null,
  ) {
    const message =
      reason === 'wrong_code' ? `${MESSAGE[reason]} (${triesLeft} tries left)` : MESSAGE[reason];
    super(STATUS_CODE[reason], message);
    this.name = 'SelfServiceRefusal';
  }
}
