import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formParams, isTwilioSignature } from '../src/http/sms/twilio-signature.ts';
import { countSegments, type FakeTwilio, startFakeTwilio } from './support/fake-twilio.ts';
import { type Call, startLoopback } from './support/shop-http.ts';

/**
 * The fake Twilio is checked against the official `twilio` library: its client sends messages to
 * the fake and reads the answers as Twilio's, and its validator accepts the fake's signed posts.
 */
let fake: FakeTwilio;
let receiver: Awaited<ReturnType<typeof startLoopback>>;
const received: Call[] = [];
let callbackUrl: string;

beforeAll(async () => {
  fake = await startFakeTwilio();
  receiver = await startLoopback((call) => {
    received.push(call);
    return { status: 200, headers: { 'content-type': 'text/xml' }, body: '<Response/>' };
  });
  callbackUrl = `http://127.0.0.1:${receiver.port}/sms/twilio/status?from=fake`;
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
});

/** The official client, its API domain pointed at the fake (the one base URL its requests are built from). */
function officialClient(authToken = fake.authToken) {
  const client = twilio(fake.accountSid, authToken);
  client.api.baseUrl = fake.baseUrl;
  return client;
}

describe('the fake Twilio, seen by the official client', () => {
  it('creates a message: the client reads the 201 Message resource as Twilio’s', async () => {
    const message = await officialClient().messages.create({
      to: '+33612345678',
      from: fake.number,
      body: 'Maison Test : votre colis arrive entre 14h et 16h',
      statusCallback: callbackUrl,
    });
    expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message).toMatchObject({
      accountSid: fake.accountSid,
      to: '+33612345678',
      from: fake.number,
      status: 'queued',
      numSegments: '1',
      numMedia: '0',
      direction: 'outbound-api',
      apiVersion: '2010-04-01',
      errorCode: null,
      uri: `/2010-04-01/Accounts/${fake.accountSid}/Messages/${message.sid}.json`,
    });
    // RFC 2822 dates, which the client turns into Dates.
    expect(message.dateCreated).toBeInstanceOf(Date);
    expect(Math.abs(message.dateCreated.getTime() - Date.now())).toBeLessThan(60_000);

    await fake.settled();
    const fetched = await officialClient().messages(message.sid).fetch();
    expect(fetched.status).toBe('delivered');
    expect(fetched.dateSent).toBeInstanceOf(Date);
  });

  it('answers errors the client raises as Twilio’s RestException', async () => {
    const bad = await officialClient()
      .messages.create({ to: '+3361', from: fake.number, body: 'x' })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(twilio.RestException);
    expect(bad).toMatchObject({
      status: 400,
      code: 21211,
      moreInfo: 'https://www.twilio.com/docs/errors/21211',
    });

    const denied = await officialClient('f'.repeat(32))
      .messages.create({ to: '+33612345678', from: fake.number, body: 'x' })
      .catch((e: unknown) => e);
    expect(denied).toMatchObject({ status: 401, code: 20003 });

    const noBody = await officialClient()
      .messages.create({ to: '+33612345678', from: fake.number, body: '' })
      .catch((e: unknown) => e);
    expect(noBody).toMatchObject({ status: 400, code: 21602 });
  });

  it('signs its status callbacks so that twilio.validateRequest accepts them, as does our verifier', async () => {
    received.length = 0;
    fake.outcomeFor('+33611111111', 30005);
    const message = await officialClient().messages.create({
      to: '+33611111111',
      from: fake.number,
      body: 'x',
      statusCallback: callbackUrl,
    });
    await fake.settled();
    const posts = received.filter((c) => new URLSearchParams(c.body).get('MessageSid') === message.sid);
    expect(posts.map((c) => new URLSearchParams(c.body).get('MessageStatus'))).toEqual([
      'sent',
      'undelivered',
    ]);
    const final = Object.fromEntries(new URLSearchParams(posts[1]!.body));
    // Twilio's fields, those we do not read too.
    expect(final).toMatchObject({
      AccountSid: fake.accountSid,
      ApiVersion: '2010-04-01',
      ErrorCode: '30005',
      From: fake.number,
      MessageSid: message.sid,
      SmsSid: message.sid,
      SmsStatus: 'undelivered',
      To: '+33611111111',
    });
    for (const post of posts) {
      const signature = post.headers['x-twilio-signature'] as string;
      const fields = Object.fromEntries(new URLSearchParams(post.body));
      expect(twilio.validateRequest(fake.authToken, signature, callbackUrl, fields)).toBe(true);
      expect(twilio.validateRequest('0'.repeat(32), signature, callbackUrl, fields)).toBe(false);
      expect(isTwilioSignature(fake.authToken, signature, callbackUrl, formParams(post.body))).toBe(true);
      expect(post.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    }
  });

  it('signs inbound texts the same way, with Twilio’s fields', async () => {
    received.length = 0;
    const url = `http://127.0.0.1:${receiver.port}/sms/twilio/inbound`;
    await fake.inbound(url, { from: '+33622222222', body: 'Arrêt des SMS merci 🙏' });
    const post = received[0]!;
    const fields = Object.fromEntries(new URLSearchParams(post.body));
    expect(fields).toMatchObject({
      From: '+33622222222',
      To: fake.number,
      Body: 'Arrêt des SMS merci 🙏',
      NumSegments: '1',
      SmsStatus: 'received',
    });
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining(['AccountSid', 'ApiVersion', 'MessageSid', 'SmsSid', 'NumMedia']),
    );
    expect(
      twilio.validateRequest(fake.authToken, post.headers['x-twilio-signature'] as string, url, fields),
    ).toBe(true);
  });
});

describe('our signature verifier', () => {
  it('accepts what twilio.getExpectedTwilioSignature computes, and nothing changed', () => {
    const url = 'https://sms.example.test/sms/twilio/status';
    const body = 'MessageSid=SM0123&MessageStatus=delivered&To=%2B33612345678&Body=a+b%26c%3D%C3%A9';
    const fields = Object.fromEntries(new URLSearchParams(body));
    const signature = twilio.getExpectedTwilioSignature(fake.authToken, url, fields);
    expect(isTwilioSignature(fake.authToken, signature, url, formParams(body))).toBe(true);
    // Twilio may have signed the URL with the scheme's port written out.
    const withPort = twilio.getExpectedTwilioSignature(
      fake.authToken,
      'https://sms.example.test:443/sms/twilio/status',
      fields,
    );
    expect(isTwilioSignature(fake.authToken, withPort, url, formParams(body))).toBe(true);
    expect(
      isTwilioSignature(fake.authToken, signature, url, formParams(body.replace('delivered', 'failed'))),
    ).toBe(false);
    expect(isTwilioSignature(fake.authToken, signature, `${url}?x=1`, formParams(body))).toBe(false);
    expect(isTwilioSignature('0'.repeat(32), signature, url, formParams(body))).toBe(false);
    expect(isTwilioSignature(fake.authToken, undefined, url, formParams(body))).toBe(false);
    expect(isTwilioSignature(fake.authToken, '', url, formParams(body))).toBe(false);
  });
});

describe('segments, as Twilio counts num_segments', () => {
  it.each([
    ['', 'GSM-7', 1],
    ['a'.repeat(160), 'GSM-7', 1],
    ['a'.repeat(161), 'GSM-7', 2],
    ['a'.repeat(306), 'GSM-7', 2],
    ['a'.repeat(307), 'GSM-7', 3],
    // The extension table counts two septets: 80 × "€" is 160 septets, one more is two SMS.
    ['€'.repeat(80), 'GSM-7', 1],
    ['€'.repeat(81), 'GSM-7', 2],
    // An escape pair is never split: 306 septets fit two parts, but "€" after 152 opens the second.
    [`${'a'.repeat(152)}€${'a'.repeat(152)}`, 'GSM-7', 3],
    ['é à ù è ì ò É Ç Ø å Ñ ü ß', 'GSM-7', 1],
    // Lower-case ç is not in the GSM-7 alphabet (only Ç is).
    ['ç', 'UCS-2', 1],
    ['ê'.repeat(70), 'UCS-2', 1],
    ['ê'.repeat(71), 'UCS-2', 2],
    ['ê'.repeat(134), 'UCS-2', 2],
    ['ê'.repeat(135), 'UCS-2', 3],
    // A surrogate pair (an emoji) is two units and is not split: 134 units, yet three parts.
    [`${'a'.repeat(66)}🙂${'a'.repeat(66)}`, 'UCS-2', 3],
  ])('%#: counts %j', (text, encoding, segments) => {
    expect(countSegments(text)).toEqual({ encoding, segments });
  });

  it('gives the created message its count', async () => {
    const message = await officialClient().messages.create({
      to: '+33612345678',
      from: fake.number,
      body: 'ê'.repeat(71),
    });
    expect(message.numSegments).toBe('2');
  });
});
