import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, OptOuts } from '../src/domain/recipients/ports.ts';
import { SmsError } from '../src/domain/recipients/ports.ts';
import { jsonRequester } from '../src/infra/http/json-request.ts';
import { outboundClient } from '../src/infra/http/outbound-client.ts';
import { twilioSmsSender } from '../src/infra/sms/twilio-sms-sender.ts';
import { type FakeTwilio, startFakeTwilio } from './support/fake-twilio.ts';

/** The Twilio adapter against the fake Twilio on the loopback, through the real outbound client. */
const CALLBACK = 'https://sms.example.test/sms/twilio/status';
const MOBILE = '+33612345678';

let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio({ holdReports: true });
});
afterAll(() => fake.close());

function optOutsInTest() {
  const list: { channel: Channel; address: string; source: string }[] = [];
  const optOuts: Pick<OptOuts, 'optOut'> = {
    async optOut(channel, address, source) {
      list.push({ channel, address, source });
    },
  };
  return { list, optOuts };
}

function sender(options: { authToken?: string; timeoutMs?: number; apiBase?: string } = {}) {
  const recorded = optOutsInTest();
  const send = twilioSmsSender({
    accountSid: fake.accountSid,
    authToken: options.authToken ?? fake.authToken,
    apiBase: options.apiBase ?? fake.baseUrl,
    statusCallbackUrl: CALLBACK,
    request: jsonRequester(outboundClient({ allowInsecure: true, publicRule: 'test' })),
    optOuts: recorded.optOuts,
    timeoutMs: options.timeoutMs,
  });
  return { ...send, optedOut: recorded.list };
}

async function refusal(promise: Promise<unknown>): Promise<SmsError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SmsError);
  return err as SmsError;
}

describe('the Twilio SMS sender', () => {
  it('creates the message as Twilio documents it and resolves with its SID', async () => {
    const before = fake.requests.length;
    const { providerId } = await sender().send({
      to: MOBILE,
      from: fake.number,
      text: 'Maison Test: votre colis arrive',
    });
    expect(providerId).toMatch(/^SM[0-9a-f]{32}$/);
    const message = fake.messages.find((m) => m.sid === providerId)!;
    expect(message).toMatchObject({ to: MOBILE, from: fake.number, body: 'Maison Test: votre colis arrive' });
    expect(message.statusCallback).toBe(CALLBACK);
    const request = fake.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`,
    );
    expect([...new URLSearchParams(request.body).keys()].sort()).toEqual([
      'Body',
      'From',
      'StatusCallback',
      'To',
    ]);
  });

  it('is refused for good with wrong credentials (20003)', async () => {
    const err = await refusal(
      sender({ authToken: '0'.repeat(32) }).send({ to: MOBILE, from: fake.number, text: 'x' }),
    );
    expect(err).toMatchObject({ permanent: true, providerCode: '20003', retryAfterMs: null });
    expect(err.message).toContain('authentication failed');
  });

  it.each([
    ['an invalid number', '+3361', '21211'],
    ['a country not enabled on the account', '+81312345678', '21408'],
    ['a French landline', '+33142000000', '21614'],
  ])(
    'refuses %s for good, with Twilio’s code and without the number in its words',
    async (_label, to, code) => {
      const err = await refusal(sender().send({ to, from: fake.number, text: 'x' }));
      expect(err).toMatchObject({ permanent: true, providerCode: code });
      expect(err.message).not.toContain(to);
    },
  );

  it('refuses a From that is not the account’s (21606) and an empty text (21602) for good', async () => {
    expect(await refusal(sender().send({ to: MOBILE, from: '+33757999999', text: 'x' }))).toMatchObject({
      permanent: true,
      providerCode: '21606',
    });
    expect(await refusal(sender().send({ to: MOBILE, from: fake.number, text: '' }))).toMatchObject({
      permanent: true,
      providerCode: '21602',
    });
  });

  it('keeps as an opt-out a number Twilio refuses because it answered STOP (21610)', async () => {
    const number = '+33698765432';
    // The recipient's STOP reaches Twilio first (its own keyword handling blocks the number).
    await fake.inbound('http://127.0.0.1:9/unreachable', { from: number, body: 'STOP' });
    expect(fake.isStopped(number)).toBe(true);
    const send = sender();
    const err = await refusal(send.send({ to: number, from: fake.number, text: 'x' }));
    expect(err).toMatchObject({ permanent: true, providerCode: '21610' });
    expect(send.optedOut).toEqual([{ channel: 'sms', address: number, source: 'sms_stop' }]);
  });

  it('passes on throttling (429, 20429) with Retry-After for the job to try again later, which then passes', async () => {
    const throttled = await startFakeTwilio({ ratePerSecond: 1 / 3, retryAfterSeconds: 3 });
    try {
      const send = twilioSmsSender({
        accountSid: throttled.accountSid,
        authToken: throttled.authToken,
        apiBase: throttled.baseUrl,
        statusCallbackUrl: CALLBACK,
        request: jsonRequester(outboundClient({ allowInsecure: true, publicRule: 'test' })),
        optOuts: optOutsInTest().optOuts,
      });
      await send.send({ to: MOBILE, from: throttled.number, text: 'one' });
      const err = await refusal(send.send({ to: MOBILE, from: throttled.number, text: 'two' }));
      expect(err).toMatchObject({ permanent: false, providerCode: '20429', retryAfterMs: 3000 });
      // As the job would: after the wait Twilio asked for, the same message goes through.
      await new Promise((resolve) => setTimeout(resolve, err.retryAfterMs!));
      expect((await send.send({ to: MOBILE, from: throttled.number, text: 'two' })).providerId).toMatch(
        /^SM/,
      );
      expect(throttled.messages.map((m) => m.body)).toEqual(['one', 'two']);
    } finally {
      await throttled.close();
    }
  });

  it('passes on Twilio’s own failures (500, 503) and sends on the next try', async () => {
    fake.failNext(503, 500);
    const send = sender();
    expect(await refusal(send.send({ to: MOBILE, from: fake.number, text: 'x' }))).toMatchObject({
      permanent: false,
      providerCode: '20503',
    });
    expect(await refusal(send.send({ to: MOBILE, from: fake.number, text: 'x' }))).toMatchObject({
      permanent: false,
      providerCode: '20500',
    });
    expect((await send.send({ to: MOBILE, from: fake.number, text: 'x' })).providerId).toMatch(/^SM/);
  });

  it('passes on no answer: nothing listening, or no answer in time', async () => {
    const down = await startFakeTwilio();
    const base = down.baseUrl;
    await down.close();
    const refused = await refusal(
      sender({ apiBase: base }).send({ to: MOBILE, from: fake.number, text: 'x' }),
    );
    expect(refused).toMatchObject({ permanent: false, providerCode: null });
    expect(refused.message).toMatch(/^Twilio unreachable: connect ECONNREFUSED/);

    fake.delay(3000);
    try {
      const late = await refusal(
        sender({ timeoutMs: 300 }).send({ to: MOBILE, from: fake.number, text: 'x' }),
      );
      expect(late).toMatchObject({ permanent: false });
      expect(late.message).toBe('Twilio unreachable: no answer within 300 ms');
    } finally {
      fake.delay(0);
    }
  });

  it('treats an acceptance it cannot read as final: sending again could text the recipient twice', async () => {
    const send = twilioSmsSender({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiBase: fake.baseUrl,
      statusCallbackUrl: CALLBACK,
      request: async () => ({ status: 201, retryAfter: null, text: '<html>OK</html>' }),
      optOuts: optOutsInTest().optOuts,
    });
    expect(await refusal(send.send({ to: MOBILE, from: fake.number, text: 'x' }))).toMatchObject({
      permanent: true,
    });
  });
});
