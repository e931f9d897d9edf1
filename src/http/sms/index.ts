import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TwilioConfig } from '../../config.ts';
import type { ReportOutcome, SmsDeliveryReports } from '../../domain/recipients/sms-delivery-reports.ts';
import type { SmsReplies } from '../../domain/recipients/sms-replies.ts';
import { AppError, invalidField } from '../../errors.ts';
import { type FormParams, formParams, isTwilioSignature } from './twilio-signature.ts';

export { SMS_PREFIX } from './paths.ts';

export interface SmsWebhooksContext {
  twilio: Pick<TwilioConfig, 'authToken'>;
  /** PUBLIC_BASE_URL: the origin Twilio called, which it signed. */
  publicBaseUrl: string;
  smsDeliveryReports: SmsDeliveryReports;
  smsReplies: SmsReplies;
}

/** A delivery report or a text is a few hundred bytes; Twilio's longest inbound SMS is 1600 characters. */
const BODY_LIMIT = 16 * 1024;
const MESSAGE_SID = /^(SM|MM)[0-9a-f]{32}$/;
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
/** Hidden from the OpenAPI documents; the signature is the credential (checked in the handler). */
const ROUTE = { config: { auth: 'none' as const }, schema: { hide: true }, bodyLimit: BODY_LIMIT };

/**
 * `/sms/twilio/*`: what Twilio posts back (decision 0007) — the delivery reports of the messages
 * we sent (`status`, our StatusCallback) and the texts recipients send to the service's number
 * (`inbound`, set as the number's "A message comes in" webhook). Each is signed by Twilio with the
 * auth token (X-Twilio-Signature); an unsigned or wrongly signed request changes nothing and gets 403.
 */
export function twilioWebhooks(ctx: SmsWebhooksContext) {
  return async (app: FastifyInstance) => {
    // Twilio posts forms. Read as text here: the signature covers the fields as sent, and the
    // fields are only read once it holds (the API's JSON parser is dropped: JSON gets 415).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, typeof body === 'string' ? body : body.toString('utf8')),
    );

    const signedParams = (request: FastifyRequest): FormParams => {
      const params = formParams(typeof request.body === 'string' ? request.body : '');
      const header = request.headers['x-twilio-signature'];
      const signature = typeof header === 'string' ? header : undefined;
      // The URL Twilio was given (PUBLIC_BASE_URL), not the one this process listens on behind a proxy.
      const url = `${ctx.publicBaseUrl}${request.url}`;
      if (!isTwilioSignature(ctx.twilio.authToken, signature, url, params))
        throw new AppError('invalid_signature', 'The request is not signed by Twilio (X-Twilio-Signature).');
      return params;
    };

    app.post('/twilio/status', ROUTE, async (request, reply) => {
      const params = signedParams(request);
      const sid = required(params, 'MessageSid');
      const status = required(params, 'MessageStatus');
      const outcome = await applyStatus(ctx.smsDeliveryReports, sid, status, field(params, 'ErrorCode'));
      request.log.info({ outcome, status }, 'twilio delivery report');
      return reply.code(200).send({ ok: true, outcome });
    });

    app.post('/twilio/inbound', ROUTE, async (request, reply) => {
      const params = signedParams(request);
      const from = required(params, 'From');
      // The text itself is neither logged nor kept: only whether it was a keyword.
      const outcome = await ctx.smsReplies.received(from, field(params, 'Body') ?? '');
      request.log.info({ outcome }, 'twilio inbound sms');
      return twiml(reply);
    });
  };
}

/**
 * Twilio's MessageStatus in our terms: `delivered` is final and good; `undelivered` and `failed`
 * final and bad (ErrorCode says why: 30003 unreachable, 30005 unknown number, 30006 landline…);
 * the others (queued, sending, sent, accepted, scheduled…) are on the way and change nothing.
 * `ignored`: no notification was waiting under that SID (not ours, or already settled).
 */
async function applyStatus(
  reports: SmsDeliveryReports,
  sid: string,
  status: string,
  errorCode: string | undefined,
): Promise<'delivered' | 'failed' | 'held' | 'unchanged' | 'ignored'> {
  // Only a message SID can name one of ours (what we keep is the SID Twilio gave when it queued it).
  if (!MESSAGE_SID.test(sid)) return 'ignored';
  const named = (outcome: ReportOutcome, as: 'delivered' | 'failed') =>
    outcome === 'settled' ? as : outcome;
  if (status === 'delivered') return named(await reports.delivered(sid), 'delivered');
  if (status === 'undelivered' || status === 'failed') {
    const detail = `twilio ${errorCode && /^\d{1,10}$/.test(errorCode) ? errorCode : status}`;
    return named(await reports.failed(sid, detail), 'failed');
  }
  return 'unchanged';
}

function field(params: FormParams, name: string): string | undefined {
  return params.get(name)?.[0];
}

function required(params: FormParams, name: string): string {
  const value = field(params, name);
  if (value === undefined || value === '') throw invalidField(name, 'is required');
  if (value.length > 200) throw invalidField(name, 'must be at most 200 characters');
  return value;
}

function twiml(reply: FastifyReply): FastifyReply {
  return reply.code(200).type('text/xml; charset=utf-8').send(EMPTY_TWIML);
}
