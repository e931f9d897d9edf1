import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsError } from '../src/domain/recipients/ports.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import {
  atTheDoor,
  BASE,
  eventsOf,
  mailsTo,
  notificationsOf,
  optOutSource,
  queuedNotifications,
  type RecipientsStage,
  rawHeader,
  recipientsStage,
  roundOf,
  runNotifications,
  runNotifyJob,
  setRecipientSettings,
  toTheStreet,
  uniqueRecipient,
} from './support/recipients.ts';
import { runDlv } from './support/run-cli.ts';

let s: RecipientsStage;
beforeAll(async () => {
  s = await recipientsStage();
});
afterAll(() => s.close());

async function orderFor(brand: TestBrand, email: string, extra: object = {}): Promise<string> {
  s.setNow('2026-11-24T09:00:00Z');
  const created = await createOrder(s.app, brand, { ...VALID_ORDER, delivery_email: email, ...extra });
  expect(created.statusCode).toBe(200);
  return created.data.trackingRef;
}

const linkIn = (text: string, path: RegExp) => text.match(path)?.[0] ?? null;

describe('recipient e-mails', () => {
  it('each step reaches the SMTP server at its move, in the brand’s name and colour, with working links', async () => {
    const brand = await createBrandWithKey(s.deps, { name: 'Maison Éole' });
    await setRecipientSettings(s.deps, brand.brandId, {
      emailSteps: ['confirmed', 'out_for_delivery', 'delivered', 'failed_attempt'],
      senderName: 'Éole Paris',
      colour: '#0f766e',
      locale: 'en',
    });
    const to = uniqueRecipient();
    const ahead = [await orderFor(brand, uniqueRecipient()), await orderFor(brand, uniqueRecipient())];
    const ref = await orderFor(brand, to);
    await runNotifications(s.deps, brand.brandId);

    // Created pending with its promised day: confirmed.
    let mails = await mailsTo(s, to);
    expect(mails).toHaveLength(1);
    const confirmed = mails[0]!;
    expect(confirmed.subject).toBe('Maison Éole: your delivery is confirmed');
    expect(confirmed.from?.value[0]).toEqual({ name: 'Éole Paris', address: 'no-reply@livraison-dlv.fr' });
    expect(confirmed.text).toContain('will be delivered on Wednesday 25 November');
    expect(confirmed.html).toContain('background:#0f766e');
    expect(confirmed.html).toContain('Maison Éole');
    const tracking = linkIn(confirmed.text!, /https:\/\/dlv\.example\.com\/track\/[A-Za-z0-9_-]+/)!;
    expect(confirmed.html).toContain(`href="${tracking}"`);
    const page = await s.app.inject({ method: 'GET', url: tracking.slice(BASE.length) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(ref);
    expect(rawHeader(confirmed.raw, 'List-Unsubscribe')).toMatch(
      /^<https:\/\/dlv\.example\.com\/unsubscribe\/[A-Za-z0-9_-]{66}>$/,
    );
    expect(rawHeader(confirmed.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(rawHeader(confirmed.raw, 'Content-Type')).toMatch(/^multipart\/alternative/);

    // Picked up and at the hub: nothing to tell. Loaded third on the round: a window.
    s.setNow('2026-11-25T17:00:00Z');
    await roundOf(s.deps, '2026-11-25', [...ahead, ref]);
    await toTheStreet(s.deps, [...ahead, ref], '2026-11-25', '09:07');
    await runNotifications(s.deps, brand.brandId);
    mails = await mailsTo(s, to);
    expect(mails).toHaveLength(2);
    // The round's arrival times (docs/arrival-times.md): left at 09:07, two stops of 4 minutes
    // ahead at the same point (no travel): 09:15. The window opens half an hour before, but never
    // before the departure's quarter hour: 09:00–11:00.
    expect(mails[1]!.subject).toBe('Maison Éole: your parcel arrives today');
    expect(mails[1]!.text).toContain('between 09:00 and 11:00');

    // Missed: the link to choose another day.
    await atTheDoor(s.deps, ref, '2026-11-25T12:40:00+01:00', 'failed_attempt');
    await runNotifications(s.deps, brand.brandId);
    mails = await mailsTo(s, to);
    expect(mails).toHaveLength(3);
    expect(mails[2]!.subject).toBe('Maison Éole: we could not deliver your parcel');
    expect(mails[2]!.text).toContain(`${tracking}/change`);
    expect(mails[2]!.html).toContain(`href="${tracking}/change"`);

    // The next day, without a round: the day only; then delivered, with the tracking link.
    s.setNow('2026-11-26T17:00:00Z');
    await s.deps.scans.apply({ courierId: null, locale: 'en', by: testOperator }, [
      { id: crypto.randomUUID(), context: 'loading', code: ref, happened_at: '2026-11-26T09:00:00+01:00' },
    ]);
    await atTheDoor(s.deps, ref, '2026-11-26T11:20:00+01:00', 'delivered');
    await runNotifications(s.deps, brand.brandId);
    mails = await mailsTo(s, to);
    expect(mails.map((m) => m.subject)).toEqual([
      'Maison Éole: your delivery is confirmed',
      'Maison Éole: your parcel arrives today',
      'Maison Éole: we could not deliver your parcel',
      'Maison Éole: your parcel arrives today',
      'Maison Éole: your parcel has been delivered',
    ]);
    expect(mails[3]!.text).toContain('Our courier is on the way');
    expect(mails[4]!.text).toContain('handed over on Thursday 26 November at 11:20');
    expect(mails[4]!.html).toContain(`href="${tracking}"`);

    const rows = await notificationsOf(s.deps, ref);
    expect(rows.filter((r) => r.channel === 'email').map((r) => [r.step, r.status])).toEqual([
      ['confirmed', 'sent'],
      ['out_for_delivery', 'sent'],
      ['failed_attempt', 'sent'],
      ['out_for_delivery', 'sent'],
      ['delivered', 'sent'],
    ]);
    // The SMTP Message-ID is kept; the SMS steps are off (the default).
    const sentIds = rows.filter((r) => r.channel === 'email').map((r) => r.provider_id);
    expect(sentIds).toEqual(mails.map((m) => m.messageId));
    expect(rows.filter((r) => r.channel === 'sms').map((r) => [r.status, r.detail])).toEqual(
      Array(5).fill(['skipped', 'off']),
    );
  });

  it('by default: no confirmation (nothing written at creation), e-mail on the street’s steps, in French', async () => {
    const brand = await createBrandWithKey(s.deps, { name: 'Boutique Défaut' });
    const customer = uniqueRecipient();
    const ref = await orderFor(brand, '', { customer_email: customer, delivery_email: undefined });
    expect(await eventsOf(s.deps, brand.brandId)).toEqual([]);
    s.setNow('2026-11-25T17:00:00Z');
    await toTheStreet(s.deps, [ref], '2026-11-25');
    expect(await queuedNotifications(s.deps, brand.brandId)).toBeGreaterThan(0);
    await runNotifications(s.deps, brand.brandId);
    // No delivery e-mail: the customer's.
    const mails = await mailsTo(s, customer);
    expect(mails.map((m) => m.subject)).toEqual(['Boutique Défaut : votre colis arrive aujourd’hui']);
    expect(mails[0]!.from?.value[0]?.name).toBe('Boutique Défaut');
    // Loaded without a round: the day only.
    expect(mails[0]!.text).toContain('votre colis Boutique Défaut arrive aujourd’hui');
    expect(mails[0]!.html).toContain('background:#2f5bea');
    // Moves that tell nothing (picked up, at the hub) record nothing.
    expect((await notificationsOf(s.deps, ref)).map((r) => [r.step, r.channel, r.status])).toEqual([
      ['out_for_delivery', 'email', 'sent'],
      ['out_for_delivery', 'sms', 'skipped'],
    ]);
  });

  it('an order awaiting its address is confirmed when the address is completed, not before', async () => {
    const brand = await createBrandWithKey(s.deps, { name: 'Adresse Plus Tard' });
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed'] });
    const to = uniqueRecipient();
    s.setNow('2026-11-24T09:00:00Z');
    const { delivery_address: _, ...withoutAddress } = VALID_ORDER;
    const created = await createOrder(s.app, brand, { ...withoutAddress, delivery_email: to });
    expect(created.data.order.status).toBe('awaiting_address');
    await runNotifications(s.deps, brand.brandId);
    expect(await mailsTo(s, to)).toEqual([]);
    const completed = await s.app.inject({
      method: 'PATCH',
      url: `/public/v1/orders/${created.data.trackingRef}`,
      headers: brand.headers,
      payload: { delivery_address: '3 avenue Foch 94300 Vincennes' },
    });
    expect(completed.statusCode).toBe(200);
    await runNotifications(s.deps, brand.brandId);
    expect((await mailsTo(s, to)).map((m) => m.subject)).toEqual([
      'Adresse Plus Tard : votre livraison est confirmée',
    ]);
  });

  it('unsubscribing from the e-mail’s link (GET shows a button, POST opts out): later steps send nothing', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed', 'out_for_delivery'] });
    const to = uniqueRecipient();
    const ref = await orderFor(brand, to);
    await runNotifications(s.deps, brand.brandId);
    const [mail] = await mailsTo(s, to);
    const link = linkIn(mail!.text!, /https:\/\/dlv\.example\.com\/unsubscribe\/[A-Za-z0-9_-]+/)!;
    expect(mail!.html).toContain(`href="${link}"`);
    const path = link.slice(BASE.length);
    const optOuts = () => optOutSource(s.deps, 'email', to);

    const shown = await s.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'en' } });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<button type="submit">Unsubscribe me</button>');
    expect(shown.body).not.toContain(to);
    expect(await optOuts()).toBeNull();

    const posted = await s.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'confirm=yes',
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(path);
    expect(await optOuts()).toBe('link');
    const done = await s.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'fr' } });
    expect(done.body).toContain('Vous êtes désabonné');
    expect(done.body).not.toContain('<button');

    s.setNow('2026-11-25T17:00:00Z');
    await toTheStreet(s.deps, [ref], '2026-11-25');
    await runNotifications(s.deps, brand.brandId);
    expect(await mailsTo(s, to)).toHaveLength(1);
    const rows = await notificationsOf(s.deps, ref);
    expect(rows.find((r) => r.step === 'out_for_delivery' && r.channel === 'email')).toMatchObject({
      status: 'skipped',
      detail: 'opted_out',
    });
    // For every brand: another brand's order to the same address (any case) gets nothing either.
    const other = await createBrandWithKey(s.deps);
    const otherRef = await orderFor(other, to.toUpperCase());
    s.setNow('2026-11-25T17:00:00Z');
    await toTheStreet(s.deps, [otherRef], '2026-11-25');
    await runNotifications(s.deps, other.brandId);
    expect(await mailsTo(s, to)).toHaveLength(1);
    expect((await notificationsOf(s.deps, otherRef))[0]).toMatchObject({
      status: 'skipped',
      detail: 'opted_out',
    });
  });

  it('one-click unsubscribe (RFC 8058): a form or multipart POST of List-Unsubscribe=One-Click', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed'] });
    const [a, b] = [uniqueRecipient(), uniqueRecipient()];
    await orderFor(brand, a);
    await orderFor(brand, b);
    await runNotifications(s.deps, brand.brandId);
    const pathOf = async (to: string) =>
      rawHeader((await mailsTo(s, to))[0]!.raw, 'List-Unsubscribe')!
        .slice(1, -1)
        .slice(BASE.length);
    const sourceOf = (to: string) => optOutSource(s.deps, 'email', to);

    const form = await s.app.inject({
      method: 'POST',
      url: await pathOf(a),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(form.statusCode).toBe(200);
    expect(await sourceOf(a)).toBe('one_click');

    const boundary = `----dlv${randomBytes(6).toString('hex')}`;
    const multipart = await s.app.inject({
      method: 'POST',
      url: await pathOf(b),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);
    expect(await sourceOf(b)).toBe('one_click');
  });

  it('one-click multipart is read by a multipart parser: part headers and a bare name are fine; a file or a cut body records nothing', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed'] });
    const to = uniqueRecipient();
    await orderFor(brand, to);
    await runNotifications(s.deps, brand.brandId);
    const path = rawHeader((await mailsTo(s, to))[0]!.raw, 'List-Unsubscribe')!
      .slice(1, -1)
      .slice(BASE.length);
    const source = () => optOutSource(s.deps, 'email', to);
    const boundary = `dlv${randomBytes(6).toString('hex')}`;
    const post = (payload: string) =>
      s.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': `multipart/form-data; boundary="${boundary}"`, 'accept-language': 'en' },
        payload,
      });

    // A body cut before its closing delimiter is not a form (RFC 2046 §5.1.1): nothing recorded.
    const cut = await post(
      `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n`,
    );
    expect(cut.statusCode).toBe(400);
    expect(await source()).toBeNull();
    // RFC 8058 §3.2 posts a field, not a file of that name.
    const file = await post(
      `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"; filename="x.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    );
    expect(file.statusCode).toBe(400);
    expect(await source()).toBeNull();
    // Past 2 KB, as for a url-encoded form.
    const big = await post(
      `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="pad"\r\n\r\n${'x'.repeat(3000)}\r\n--${boundary}--\r\n`,
    );
    expect(big.statusCode).toBe(400);
    expect(await source()).toBeNull();
    // A token (unquoted) name, a part's own Content-Type, a preamble and another field are all RFC 7578.
    const form = await post(
      `preamble\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8; name="other"\r\n` +
        `Content-Disposition: form-data; name=List-Unsubscribe\r\n\r\nOne-Click\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="client"\r\n\r\nexample\r\n--${boundary}--\r\n`,
    );
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('You are unsubscribed');
    expect(await source()).toBe('one_click');
  });

  it('a brand whose shop tells its customers, or an order from a shop link that notifies: nothing', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { shopNotifies: true });
    const to = uniqueRecipient();
    const ref = await orderFor(brand, to);
    s.setNow('2026-11-25T17:00:00Z');
    await toTheStreet(s.deps, [ref], '2026-11-25');
    // Nobody listens: no event, no job, no row.
    expect(await eventsOf(s.deps, brand.brandId)).toEqual([]);
    expect(await notificationsOf(s.deps, ref)).toEqual([]);

    const linked = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, linked.brandId, { emailSteps: ['confirmed', 'out_for_delivery'] });
    const shopped = uniqueRecipient();
    const shopRef = await orderFor(linked, shopped);
    const connectionId = `con_${randomBytes(8).toString('hex')}`;
    await s.pool.query(
      `INSERT INTO connector_connections (id, brand_id, platform, shop, status, credentials, notify_customer, created_at, updated_at)
       VALUES ($1, $2, 'woocommerce', $3, 'active', '\\x00', true, now(), now())`,
      [connectionId, linked.brandId, `https://${connectionId}.example.com`],
    );
    await s.pool.query(
      `INSERT INTO connector_orders (connection_id, external_id, order_id, tracking_ref, created_at)
       SELECT $1, '1001', id, tracking_ref, now() FROM orders WHERE tracking_ref = $2`,
      [connectionId, shopRef],
    );
    s.setNow('2026-11-25T17:00:00Z');
    await toTheStreet(s.deps, [shopRef], '2026-11-25');
    await runNotifications(s.deps, linked.brandId);
    // The confirmation is ours to send (no platform sends it); the rest, the shop's.
    expect((await mailsTo(s, shopped)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/votre livraison est confirmée$/),
    ]);
    expect(
      (await notificationsOf(s.deps, shopRef))
        .filter((r) => r.step === 'out_for_delivery')
        .map((r) => r.detail),
    ).toEqual(['shop_notifies', 'shop_notifies']);
  });

  it('a retried job continues its row and never sends twice', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed'] });
    const to = uniqueRecipient();
    const ref = await orderFor(brand, to);
    const [event] = await eventsOf(s.deps, brand.brandId);
    // The same job where the SMTP server does not answer: it throws (the queue retries), the row waits.
    const down = await recipientsStage({
      config: { databaseUrl: s.databaseUrl, smtpUrl: 'smtp://127.0.0.1:9' },
    });
    try {
      await expect(runNotifyJob(down.deps, event!.id)).rejects.toThrow();
    } finally {
      await down.close();
    }
    expect((await notificationsOf(s.deps, ref)).map((r) => [r.channel, r.status])).toEqual([
      ['email', 'sending'],
      ['sms', 'skipped'],
    ]);
    await runNotifyJob(s.deps, event!.id);
    await runNotifyJob(s.deps, event!.id);
    expect(await mailsTo(s, to)).toHaveLength(1);
    expect((await notificationsOf(s.deps, ref)).map((r) => [r.channel, r.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'skipped'],
    ]);

    // On its last attempt, a failure is recorded: nothing stays "sending" for good.
    const last = uniqueRecipient();
    const lastRef = await orderFor(brand, last);
    const lastEvent = (await eventsOf(s.deps, brand.brandId)).at(-1)!;
    const dead = await recipientsStage({
      config: { databaseUrl: s.databaseUrl, smtpUrl: 'smtp://127.0.0.1:9' },
    });
    try {
      await runNotifyJob(dead.deps, lastEvent.id, { attempts: 25, max_attempts: 25 });
    } finally {
      await dead.close();
    }
    expect((await notificationsOf(s.deps, lastRef))[0]).toMatchObject({ channel: 'email', status: 'failed' });
  });
});

describe('a moved arrival window (order.eta_changed)', () => {
  // Three real addresses of the 11th (test/fixtures/addresses/paris.csv), given as the brand's points.
  const POINTS = [
    { address: '5 Rue Keller', lat: 48.85459, lng: 2.376377 },
    { address: '46 Rue de la Folie-Méricourt', lat: 48.864441, lng: 2.371098 },
    { address: '19 Rue de la Roquette', lat: 48.854437, lng: 2.372542 },
  ];

  /** A round of three leaving at 09:00, then its first delivery at 11:20: the last window moves. */
  async function lateRound(brand: TestBrand, day: string, email: string, phone: string) {
    const refs = [];
    for (const [i, p] of POINTS.entries())
      refs.push(
        await orderFor(brand, i === 2 ? email : uniqueRecipient(), {
          delivery_address: `${p.address} 75011 Paris`,
          delivery_lat: p.lat,
          delivery_lng: p.lng,
          delivery_phone: i === 2 ? phone : '06 12 34 56 78',
        }),
      );
    s.setNow(`${day}T07:30:00Z`);
    await roundOf(s.deps, day, refs);
    await toTheStreet(s.deps, refs, day, '09:00');
    await runNotifications(s.deps, brand.brandId);
    s.setNow(`${day}T10:21:00Z`);
    await atTheDoor(s.deps, refs[0]!, `${day}T11:20:00+01:00`, 'delivered');
    await runNotifications(s.deps, brand.brandId);
    return refs[2]!;
  }

  it('tells the recipient the new window when the brand chose that step (e-mail and SMS, in French)', async () => {
    const brand = await createBrandWithKey(s.deps, { name: 'Café Keller' });
    await setRecipientSettings(s.deps, brand.brandId, {
      emailSteps: ['out_for_delivery', 'eta_changed'],
      smsSteps: ['eta_changed'],
      locale: 'fr',
    });
    const to = uniqueRecipient();
    const phone = `+3361${String(Date.now()).slice(-7)}`;
    const ref = await lateRound(brand, '2026-11-30', to, phone);

    const moved = (await eventsOf(s.deps, brand.brandId)).filter((e) => e.type === 'order.eta_changed');
    expect(moved.length).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo(s, to);
    expect(mails.map((m) => m.subject)).toEqual([
      'Café Keller : votre colis arrive aujourd’hui',
      'Café Keller : nouvel horaire de livraison',
    ]);
    const [told, now] = [mails[0]!.text!, mails[1]!.text!].map((t) =>
      t.match(/entre (\d\dh\d\d) et (\d\dh\d\d)/),
    );
    expect(now, mails[1]!.text).not.toBeNull();
    // The new window is the one the event announced: later than the first by 30 minutes or more.
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    expect(minutes(now![1]!) - minutes(told![1]!)).toBeGreaterThanOrEqual(30);
    expect(mails[1]!.text).toContain('Notre livreur passera finalement aujourd’hui entre');
    expect(mails[1]!.html).toContain('Votre livraison change d’horaire');
    const sms = s.sms.sent.filter((m) => m.to === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toMatch(
      /^Café Keller : votre colis arrivera finalement aujourd'hui entre \d\dh\d\d et \d\dh\d\d\. Suivi : https:/,
    );
    const rows = await notificationsOf(s.deps, ref);
    expect(rows.filter((r) => r.step === 'eta_changed').map((r) => [r.channel, r.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'sent'],
    ]);
  });

  it('tells nobody when the brand left the step off (the default): no job, the webhook event only', async () => {
    const brand = await createBrandWithKey(s.deps, { name: 'Sans Horaire' });
    const to = uniqueRecipient();
    const ref = await lateRound(brand, '2026-12-01', to, `+3362${String(Date.now()).slice(-7)}`);
    expect((await mailsTo(s, to)).map((m) => m.subject)).toEqual([
      'Sans Horaire : votre colis arrive aujourd’hui',
    ]);
    expect((await notificationsOf(s.deps, ref)).some((r) => r.step === 'eta_changed')).toBe(false);
    expect(await queuedNotifications(s.deps, brand.brandId)).toBe(0);
  });
});

describe('SMTP refusals (RFC 5321 §4.2.1: 5yz permanent, 4yz transient)', () => {
  /** The brand's e-mail confirmation to `to`, and its event (whose job has not run). */
  async function confirmationTo(to: string) {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed'] });
    const ref = await orderFor(brand, to);
    const [event] = await eventsOf(s.deps, brand.brandId);
    return { brand, ref, eventId: event!.id };
  }

  /** The order's "Messages to the recipient" as a user of the brand sees it. */
  async function messagesSection(brandId: string, ref: string, ip: string) {
    const user = await createUser(s.deps, { brandId });
    const b = new Browser(s.app, ip);
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const page = await b.get(`/account/orders/${ref}`);
    expect(page.status).toBe(200);
    const section = page.body.slice(page.body.indexOf('Messages to the recipient'));
    return section.slice(0, section.indexOf('</section>'));
  }

  it('550 at RCPT: failed on the first attempt with the server’s reply, in the account area and dlv recipients notifications', async () => {
    const to = uniqueRecipient();
    s.smtp.refuse(to, 550, `5.1.1 <${to}>: Recipient address rejected: User unknown`);
    const { brand, ref, eventId } = await confirmationTo(to);
    // The first of 25 attempts: nothing to retry, the job ends.
    await runNotifyJob(s.deps, eventId, { attempts: 1, max_attempts: 25 });
    const reply = '550 5.1.1 <…>: Recipient address rejected: User unknown';
    expect((await notificationsOf(s.deps, ref)).map((r) => [r.channel, r.status, r.detail])).toEqual([
      ['email', 'failed', reply],
      ['sms', 'skipped', 'off'],
    ]);
    expect(await mailsTo(s, to)).toEqual([]);
    // A retry the queue had already planned finds it decided, and sends nothing.
    await runNotifyJob(s.deps, eventId, { attempts: 2, max_attempts: 25 });
    expect((await notificationsOf(s.deps, ref))[0]).toMatchObject({ status: 'failed', detail: reply });

    const section = await messagesSection(brand.brandId, ref, '10.9.0.36');
    expect(section).toMatch(
      /<td>E-mail<\/td><td>Failed <span class="muted">\(550 5\.1\.1 &lt;…&gt;: Recipient address rejected: User unknown\)<\/span><\/td>/,
    );
    expect(section).not.toContain(to);

    const cli = await runDlv(['recipients', 'notifications', ref, '--json'], {
      DATABASE_URL: s.databaseUrl,
      LOG_LEVEL: 'silent',
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).notifications[0]).toMatchObject({
      channel: 'email',
      status: 'failed',
      detail: reply,
    });
  }, 60_000);

  it('451 at RCPT: retried (the row says why meanwhile), and sent once the server takes it', async () => {
    const to = uniqueRecipient();
    s.smtp.refuse(to, 451, '4.2.0 Mailbox busy, try again later');
    const { brand, ref, eventId } = await confirmationTo(to);
    await expect(runNotifyJob(s.deps, eventId, { attempts: 1, max_attempts: 25 })).rejects.toThrow(
      /^451 4\.2\.0 Mailbox busy, try again later$/,
    );
    expect((await notificationsOf(s.deps, ref))[0]).toMatchObject({
      channel: 'email',
      status: 'sending',
      detail: '451 4.2.0 Mailbox busy, try again later',
    });
    expect(await messagesSection(brand.brandId, ref, '10.9.0.37')).toMatch(
      /<td>E-mail<\/td><td>Sending <span class="muted">\(will retry: 451 4\.2\.0 Mailbox busy, try again later\)<\/span><\/td>/,
    );

    s.smtp.accept(to);
    await runNotifyJob(s.deps, eventId, { attempts: 2, max_attempts: 25 });
    const [row] = await notificationsOf(s.deps, ref);
    expect(row).toMatchObject({ channel: 'email', status: 'sent', detail: null });
    const mails = await mailsTo(s, to);
    expect(mails).toHaveLength(1);
    expect(row!.provider_id).toBe(mails[0]!.messageId);
  });
});

describe('recipient SMS', () => {
  it('go through the SMS sender: brand first, GSM-7, one message; transient errors retry, permanent ones fail', async () => {
    const brand = await createBrandWithKey(s.deps, { name: 'Café Noé' });
    await setRecipientSettings(s.deps, brand.brandId, {
      emailSteps: [],
      smsSteps: ['out_for_delivery', 'failed_attempt', 'delivered'],
    });
    const phone = `+3361${String(randomBytes(3).readUIntBE(0, 3) % 10_000_000).padStart(7, '0')}`;
    const ref = await orderFor(brand, uniqueRecipient(), { delivery_phone: phone });
    s.setNow('2026-11-25T17:00:00Z');
    await toTheStreet(s.deps, [ref], '2026-11-25');
    // Throttled: the job throws, the queue will retry; the retry sends once.
    s.sms.failWith(new SmsError('Too Many Requests', false, '20429'));
    const moves = (await eventsOf(s.deps, brand.brandId)).filter((e) => e.type === 'order.status_changed');
    const out = moves.at(-1)!;
    await expect(runNotifyJob(s.deps, out.id)).rejects.toThrow('Too Many Requests');
    await runNotifyJob(s.deps, out.id);
    await runNotifyJob(s.deps, out.id);
    const mine = () => s.sms.sent.filter((m) => m.to === phone);
    expect(mine()).toHaveLength(1);
    const [sms] = mine();
    expect(sms!.from).toBe('+33757000000');
    expect(sms!.text).toMatch(
      /^Café Noé : votre colis arrive aujourd'hui\. Suivi : https:\/\/dlv\.example\.com\/track\/\S+$/,
    );
    expect(sms!.text.length).toBeLessThanOrEqual(160);
    expect((await notificationsOf(s.deps, ref)).map((r) => [r.channel, r.status, r.detail])).toEqual([
      ['email', 'skipped', 'off'],
      ['sms', 'sent', null],
    ]);

    // The number answered STOP at the provider: failed for good, and opted out here too — by the
    // provider's adapter, which knows its codes (sms-twilio-sender.test.ts), as this sender does.
    s.sms.failWith(new SmsError('Attempt to send to unsubscribed recipient', true, '21610'), (sms) =>
      s.deps.recipientOptOuts.optOut('sms', sms.to, 'sms_stop'),
    );
    await atTheDoor(s.deps, ref, '2026-11-25T12:00:00+01:00', 'failed_attempt');
    await runNotifications(s.deps, brand.brandId);
    const failed = (await notificationsOf(s.deps, ref)).filter((r) => r.step === 'failed_attempt');
    expect(failed.find((r) => r.channel === 'sms')).toMatchObject({
      status: 'failed',
      detail: '21610: Attempt to send to unsubscribed recipient',
    });
    expect(await s.deps.recipientOptOuts.isOptedOut('sms', phone)).toBe(true);
    s.setNow('2026-11-26T17:00:00Z');
    await s.deps.scans.apply({ courierId: null, locale: 'en', by: testOperator }, [
      { id: crypto.randomUUID(), context: 'loading', code: ref, happened_at: '2026-11-26T09:00:00+01:00' },
    ]);
    await runNotifications(s.deps, brand.brandId);
    expect(mine()).toHaveLength(1);
    expect((await notificationsOf(s.deps, ref)).at(-1)).toMatchObject({
      channel: 'sms',
      detail: 'opted_out',
    });
  });
});

describe('the account area’s order page', () => {
  it('lists the messages to the recipient: step, channel, status and time, never the address', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed', 'out_for_delivery'] });
    const to = uniqueRecipient();
    const ref = await orderFor(brand, to, { delivery_phone: '06 12 34 56 78' });
    await runNotifications(s.deps, brand.brandId);
    const user = await createUser(s.deps, { brandId: brand.brandId });
    const b = new Browser(s.app, '10.9.0.1');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const page = await b.get(`/account/orders/${ref}`);
    expect(page.status).toBe(200);
    const section = page.body.slice(page.body.indexOf('Messages to the recipient'));
    expect(section).toMatch(/<td>Delivery confirmed<\/td><td>E-mail<\/td><td>Sent<\/td>/);
    expect(section).toMatch(
      /<td>Delivery confirmed<\/td><td>SMS<\/td><td>Not sent <span class="muted">\(step turned off\)<\/span><\/td>/,
    );
    expect(section.slice(0, section.indexOf('</section>'))).not.toContain(to);

    const none = await orderFor(brand, uniqueRecipient());
    await s.pool.query(
      'DELETE FROM recipient_notifications WHERE order_id = (SELECT id FROM orders WHERE tracking_ref = $1)',
      [none],
    );
    expect((await b.get(`/account/orders/${none}`)).body).toContain('No message was sent to the recipient');
  });
});
