import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createPool } from '../src/db/pool.ts';
import { recipientNotificationsRepository } from '../src/db/repositories/recipient-notifications-repository.ts';
import { createDeps } from '../src/deps.ts';
import { loggerOptions } from '../src/http/shared/logging.ts';
import { buildTestApp, call, createBrandWithKey, type TestApp, testConfig } from './support/app.ts';
import { type FakeTwilio, startFakeTwilio } from './support/fake-twilio.ts';
import { createOrder } from './support/orders.ts';
import { optOutSource } from './support/recipients.ts';

/**
 * Twilio's webhooks end to end: the service sends through the fake Twilio, which posts the
 * delivery reports and the recipients' texts back to the service listening on the loopback behind
 * its public URL (Twilio signs the public URL; a reverse proxy forwards to the app).
 */
const PUBLIC = 'https://sms.example.test';
const STATUS_URL = `${PUBLIC}/sms/twilio/status`;
const INBOUND_URL = `${PUBLIC}/sms/twilio/inbound`;

let t: TestApp;
let fake: FakeTwilio;
let appOrigin = '';
let orderId: string;

beforeAll(async () => {
  fake = await startFakeTwilio({
    holdReports: true,
    reach: (url) => new URL(`${url.pathname}${url.search}`, appOrigin),
  });
  t = await buildTestApp({
    config: {
      publicBaseUrl: PUBLIC,
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
  const brand = await createBrandWithKey(t.deps);
  const order = await createOrder(t.app, brand);
  expect(order.statusCode).toBe(200);
  const { rows } = await t.pool.query<{ id: string }>('SELECT id FROM orders WHERE tracking_ref = $1', [
    order.data.trackingRef,
  ]);
  orderId = rows[0]!.id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** An SMS notification as the notifications job leaves it: inserted `sending`, then `sent` with Twilio's SID. */
async function sentNotification(to: string): Promise<{ id: string; sid: string }> {
  const id = `ntf_${randomBytes(8).toString('hex')}`;
  await t.pool.query(
    `INSERT INTO recipient_notifications (id, order_id, event_id, step, channel, status)
     VALUES ($1, $2, $3, 'out_for_delivery', 'sms', 'sending')`,
    [id, orderId, `evt_${randomBytes(8).toString('hex')}`],
  );
  const { providerId } = await t.deps.smsSender.send({
    to,
    from: fake.number,
    text: 'Maison Test: en route',
  });
  await t.pool.query(`UPDATE recipient_notifications SET status = 'sent', provider_id = $2 WHERE id = $1`, [
    id,
    providerId,
  ]);
  return { id, sid: providerId };
}

async function notification(id: string) {
  const { rows } = await t.pool.query<{ status: string; detail: string | null }>(
    'SELECT status, detail FROM recipient_notifications WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

async function optOut(number: string) {
  return optOutSource(t.deps, 'sms', number);
}

/** A signed form POST through inject, as Twilio would make it to the public URL. */
function signedPost(url: string, fields: Record<string, string>, signature?: string) {
  return call(t.app, {
    method: 'POST',
    url: new URL(url).pathname,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(fake.authToken, url, fields),
    },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe('POST /sms/twilio/status', () => {
  it('moves a sent SMS to delivered on Twilio’s report', async () => {
    const { id, sid } = await sentNotification('+33612000001');
    await fake.deliverReports();
    const reports = fake.callbacks.filter((c) => c.fields.MessageSid === sid);
    expect(reports.map((c) => [c.fields.MessageStatus, c.status, c.body])).toEqual([
      ['sent', 200, '{"ok":true,"outcome":"unchanged"}'],
      ['delivered', 200, '{"ok":true,"outcome":"delivered"}'],
    ]);
    expect(await notification(id)).toEqual({ status: 'delivered', detail: null });
  });

  it.each([30003, 30005, 30006] as const)(
    'moves it to failed with "twilio %s" when undelivered',
    async (code) => {
      const to = `+336120${code}`;
      fake.outcomeFor(to, code);
      const { id } = await sentNotification(to);
      await fake.deliverReports();
      expect(await notification(id)).toEqual({ status: 'failed', detail: `twilio ${code}` });
    },
  );

  it('changes nothing on queued, sent or accepted, and keeps the first final word', async () => {
    const { id, sid } = await sentNotification('+33612000002');
    for (const status of ['queued', 'sent', 'accepted']) {
      const res = await signedPost(STATUS_URL, {
        MessageSid: sid,
        MessageStatus: status,
        AccountSid: fake.accountSid,
      });
      expect(res.data).toEqual({ ok: true, outcome: 'unchanged' });
    }
    expect((await notification(id)).status).toBe('sent');
    expect((await signedPost(STATUS_URL, { MessageSid: sid, MessageStatus: 'delivered' })).data.outcome).toBe(
      'delivered',
    );
    const late = await signedPost(STATUS_URL, {
      MessageSid: sid,
      MessageStatus: 'failed',
      ErrorCode: '30008',
    });
    expect(late.data.outcome).toBe('ignored');
    expect(await notification(id)).toEqual({ status: 'delivered', detail: null });
  });

  it('answers 200 and ignores what is no message SID', async () => {
    for (const sid of ['SM\u0000', 'file:123-abc.txt']) {
      const res = await signedPost(STATUS_URL, { MessageSid: sid, MessageStatus: 'delivered' });
      expect([res.statusCode, res.data], sid).toEqual([200, { ok: true, outcome: 'ignored' }]);
    }
  });

  it('holds a report that outran its message, and the job applies it when it stores the SID', async () => {
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const early = await signedPost(STATUS_URL, {
      MessageSid: sid,
      MessageStatus: 'undelivered',
      ErrorCode: '30003',
    });
    expect([early.statusCode, early.data]).toEqual([200, { ok: true, outcome: 'held' }]);
    // Sent again by the carrier's retry, or a later final word: the first one stays.
    const again = await signedPost(STATUS_URL, { MessageSid: sid, MessageStatus: 'delivered' });
    expect(again.data.outcome).toBe('ignored');
    // The job stores the SID Twilio gave it: the held report is the notification's outcome.
    const id = `ntf_${randomBytes(8).toString('hex')}`;
    await t.pool.query(
      `INSERT INTO recipient_notifications (id, order_id, event_id, step, channel, status)
       VALUES ($1, $2, $3, 'delivered', 'sms', 'sending')`,
      [id, orderId, `evt_${randomBytes(8).toString('hex')}`],
    );
    await recipientNotificationsRepository(t.pool).settle(id, { status: 'sent', providerId: sid });
    expect(await notification(id)).toEqual({ status: 'failed', detail: 'twilio 30003' });
    const left = await t.pool.query('SELECT 1 FROM sms_early_reports WHERE provider_id = $1', [sid]);
    expect(left.rowCount).toBe(0);
  });

  it('refuses with 403, changing nothing, a report not signed with the auth token over the public URL', async () => {
    const { id, sid } = await sentNotification('+33612000003');
    const fields = { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' };
    const wrongToken = twilio.getExpectedTwilioSignature('0'.repeat(32), STATUS_URL, fields);
    // Signed over the address the app listens on, not the one Twilio was given.
    const internalUrl = twilio.getExpectedTwilioSignature(
      fake.authToken,
      `${appOrigin}/sms/twilio/status`,
      fields,
    );
    const otherFields = twilio.getExpectedTwilioSignature(fake.authToken, STATUS_URL, {
      ...fields,
      ErrorCode: '1',
    });
    for (const signature of [wrongToken, internalUrl, otherFields, '', 'x'.repeat(28)]) {
      const res = await signedPost(STATUS_URL, fields, signature);
      expect(res.statusCode).toBe(403);
      expect(res.data).toMatchObject({ error: 'invalid_signature' });
    }
    const unsigned = await call(t.app, {
      method: 'POST',
      url: '/sms/twilio/status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await notification(id)).status).toBe('sent');
  });

  it('refuses a signed report without its SID or status (400), and JSON (415)', async () => {
    const res = await signedPost(STATUS_URL, { MessageStatus: 'delivered' });
    expect([res.statusCode, res.data.message]).toEqual([400, 'MessageSid: is required']);
    const json = await call(t.app, {
      method: 'POST',
      url: '/sms/twilio/status',
      headers: { 'content-type': 'application/json' },
      payload: '{"MessageSid":"SM1","MessageStatus":"delivered"}',
    });
    expect(json.statusCode).toBe(415);
  });
});

describe('POST /sms/twilio/inbound', () => {
  it('opts the number out on a STOP word and answers an empty TwiML response', async () => {
    const number = '+33613000001';
    const reply = await fake.inbound(INBOUND_URL, { from: number, body: ' Stop ' });
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^text\/xml/);
    expect(reply.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(await optOut(number)).toBe('sms_stop');
  });

  it.each(
    ['STOP', 'stopall', 'ARRET', 'Arrêt', 'unsubscribe', 'Cancel', 'end', 'QUIT', 'stop.'].map((w, i) => [
      w,
      i,
    ]),
  )('takes %j as a STOP word', async (word, i) => {
    const number = `+3361310000${i}`;
    await fake.inbound(INBOUND_URL, { from: number, body: word });
    expect(await optOut(number)).toBe('sms_stop');
  });

  it('keeps no opt-out for other texts', async () => {
    const number = '+33613000002';
    for (const body of ['Stop à 18h svp', 'Merci', 'HELP', ''])
      expect((await fake.inbound(INBOUND_URL, { from: number, body })).status).toBe(200);
    expect(await optOut(number)).toBeNull();
  });

  it('lifts the opt-out on START or UNSTOP, but not the operator’s', async () => {
    const number = '+33613000003';
    await fake.inbound(INBOUND_URL, { from: number, body: 'STOP' });
    expect(await optOut(number)).toBe('sms_stop');
    // Twilio blocks the number too: a message to it is refused with 21610, kept as an opt-out.
    await expect(t.deps.smsSender.send({ to: number, from: fake.number, text: 'x' })).rejects.toMatchObject({
      permanent: true,
      providerCode: '21610',
    });
    await fake.inbound(INBOUND_URL, { from: number, body: 'start' });
    expect(await optOut(number)).toBeNull();
    expect(fake.isStopped(number)).toBe(false);
    await fake.inbound(INBOUND_URL, { from: number, body: 'STOP' });
    await fake.inbound(INBOUND_URL, { from: number, body: 'Unstop' });
    expect(await optOut(number)).toBeNull();

    const kept = '+33613000004';
    await t.deps.recipientOptOuts.optOut('sms', kept, 'operator');
    await fake.inbound(INBOUND_URL, { from: kept, body: 'START' });
    expect(await optOut(kept)).toBe('operator');
  });

  it('records a number Twilio refuses with 21610 as opted out', async () => {
    const number = '+33613000005';
    await fake.inbound('http://127.0.0.1:9/nowhere', { from: number, body: 'STOP' });
    expect(await optOut(number)).toBeNull();
    await expect(t.deps.smsSender.send({ to: number, from: fake.number, text: 'x' })).rejects.toMatchObject({
      providerCode: '21610',
    });
    expect(await optOut(number)).toBe('sms_stop');
  });

  it('refuses an unsigned or wrongly signed text with 403, opting nobody out', async () => {
    const number = '+33613000006';
    const fields = { From: number, Body: 'STOP', To: fake.number, AccountSid: fake.accountSid };
    const wrong = twilio.getExpectedTwilioSignature('0'.repeat(32), INBOUND_URL, fields);
    expect((await signedPost(INBOUND_URL, fields, wrong)).statusCode).toBe(403);
    expect((await signedPost(INBOUND_URL, fields, '')).statusCode).toBe(403);
    expect(await optOut(number)).toBeNull();
    expect((await signedPost(INBOUND_URL, fields)).statusCode).toBe(200);
    expect(await optOut(number)).toBe('sms_stop');
  });
});

describe('the logs', () => {
  it('carry neither the auth token, nor the number, nor the text', async () => {
    const lines: string[] = [];
    const config = testConfig({
      publicBaseUrl: PUBLIC,
      twilio: {
        accountSid: fake.accountSid,
        authToken: fake.authToken,
        from: fake.number,
        apiBase: fake.baseUrl,
      },
    });
    const pool = createPool(config.databaseUrl!, 2);
    const app = await buildApp(createDeps(config, pool), {
      logger: loggerOptions('trace', { write: (line) => lines.push(line) }),
    });
    try {
      const number = '+33614000001';
      const text = 'STOP';
      const fields = { From: number, Body: text, To: fake.number };
      const signature = twilio.getExpectedTwilioSignature(fake.authToken, INBOUND_URL, fields);
      const res = await app.inject({
        method: 'POST',
        url: '/sms/twilio/inbound',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        payload: new URLSearchParams(fields).toString(),
      });
      expect(res.statusCode).toBe(200);
      const log = lines.join('');
      expect(log).toContain('"outcome":"opted_out"');
      for (const secret of [fake.authToken, number.slice(1), text, signature])
        expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await pool.end();
    }
  });
});

describe('without Twilio', () => {
  it('writes the SMS under DATA_DIR/sms and has no SMS webhooks', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'dlv-sms-'));
    const plain = await buildTestApp({ config: { dataDir } });
    try {
      const { providerId } = await plain.deps.smsSender.send({
        to: '+33612345678',
        from: '+33757000001',
        text: 'x',
      });
      expect(await readdir(path.join(dataDir, 'sms'))).toEqual([providerId.replace(/^file:/, '')]);
      expect(plain.app.routeCatalog.filter((r) => r.url.startsWith('/sms'))).toEqual([]);
      const res = await call(plain.app, {
        method: 'POST',
        url: '/sms/twilio/status',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'MessageSid=SM1&MessageStatus=delivered',
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
