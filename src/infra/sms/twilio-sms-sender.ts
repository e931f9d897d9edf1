import type { OptOuts, OutgoingSms, SmsSender } from '../../domain/recipients/ports.ts';
import { SmsError } from '../../domain/recipients/ports.ts';
import { systemClock } from '../../domain/shared/clock.ts';
import { type JsonRequester, NetworkError, retryAfterMs } from '../http/json-request.ts';
import { DestinationRefused } from '../http/outbound-client.ts';
import { twilioRefusal } from './twilio-errors.ts';

export interface TwilioSmsSenderOptions {
  accountSid: string;
  authToken: string;
  /** `https://api.twilio.com` (TWILIO_API_BASE), without a trailing slash. */
  apiBase: string;
  /** Where Twilio posts the message's delivery reports: `{PUBLIC_BASE_URL}/sms/twilio/status`. */
  statusCallbackUrl: string;
  /** The outbound client's requester (its guard, its keep-alive sockets). */
  request: JsonRequester;
  /** A number Twilio refuses with 21610 answered STOP at Twilio: kept as our opt-out too. */
  optOuts: Pick<OptOuts, 'optOut'>;
  /** The whole exchange, connection to answer. */
  timeoutMs?: number;
  clock?: () => Date;
}

/** Twilio answers in well under a second; past this it is down for us, and the job tries later. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** SM… for an SMS (MM… would be an MMS, which we never send). */
const MESSAGE_SID = /^SM[0-9a-f]{32}$/;
/** The number answered STOP: Twilio refuses every message to it until it answers START. */
const UNSUBSCRIBED = '21610';

/**
 * Twilio Programmable Messaging (decision 0007): one `POST /2010-04-01/Accounts/{Sid}/Messages.json`
 * per SMS, HTTP Basic with the account SID and auth token, the form Twilio documents, and the
 * StatusCallback its delivery reports come back to. Resolves with the message SID once Twilio
 * queued it; throws SmsError otherwise (twilio-errors.ts says which may pass).
 */
export function twilioSmsSender(options: TwilioSmsSenderOptions): SmsSender {
  const url = `${options.apiBase}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const clock = options.clock ?? systemClock;
  return {
    async send(sms: OutgoingSms) {
      const form = new URLSearchParams({
        To: sms.to,
        From: sms.from,
        Body: sms.text,
        StatusCallback: options.statusCallbackUrl,
      });
      let answer: Awaited<ReturnType<JsonRequester>>;
      try {
        answer = await options.request({
          url,
          method: 'POST',
          headers: { authorization },
          rawBody: { contentType: 'application/x-www-form-urlencoded', text: form.toString() },
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBytes: 64 * 1024,
        });
      } catch (err) {
        // No answer: Twilio may be down, or our network; another try may pass. (Had it queued the
        // message before the answer was lost, the job's retry would send it twice: Twilio has no
        // idempotency key for Messages, so this is the one window where that can happen.)
        if (err instanceof NetworkError || err instanceof DestinationRefused)
          throw new SmsError(`Twilio unreachable: ${err.message}`, false);
        throw err;
      }
      if (answer.status === 200 || answer.status === 201) return { providerId: messageSid(answer.text) };
      const refusal = twilioRefusal(answer.status, answer.text, retryAfterMs(answer.retryAfter, clock()));
      if (refusal.providerCode === UNSUBSCRIBED) await options.optOuts.optOut('sms', sms.to, 'sms_stop');
      throw refusal;
    },
  };
}

/**
 * The SID of the message Twilio accepted. An acceptance we cannot read is a permanent failure:
 * the message is most likely on its way, and a retry would send it twice.
 */
function messageSid(text: string): string {
  let sid: unknown;
  try {
    sid = (JSON.parse(text) as { sid?: unknown } | null)?.sid;
  } catch {
    sid = undefined;
  }
  if (typeof sid !== 'string' || !MESSAGE_SID.test(sid))
    throw new SmsError('Twilio accepted the message but its answer has no message SID', true);
  return sid;
}
