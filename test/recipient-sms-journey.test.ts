/**
 * The SMS notifications end to end (issue #28's "done when"): the notifications job sends through
 * the Twilio adapter to the fake Twilio on loopback, which receives the documented form (To, From,
 * Body, StatusCallback) and posts its signed delivery reports back to the service behind its public
 * URL; the recipient answers STOP and gets nothing more, from any brand.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parisToday } from '../src/domain/calendar/paris-time.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { type FakeTwilio, startFakeTwilio } from './support/fake-twilio.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import {
  atTheDoor,
  notificationsOf,
  runNotifications,
  setRecipientSettings,
  toTheStreet,
} from './support/recipients.ts';

const PUBLIC = 'https://sms-journey.example.test';

let t: TestApp;
let fake: FakeTwilio;
let appOrigin = '';

beforeAll(async () => {
  fake = await startFakeTwilio({
    holdReports: true,
    // Twilio posts to the public URL; the reverse proxy in front of the app is this rewrite.
    reach: (url) => new URL(`${url.pathname}${url.search}`, appOrigin),
  });
  t = await buildTestApp({
    config: {
      publicBaseUrl: PUBLIC,
      smsFrom: fake.number,
      twilio: {
        accountSid: fake.accountSid,
        authToken: fake.authToken,
        from: fake.number,
        apiBase: fake.baseUrl,
      },
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  appOrigin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A brand telling its recipients by SMS only, and one of its orders to `phone`. */
async function smsBrandOrder(name: string, phone: string) {
  const brand = await createBrandWithKey(t.deps, { name });
  await setRecipientSettings(t.deps, brand.brandId, {
    emailSteps: [],
    smsSteps: ['out_for_delivery', 'delivered', 'failed_attempt'],
  });
  const created = await createOrder(t.app, brand, { ...VALID_ORDER, delivery_phone: phone });
  expect(created.statusCode, created.body).toBe(200);
  return { brand, ref: created.data.trackingRef as string };
}

const now = () => new Date();
const today = () => parisToday(now());
const minutesAgo = (m: number) => new Date(now().getTime() - m * 60_000).toISOString();

describe('recipient SMS through Twilio', () => {
  it('sends the documented form at out for delivery, records the delivery report, and stops for good on STOP', async () => {
    const phone = '+33612340001';
    const { brand, ref } = await smsBrandOrder('Maison Lumière', phone);
    // Loaded this morning (a scan ahead of the server's clock is taken at the server's time).
    const loaded = await toTheStreet(t.deps, [ref], today(), '08:30');
    expect(loaded.map((r) => r.result)).toEqual(['applied', 'applied', 'applied']);
    expect(await runNotifications(t.deps, brand.brandId)).toBeGreaterThan(0);

    // What Twilio received: the Messages resource's documented form, Basic auth, our callback URL.
    const creates = fake.requests.filter(
      (r) => r.method === 'POST' && r.url.pathname.endsWith('/Messages.json'),
    );
    const form = new URLSearchParams(creates.at(-1)!.body);
    expect(form.get('To')).toBe(phone);
    expect(form.get('From')).toBe(fake.number);
    expect(form.get('StatusCallback')).toBe(`${PUBLIC}/sms/twilio/status`);
    const body = form.get('Body')!;
    expect(body).toContain('Maison Lumi');
    expect(body).toMatch(new RegExp(`${PUBLIC}/track/[\\w-]+`));
    const message = fake.messages.find((m) => m.to === phone)!;
    expect(message.numSegments).toBe(1);

    // The tracking link in the text opens the order's page.
    const link = body.match(new RegExp(`${PUBLIC}(/track/[\\w-]+)`))![1]!;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);

    const smsOf = async (r: string) => (await notificationsOf(t.deps, r)).filter((n) => n.channel === 'sms');
    const [sent] = await smsOf(ref);
    expect(sent).toMatchObject({
      step: 'out_for_delivery',
      channel: 'sms',
      status: 'sent',
      provider_id: message.sid,
    });
    await fake.deliverReports();
    expect((await smsOf(ref))[0]).toMatchObject({ status: 'delivered' });

    // The recipient answers STOP to the service's number: nothing more, from this brand or another.
    const stop = await fake.inbound(`${PUBLIC}/sms/twilio/inbound`, { from: phone, body: 'Stop' });
    expect(stop.status).toBe(200);
    expect(stop.body).toContain('<Response');
    const before = fake.messages.length;
    await atTheDoor(t.deps, ref, minutesAgo(1), 'delivered');
    await runNotifications(t.deps, brand.brandId);
    const other = await smsBrandOrder('Autre Maison', phone);
    await toTheStreet(t.deps, [other.ref], today(), '08:30');
    await runNotifications(t.deps, other.brand.brandId);
    expect(fake.messages.length).toBe(before);
    expect((await smsOf(ref)).at(-1)).toMatchObject({
      step: 'delivered',
      status: 'skipped',
      detail: 'opted_out',
    });
    expect((await smsOf(other.ref)).at(-1)).toMatchObject({
      status: 'skipped',
      detail: 'opted_out',
    });
  });

  it('records a number Twilio cannot text (a landline, 21614) as failed, and sends the e-mail anyway', async () => {
    const phone = '+33140000002';
    fake.landline(phone);
    const { brand, ref } = await smsBrandOrder('Maison Fixe', phone);
    await setRecipientSettings(t.deps, brand.brandId, { emailSteps: ['out_for_delivery'] });
    await toTheStreet(t.deps, [ref], today(), '08:30');
    await runNotifications(t.deps, brand.brandId);
    const rows = await notificationsOf(t.deps, ref);
    expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ status: 'failed' });
    expect(rows.find((r) => r.channel === 'sms')!.detail).toContain('21614');
    expect(rows.find((r) => r.channel === 'email')).toMatchObject({ status: 'sent' });
  });
});
