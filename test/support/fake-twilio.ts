import { randomBytes, randomUUID } from 'node:crypto';
import { internalError, notAuthenticated, tooManyRequests, twilioError } from './fake-twilio/errors.ts';
import { API_VERSION, createMessage, type FakeMessage, messageJson, newSid } from './fake-twilio/messages.ts';
import { countSegments } from './fake-twilio/segments.ts';
import { signTwilioRequest } from './fake-twilio/signing.ts';
import { type Answer, basicCredentials, type Call, startLoopback } from './shop-http.ts';

export type { FakeMessage } from './fake-twilio/messages.ts';
export { countSegments } from './fake-twilio/segments.ts';

/**
 * A faithful fake of Twilio Programmable Messaging on 127.0.0.1, for the SMS adapter's tests:
 * `POST /2010-04-01/Accounts/{Sid}/Messages.json` with HTTP Basic, Twilio's validations and error
 * bodies (20003, 21211, 21212, 21602, 21603, 21604, 21606, 21408, 21610, 21614, 21617; 20429 when
 * throttled; 500/503 on demand), the 201 Message resource (num_segments by GSM-7/UCS-2 rules), a
 * fetch (`GET …/Messages/{Sid}.json`), then the StatusCallback posts (`sent`, then `delivered`, or
 * `undelivered` with the ErrorCode set for the number) and inbound texts, all signed with
 * X-Twilio-Signature over the public URL. Inbound STOP/START keywords block and unblock the number
 * as Twilio's default opt-out handling does (the text is still forwarded).
 */
export interface FakeTwilioOptions {
  accountSid?: string;
  authToken?: string;
  /** The account's SMS-capable numbers (the first is `fake.number`). */
  numbers?: string[];
  /** Countries SMS may go to (geo permissions); France and its neighbours by default. */
  enabledPrefixes?: string[];
  /** Messages the account may create per second (Twilio's API concurrency/queue limit); null: no limit. */
  ratePerSecond?: number | null;
  /** A `Retry-After` on the 429 (Twilio does not promise one); null: none. */
  retryAfterSeconds?: number | null;
  /** Delay before each status callback. */
  callbackDelayMs?: number;
  /**
   * The delivery reports wait for `deliverReports()` (a test first records the message's SID, as
   * the service does once Twilio answered, then lets the carrier answer).
   */
  holdReports?: boolean;
  /**
   * Where a public URL is actually reached (the deployment's reverse proxy): Twilio signs the URL
   * it was given, and the tests' app listens on the loopback behind it. Identity by default.
   */
  reach?: (url: URL) => URL;
}

export interface CallbackRecord {
  url: string;
  fields: Record<string, string>;
  signature: string;
  status: number | null;
  contentType: string | null;
  body: string;
}

type FinalOutcome = { status: 'delivered' } | { status: 'undelivered'; errorCode: 30003 | 30005 | 30006 };

const STOP_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
const START_KEYWORDS = ['START', 'YES', 'UNSTOP'];

export async function startFakeTwilio(options: FakeTwilioOptions = {}) {
  const accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const numbers = new Set(options.numbers ?? ['+33757000001']);
  const stopped = new Set<string>();
  const landlines = new Set<string>();
  const outcomes = new Map<string, FinalOutcome>();
  const messages: FakeMessage[] = [];
  const requests: Call[] = [];
  const callbacks: CallbackRecord[] = [];
  const pending = new Set<Promise<void>>();
  const held: FakeMessage[] = [];
  const reach = options.reach ?? ((url: URL) => url);
  const failures: (500 | 503)[] = [];
  let delayMs = 0;
  let rate = options.ratePerSecond ?? null;
  let tokens = Math.max(1, rate ?? 0);
  let refilledAt = Date.now();

  const throttled = (): boolean => {
    if (rate === null) return false;
    const now = Date.now();
    // A bucket of at least one message, refilled at `rate` a second (below 1: one every 1/rate s).
    tokens = Math.min(Math.max(1, rate), tokens + ((now - refilledAt) / 1000) * rate);
    refilledAt = now;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  };

  async function route(call: Call): Promise<Answer> {
    requests.push(call);
    const credentials = basicCredentials(call.headers.authorization);
    if (credentials?.user !== accountSid || credentials.password !== authToken)
      return notAuthenticated(credentials !== null);
    const path = call.url.pathname;
    const list = new RegExp(`^/${API_VERSION}/Accounts/([^/]+)/Messages\\.json$`).exec(path);
    const one = new RegExp(`^/${API_VERSION}/Accounts/([^/]+)/Messages/([^/]+)\\.json$`).exec(path);
    const sid = list?.[1] ?? one?.[1];
    if (sid !== accountSid) return twilioError(404, 20404, `The requested resource ${path} was not found`);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const failure = failures.shift();
    if (failure) return internalError(failure);
    if (one && call.method === 'GET') {
      const message = messages.find((m) => m.sid === one[2]);
      return message
        ? json(200, messageJson(message))
        : twilioError(404, 20404, `The requested resource ${path} was not found`);
    }
    if (!list || call.method !== 'POST') return twilioError(405, 20004, 'Method not allowed');
    if (throttled()) return tooManyRequests(options.retryAfterSeconds ?? null);
    const created = createMessage(
      {
        accountSid,
        numbers,
        enabledPrefixes: options.enabledPrefixes ?? DEFAULT_PREFIXES,
        stopped,
        landlines,
      },
      new URLSearchParams(call.body),
    );
    if ('status' in created && typeof created.status === 'number') return created as Answer;
    const message = created as FakeMessage;
    messages.push(message);
    if (options.holdReports) held.push(message);
    else track(progress(message));
    return json(201, messageJson(message));
  }

  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  /** Twilio's StatusCallback: `sent` once handed to the carrier, then the carrier's final word. */
  async function progress(message: FakeMessage): Promise<void> {
    const outcome = outcomes.get(message.to) ?? { status: 'delivered' };
    await pause(options.callbackDelayMs ?? 5);
    message.status = 'sent';
    message.dateSent = message.dateUpdated = new Date();
    await statusCallback(message);
    await pause(options.callbackDelayMs ?? 5);
    message.status = outcome.status;
    message.errorCode = outcome.status === 'undelivered' ? outcome.errorCode : null;
    message.dateUpdated = new Date();
    await statusCallback(message);
  }

  async function statusCallback(message: FakeMessage): Promise<void> {
    if (!message.statusCallback) return;
    await post(message.statusCallback, {
      AccountSid: message.accountSid,
      ApiVersion: API_VERSION,
      ...(message.errorCode !== null ? { ErrorCode: String(message.errorCode) } : {}),
      From: message.from,
      MessageSid: message.sid,
      MessageStatus: message.status,
      ...(message.status === 'delivered' ? { RawDlrDoneDate: dlrDate(message.dateUpdated) } : {}),
      SmsSid: message.sid,
      SmsStatus: message.status,
      To: message.to,
    });
  }

  /** One signed form POST to our service, as Twilio makes it (15 s, no redirects followed). */
  async function post(url: string, fields: Record<string, string>): Promise<CallbackRecord> {
    const signature = signTwilioRequest(authToken, url, fields);
    const record: CallbackRecord = { url, fields, signature, status: null, contentType: null, body: '' };
    callbacks.push(record);
    try {
      const response = await fetch(reach(new URL(url)), {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'user-agent': 'TwilioProxy/1.1',
          'x-twilio-signature': signature,
          'i-twilio-idempotency-token': randomUUID(),
        },
        body: new URLSearchParams(fields).toString(),
      });
      record.status = response.status;
      record.contentType = response.headers.get('content-type');
      record.body = await response.text();
    } catch (err) {
      record.body = String(err);
    }
    return record;
  }

  const server = await startLoopback(route);
  return {
    accountSid,
    authToken,
    /** The account's first number: the From of the service. */
    number: [...numbers][0]!,
    baseUrl: `http://127.0.0.1:${server.port}`,
    messages,
    /** Every API request received, authenticated or not. */
    requests,
    /** Every signed POST the fake made to the service (status callbacks, inbound texts). */
    callbacks,
    /** The carrier's final answer for texts to `to`: delivered by default. */
    outcomeFor(to: string, errorCode: 30003 | 30005 | 30006 | null) {
      outcomes.set(to, errorCode === null ? { status: 'delivered' } : { status: 'undelivered', errorCode });
    },
    /** A number Twilio's lookup knows is a landline (21614 at creation). */
    landline(to: string) {
      landlines.add(to);
    },
    /** Whether Twilio blocks texts to the number (it answered STOP). */
    isStopped: (to: string) => stopped.has(to),
    /** The next API calls answer this server error, one each. */
    failNext(...statuses: (500 | 503)[]) {
      failures.push(...statuses);
    },
    /** Every API answer waits this long first (timeouts). */
    delay(ms: number) {
      delayMs = ms;
    },
    /** Messages per second from now on (null: no limit); the bucket starts full. */
    throttle(perSecond: number | null) {
      rate = perSecond;
      tokens = Math.max(1, perSecond ?? 0);
      refilledAt = Date.now();
    },
    /**
     * A text from `from` to the service's number, posted to `url` (the number's "A message comes
     * in" webhook) with Twilio's fields, after Twilio's own keyword handling.
     */
    async inbound(url: string, text: { from: string; body: string; to?: string }): Promise<CallbackRecord> {
      const keyword = text.body.trim().toUpperCase();
      let optOutType: string | null = null;
      if (STOP_KEYWORDS.includes(keyword)) {
        stopped.add(text.from);
        optOutType = 'STOP';
      } else if (START_KEYWORDS.includes(keyword)) {
        stopped.delete(text.from);
        optOutType = 'START';
      } else if (keyword === 'HELP' || keyword === 'INFO') optOutType = 'HELP';
      const sid = newSid('SM');
      return post(url, {
        AccountSid: accountSid,
        ApiVersion: API_VERSION,
        Body: text.body,
        From: text.from,
        FromCity: '',
        FromCountry: 'FR',
        FromState: '',
        FromZip: '',
        MessageSid: sid,
        NumMedia: '0',
        NumSegments: String(countSegments(text.body).segments),
        ...(optOutType ? { OptOutType: optOutType } : {}),
        ReferralNumMedia: '0',
        SmsMessageSid: sid,
        SmsSid: sid,
        SmsStatus: 'received',
        To: text.to ?? [...numbers][0]!,
        ToCity: '',
        ToCountry: 'FR',
        ToState: '',
        ToZip: '',
      });
    },
    /** A signed POST of any fields to any URL (a replay, a report for another message). */
    post,
    /** With `holdReports`: the held messages' reports are posted now; resolves once answered. */
    async deliverReports(): Promise<void> {
      for (const message of held.splice(0)) track(progress(message));
      while (pending.size > 0) await Promise.all([...pending]);
    },
    /** Resolves once every status callback started so far has been answered. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close(): Promise<void> {
      await Promise.allSettled([...pending]);
      await server.close();
    },
  };
}

export type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;

const DEFAULT_PREFIXES = ['+33', '+32', '+41', '+352', '+377', '+49', '+34', '+39', '+44', '+1'];

const json = (status: number, body: unknown): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The carrier's done date of a delivery receipt: YYMMDDhhmm. */
const dlrDate = (date: Date) =>
  date.toISOString().replace(/^\d\d(\d\d)-(\d\d)-(\d\d)T(\d\d):(\d\d).*$/, '$1$2$3$4$5');
