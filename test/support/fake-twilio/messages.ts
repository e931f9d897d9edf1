import { randomBytes } from 'node:crypto';
import type { Answer } from '../shop-http.ts';
import { twilioError } from './errors.ts';
import { countSegments } from './segments.ts';

export const API_VERSION = '2010-04-01';

/** A message as Twilio keeps it (the Message resource), with what the fake decided for it. */
export interface FakeMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
  status: 'queued' | 'sent' | 'delivered' | 'undelivered';
  errorCode: number | null;
  numSegments: number;
  encoding: 'GSM-7' | 'UCS-2';
  statusCallback: string | null;
  dateCreated: Date;
  dateUpdated: Date;
  dateSent: Date | null;
}

export interface AccountRules {
  accountSid: string;
  /** The account's SMS-capable numbers: a From must be one of them. */
  numbers: ReadonlySet<string>;
  /** Geo permissions (Messaging › Settings › Geo permissions): the countries SMS may go to. */
  enabledPrefixes: readonly string[];
  /** Numbers that answered STOP: Twilio refuses to text them (21610) until they answer START. */
  stopped: ReadonlySet<string>;
  /** Numbers Twilio's lookup knows cannot take SMS (21614), besides French fixed lines. */
  landlines: ReadonlySet<string>;
}

/** E.164 as Twilio reads it: a country code and a national number of a plausible length for it. */
const E164 = /^\+[1-9]\d{7,14}$/;
const isNumber = (n: string) => E164.test(n) && (!n.startsWith('+33') || /^\+33[1-9]\d{8}$/.test(n));
const MAX_BODY = 1600;

/** `sid` of a new resource: its two-letter prefix and 32 hex digits. */
export const newSid = (prefix: 'SM' | 'MM') => `${prefix}${randomBytes(16).toString('hex')}`;

/** Twilio's dates: RFC 2822, always in +0000. */
const rfc2822 = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

const invalid = (code: number, message: string) => twilioError(400, code, message);

/**
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`: checks in Twilio's order and with its
 * codes (twilio.com/docs/messaging/api/message-resource#create-a-message-resource and the error
 * dictionary), then queues the message. Returns the refusal, or the message.
 */
export function createMessage(rules: AccountRules, form: URLSearchParams): Answer | FakeMessage {
  const to = form.get('To')?.trim() ?? '';
  const from = form.get('From')?.trim() ?? '';
  const body = form.get('Body') ?? '';
  const callback = form.get('StatusCallback');
  if (to === '') return invalid(21604, "A 'To' phone number is required.");
  if (from === '' && !form.get('MessagingServiceSid'))
    return invalid(21603, "A 'From' phone number is required.");
  if (body === '' && !form.get('MediaUrl')) return invalid(21602, 'Message body is required.');
  if (!isNumber(to)) return invalid(21211, `Invalid 'To' Phone Number: ${to}`);
  if (!isNumber(from)) return invalid(21212, `Invalid From Number (caller ID): ${from}`);
  if (!rules.numbers.has(from)) {
    return invalid(
      21606,
      `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`,
    );
  }
  if (body.length > MAX_BODY)
    return invalid(21617, 'The concatenated message body exceeds the 1600 character limit.');
  if (callback !== null && !/^https?:\/\/[^\s/]+/.test(callback))
    return invalid(21609, 'Invalid StatusCallback url');
  if (!rules.enabledPrefixes.some((prefix) => to.startsWith(prefix))) {
    return invalid(
      21408,
      `Permission to send an SMS has not been enabled for the region indicated by the 'To' number: ${to}.`,
    );
  }
  if (/^\+33[1-5]/.test(to) || rules.landlines.has(to))
    return invalid(21614, `'To' number ${to} is not a valid mobile number`);
  if (rules.stopped.has(to)) return invalid(21610, 'Attempt to send to unsubscribed recipient');
  const now = new Date();
  const { segments, encoding } = countSegments(body);
  return {
    sid: newSid('SM'),
    accountSid: rules.accountSid,
    to,
    from,
    body,
    status: 'queued',
    errorCode: null,
    numSegments: segments,
    encoding,
    statusCallback: callback,
    dateCreated: now,
    dateUpdated: now,
    dateSent: null,
  };
}

/** The Message resource's JSON, as Twilio answers a create (201) or a fetch (200). */
export function messageJson(message: FakeMessage): Record<string, unknown> {
  const uri = `/${API_VERSION}/Accounts/${message.accountSid}/Messages/${message.sid}`;
  return {
    account_sid: message.accountSid,
    api_version: API_VERSION,
    body: message.body,
    date_created: rfc2822(message.dateCreated),
    date_sent: message.dateSent ? rfc2822(message.dateSent) : null,
    date_updated: rfc2822(message.dateUpdated),
    direction: 'outbound-api',
    error_code: message.errorCode,
    error_message: null,
    from: message.from,
    messaging_service_sid: null,
    num_media: '0',
    num_segments: String(message.numSegments),
    price: null,
    price_unit: 'USD',
    sid: message.sid,
    status: message.status,
    subresource_uris: { media: `${uri}/Media.json`, feedback: `${uri}/Feedback.json` },
    to: message.to,
    uri: `${uri}.json`,
  };
}
