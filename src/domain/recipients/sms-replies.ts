import type { OptOuts } from './ports.ts';

/** Words that stop every SMS to the number (decision 0007), in any case, spaces around ignored. */
const STOP_WORDS = ['STOP', 'STOPALL', 'ARRET', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
/**
 * Words that undo it, as Twilio's own opt-out handling does for the number: the recipient's own
 * act, from the number itself. (Twilio also takes YES; a bare "yes" is too easily an answer to
 * something else to lift an opt-out here.)
 */
const START_WORDS = ['START', 'UNSTOP'] as const;

/** SMS opt-outs the recipient may lift again by answering START (not the operator's). */
export interface SmsOptBackIn {
  /** Whether an opt-out was lifted. */
  optBackIn(number: string): Promise<boolean>;
}

type SmsReplyOutcome = 'opted_out' | 'opted_back_in' | 'ignored';

/** What the service does with a text a recipient sent to its number. */
export interface SmsReplies {
  received(from: string, body: string): Promise<SmsReplyOutcome>;
}

/**
 * A text a recipient sent to the service's number. Only the keyword matters: the words are
 * compared without case, accents or the spaces and punctuation phones add ("Stop.", "Arrêt").
 * Anything else is not read, nor kept.
 */
export function smsReplies(deps: { optOuts: Pick<OptOuts, 'optOut'>; optIns: SmsOptBackIn }): SmsReplies {
  return {
    async received(from: string, body: string): Promise<SmsReplyOutcome> {
      const word = keyword(body);
      if ((STOP_WORDS as readonly string[]).includes(word)) {
        await deps.optOuts.optOut('sms', from, 'sms_stop');
        return 'opted_out';
      }
      if ((START_WORDS as readonly string[]).includes(word)) {
        await deps.optIns.optBackIn(from);
        return 'opted_back_in';
      }
      return 'ignored';
    },
  };
}

function keyword(body: string): string {
  return body
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .replace(/[.!\s]+$/u, '')
    .toUpperCase();
}
