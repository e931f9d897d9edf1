import { simpleParser } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysOffered } from '../src/domain/recipients/delivery-choices.ts';
import { deliverWebhook } from '../src/jobs/webhooks-deliver.ts';
import { fanOutWebhookEvent } from '../src/jobs/webhooks-fan-out.ts';
import { Browser, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { API, call, createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { waitForLockWaiters } from './support/lock-waiters.ts';
import { createOrder } from './support/orders.ts';
import { buildSelfServiceApp, type SelfServiceTestApp } from './support/self-service.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

/**
 * The recipient changes the delivery on the tracking page (SPEC §10, decision 0007): a code by
 * e-mail (a real SMTP server on loopback) or SMS, then instructions, a safe place, another day;
 * `order.rescheduled` to the brand's endpoint (real HTTP); the courier of that delivery sees it.
 */
let now = new Date('2026-11-24T09:12:00Z'); // Tuesday, 10:12 in Paris
const TODAY = '2026-11-24';
let t: SelfServiceTestApp;
let brand: TestBrand;
let receiver: Receiver;
let secret: string;
let ip = 0;

const RECIPIENT = {
  customer_email: 'buyer.private@example.com',
  delivery_address: '12 rue Oberkampf 75011 Paris',
  delivery_recipient: 'Josephine Secretname',
  delivery_phone: '06 12 34 56 78',
  delivery_email: 'josephine.hidden@example.org',
};
/** What must never be on a page before the code: the recipient's name, address, phone, e-mail. */
const PERSONAL = [
  'Josephine',
  'Secretname',
  'Oberkampf',
  '12 rue',
  '06 12 34 56 78',
  '+33612345678',
  '612345678',
  '5678',
  'josephine.hidden',
  'example.org',
  'buyer.private',
  'example.com',
];

const OPS_TOKEN = 'recipient-self-service-ops-token';

beforeAll(async () => {
  t = await buildSelfServiceApp({
    clock: () => now,
    config: { publicBaseUrl: 'https://suivi.example.fr', webhooksAllowInsecure: true, opsToken: OPS_TOKEN },
  });
  receiver = await startReceiver();
  brand = await createBrandWithKey(t.deps, { name: 'Atelier Lune' });
  secret = (await t.deps.webhooks.add({ brandId: brand.brandId, url: receiver.url() }, testOperator)).secret;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function newOrder(
  body: object = RECIPIENT,
  status: 'pending' | 'picked_up' | 'in_transit' = 'in_transit',
) {
  const res = await createOrder(t.app, brand, body);
  expect(res.statusCode, res.body).toBe(200);
  const ref = res.data.order.tracking_ref as string;
  if (status !== 'pending') await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
  if (status === 'in_transit') await t.deps.orders.setStatus(ref, 'in_transit', null, testOperator);
  const { rows } = await t.pool.query('SELECT id, tracking_token FROM orders WHERE tracking_ref = $1', [ref]);
  return {
    ref,
    id: String(rows[0].id),
    token: rows[0].tracking_token as string,
    base: `/track/${rows[0].tracking_token}`,
  };
}
type TestOrder = Awaited<ReturnType<typeof newOrder>>;

/** A recipient's phone: a browser without JavaScript, from an address of its own. */
const recipient = () => new Browser(t.app, `198.51.100.${++ip}`);

async function askCode(b: Browser, order: TestOrder, channel = 'email') {
  return b.submit(`${order.base}/change`, `${order.base}/code`, { channel });
}
async function verify(b: Browser, order: TestOrder, code: string) {
  return b.submit(`${order.base}/change?sent=email`, `${order.base}/verify`, { code });
}
/** Through the code, by e-mail: the browser then holds the recipient's session. */
async function signIn(b: Browser, order: TestOrder) {
  expect((await askCode(b, order)).status).toBe(303);
  const res = await verify(b, order, (await t.lastCode(RECIPIENT.delivery_email))!);
  expect(res.status, res.body).toBe(303);
}
const footprint = async (order: TestOrder) => {
  const { rows } = await t.pool.query(
    `SELECT to_char(o.promised_date, 'YYYY-MM-DD') AS promised, json_array_length(o.history) AS events,
       (SELECT count(*)::int FROM recipient_choices c WHERE c.order_id = o.id) AS choices,
       (SELECT count(*)::int FROM recipient_codes c WHERE c.order_id = o.id) AS codes,
       (SELECT count(*)::int FROM recipient_notifications n WHERE n.order_id = o.id) AS notifications,
       (SELECT count(*)::int FROM outbox_events e WHERE e.type = 'order.rescheduled' AND e.data->'order'->>'tracking_ref' = o.tracking_ref) AS rescheduled
     FROM orders o WHERE o.id = $1`,
    [order.id],
  );
  return rows[0];
};
const noPersonalData = (body: string, step: string) => {
  for (const secretText of PERSONAL) expect(body, `${step}: ${secretText}`).not.toContain(secretText);
};

describe('the whole flow', () => {
  it('code by e-mail → wrong code → right code → new day, instructions and safe place → webhook, rounds, courier', async () => {
    const order = await newOrder();
    const other = await newOrder({ ...RECIPIENT, delivery_address: '9 rue Oberkampf 75011 Paris' });
    const before = await footprint(order);
    expect(before.promised).toBe('2026-11-25');
    const oldDay = '2026-11-25';
    // Already planned on the promised day's round, before another parcel: it must leave that round.
    const oldRound = await t.deps.rounds.create(
      {
        date: oldDay,
        name: `SS-${order.id}`,
        stops: [{ tracking_ref: order.ref }, { tracking_ref: other.ref }],
      },
      testOperator,
    );

    const b = recipient();
    const tracking = await b.get(order.base);
    expect(tracking.body).toContain(`href="${order.base}/change?lang=en"`);
    expect(tracking.body).toContain('Change my delivery');

    const door = await b.get(`${order.base}/change`);
    expect(door.status).toBe(200);
    expect(door.body).toContain('By text message, to the phone number given with the order');
    expect(door.body).toContain('By e-mail, to the address given with the order');
    noPersonalData(door.body, 'door');

    const sent = await askCode(b, order, 'email');
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`${order.base}/change?lang=en&sent=email`);
    const code = (await t.lastCode(RECIPIENT.delivery_email))!;
    expect(code).toMatch(/^\d{6}$/);
    const mail = await simpleParser(t.smtp.inbox.at(-1)!.raw);
    expect(mail.subject).toBe('Your code for the Atelier Lune delivery');
    expect(mail.from?.value[0]?.name).toBe('Atelier Lune');
    expect(mail.html).toContain(code);
    // The recipient asked for it: no unsubscribe header on a code.
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    const { rows: notes } = await t.pool.query(
      'SELECT step, channel, status, event_id, provider_id FROM recipient_notifications WHERE order_id = $1',
      [order.id],
    );
    expect(notes).toEqual([
      { step: 'code', channel: 'email', status: 'sent', event_id: null, provider_id: mail.messageId },
    ]);
    const { rows: codes } = await t.pool.query(
      'SELECT code_hash, attempts, expires_at FROM recipient_codes WHERE order_id = $1',
      [order.id],
    );
    expect(codes).toHaveLength(1);
    expect(codes[0].code_hash.toString('hex')).not.toContain(code);
    expect(codes[0].expires_at.toISOString()).toBe('2026-11-24T09:22:00.000Z');

    const entry = await b.get(sent.location!);
    expect(entry.body).toContain('A code was sent to you by e-mail. It is valid for 10 minutes.');
    expect(entry.body).not.toContain(code);
    noPersonalData(entry.body, 'code entry');

    const wrong = await verify(b, order, code === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('That is not the right code. Tries left: 4.');
    expect(wrong.body).toContain('A code was sent to you by e-mail.');
    // Its language switch (a link to the page's own URL) leads back to the self-service.
    const switched = await b.get(`${order.base}/verify?lang=fr`);
    expect(switched.status).toBe(303);
    expect(switched.location).toBe(`${order.base}/change?lang=fr`);
    expect(wrong.body).not.toContain(code);
    noPersonalData(wrong.body, 'wrong code');
    expect(b.cookies.has('dlv_recipient')).toBe(false);

    const right = await verify(b, order, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(right.status).toBe(303);
    expect(right.location).toBe(`${order.base}/change?lang=en`);
    const cookie = right.setCookies.find((c) => c.startsWith('dlv_recipient='))!;
    expect(cookie).toMatch(new RegExp(`Path=${order.base}(;|$)`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Secure/); // PUBLIC_BASE_URL is https
    expect(cookie).toMatch(/Max-Age=1800/);

    const form = await b.get(right.location!);
    expect(form.status).toBe(200);
    const days = daysOffered('2026-11-25', TODAY);
    expect(days).toEqual(['2026-11-26', '2026-11-27', '2026-11-30', '2026-12-01', '2026-12-02']);
    for (const day of days) expect(form.body).toContain(`value="${day}"`);
    expect(form.body).toContain('Keep the planned day (Wednesday 25 November)');

    const newDay = days[2]!;
    const saved = await b.submit(right.location!, `${order.base}/change`, {
      date: newDay,
      instructions: 'Code 4821B, 3rd floor, left door',
      safe_place: 'caretaker',
      safe_place_detail: 'Mr Dupont, at the lodge',
    });
    expect(saved.status, saved.body).toBe(303);
    expect(saved.location).toBe(`${order.base}/change?lang=en&saved=1&day=${newDay}`);
    const after = await b.get(saved.location!);
    expect(after.body).toContain('Your choices are saved. New delivery day: Monday 30 November.');
    expect(after.body).toContain('Code 4821B, 3rd floor, left door');
    // A day in the query that is no date is not worded (nor a failure).
    for (const day of ['2026-13-45', '2026-02-30', 'x'])
      expect((await b.get(`${order.base}/change?saved=1&day=${day}`)).body).toContain(
        'Your choices are saved.</p>',
      );

    // The order: its new day in the API, the same in its stored JSON (list) and its history.
    const detail = await call(t.app, {
      method: 'GET',
      url: `${API}/orders/${order.ref}`,
      headers: brand.headers,
    });
    expect(detail.data.order.promised_date).toBe(newDay);
    expect(detail.data.order.price_eur).toBe(
      (await call(t.app, { method: 'GET', url: `${API}/orders/${other.ref}`, headers: brand.headers })).data
        .order.price_eur,
    );
    const list = await call(t.app, { method: 'GET', url: `${API}/orders?limit=5`, headers: brand.headers });
    expect(
      list.data.orders.find((o: { tracking_ref: string }) => o.tracking_ref === order.ref).promised_date,
    ).toBe(newDay);
    expect(detail.data.order.events.at(-1).note).toBe(
      `Delivery day moved from 2026-11-25 to ${newDay} by the recipient`,
    );
    expect(detail.data.order.status).toBe('in_transit');
    // Its stored JSON (decision 0002) was rendered with the change: fresh, not left to the refresh job.
    const { rows: json } = await t.pool.query('SELECT json_version, json_rest FROM orders WHERE id = $1', [
      order.id,
    ]);
    expect(json[0].json_version).not.toBeNull();
    expect(json[0].json_rest).toContain(`"promised_date":"${newDay}"`);

    // Sealed at rest: the words are not in the row.
    const { rows: stored } = await t.pool.query('SELECT * FROM recipient_choices WHERE order_id = $1', [
      order.id,
    ]);
    expect(stored[0].safe_place).toBe('caretaker');
    const row =
      JSON.stringify(stored[0]) +
      stored[0].instructions_sealed.toString('latin1') +
      stored[0].safe_place_sealed.toString('latin1');
    for (const words of ['4821B', 'floor', 'Dupont', 'lodge']) expect(row).not.toContain(words);

    // order.rescheduled: written once, delivered signed to the brand's endpoint.
    const { rows: events } = await t.pool.query(
      `SELECT id, data FROM outbox_events WHERE type = 'order.rescheduled' AND data->'order'->>'tracking_ref' = $1`,
      [order.ref],
    );
    expect(events).toHaveLength(1);
    const [deliveryId] = await fanOutWebhookEvent(t.deps, events[0].id);
    expect(await deliverWebhook(t.deps, deliveryId!)).toBe('succeeded');
    const hook = receiver.received.find(
      (r) => r.json.type === 'order.rescheduled' && r.json.data.order.tracking_ref === order.ref,
    )!;
    // Signed as Standard Webhooks says (at the test clock's time, so checked without the freshness rule).
    const signedAt = new Date(Number(hook.headers['webhook-timestamp']) * 1000);
    expect(hook.headers['webhook-signature']).toContain(
      new Webhook(secret).sign(hook.headers['webhook-id']!, signedAt, hook.body),
    );
    expect(hook.json.data.previous_promised_date).toBe('2026-11-25');
    expect(hook.json.data.changed_by).toBe('recipient');
    expect(hook.json.data.order.promised_date).toBe(newDay);
    expect(hook.json.data.order.status).toBe('in_transit');
    expect(JSON.stringify(hook.json)).not.toMatch(/4821B|Dupont/);

    // The old day's round lost the stop (never scanned), the other parcel now first.
    const round = await t.deps.rounds.get(oldRound.id, testOperator);
    expect(round.stops.map((s) => [s.position, s.kind === 'delivery' ? s.order.tracking_ref : null])).toEqual(
      [[1, other.ref]],
    );
    // The old round no longer has the stop, nor its words.
    expect(JSON.stringify(round)).not.toMatch(/4821B|Dupont/);

    // The courier of that delivery sees them; another courier of the same day does not.
    const newRound = await t.deps.rounds.create(
      {
        date: newDay,
        name: `SS-A-${order.id}`,
        stops: [{ tracking_ref: order.ref }, { tracking_ref: other.ref }],
      },
      testOperator,
    );
    const third = await newOrder();
    const otherRound = await t.deps.rounds.create(
      {
        date: newDay,
        name: `SS-B-${order.id}`,
        stops: [{ tracking_ref: third.ref }],
      },
      testOperator,
    );
    const a = await courier();
    const c = await courier();
    await t.deps.rounds.assign(newRound.id, a.id, testOperator);
    await t.deps.rounds.assign(otherRound.id, c.id, testOperator);
    const dayOfA = JSON.parse((await a.b.get(`/courier/api/v1/day?date=${newDay}`)).body);
    const stops = dayOfA.rounds[0].stops;
    expect(stops[0].order).toMatchObject({
      tracking_ref: order.ref,
      instructions: 'Code 4821B, 3rd floor, left door',
      safe_place: { kind: 'caretaker', detail: 'Mr Dupont, at the lodge' },
    });
    expect(stops[1].order).toMatchObject({ tracking_ref: other.ref, instructions: null, safe_place: null });
    const dayOfC = (await c.b.get(`/courier/api/v1/day?date=${newDay}`)).body;
    expect(dayOfC).toContain(third.ref);
    expect(dayOfC, `${order.ref} ${third.ref} ${other.ref}`).not.toContain(order.ref);
    expect(dayOfC).not.toMatch(/4821B|Dupont/);
    // The operator sees them too (docs/recipients.md: who sees them), in the listing and the round,
    // through the ops API as through the service; an order without choices says null.
    const ops = await t.deps.rounds.list(newDay, testOperator);
    const listed = ops.find((r) => r.id === newRound.id)!;
    expect(
      listed.stops.map((s) => (s.kind === 'delivery' ? [s.order.instructions, s.order.safe_place] : null)),
    ).toEqual([
      ['Code 4821B, 3rd floor, left door', { kind: 'caretaker', detail: 'Mr Dupont, at the lodge' }],
      [null, null],
    ]);
    const api = await t.app.inject({
      method: 'GET',
      url: `/ops/v1/rounds/${newRound.id}`,
      headers: { authorization: `Bearer ${OPS_TOKEN}` },
    });
    expect(api.statusCode).toBe(200);
    expect(api.json().round.stops[0].order).toMatchObject({
      instructions: 'Code 4821B, 3rd floor, left door',
      safe_place: { kind: 'caretaker', detail: 'Mr Dupont, at the lodge' },
    });
  });

  it('by SMS: the code goes to the order’s phone, never shown on the page', async () => {
    const order = await newOrder();
    const b = recipient();
    const sent = await askCode(b, order, 'sms');
    expect(sent.status).toBe(303);
    const sms = t.sms.sent.at(-1)!;
    expect(sms).toMatchObject({ to: '+33612345678', from: '+33700000000' });
    expect(sms.text).toMatch(/^Atelier Lune: your delivery code is \d{6}\. Valid for 10 min\./);
    const page = await b.get(sent.location!);
    expect(page.body).toContain('A code was sent to you by text message.');
    noPersonalData(page.body, 'sms');
    const { rows } = await t.pool.query(
      'SELECT channel, status, provider_id FROM recipient_notifications WHERE order_id = $1',
      [order.id],
    );
    expect(rows).toEqual([
      { channel: 'sms', status: 'sent', provider_id: expect.stringMatching(/^SM\d{32}$/) },
    ]);
    expect((await verify(b, order, (await t.lastCode('+33612345678'))!)).status).toBe(303);
  });

  it('instructions alone change nothing else: same day, no event, no history entry', async () => {
    const order = await newOrder();
    const b = recipient();
    await signIn(b, order);
    const before = await footprint(order);
    const res = await b.submit(`${order.base}/change`, `${order.base}/change`, {
      date: '',
      instructions: 'Interphone 12',
      safe_place: 'none',
      safe_place_detail: '',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${order.base}/change?lang=en&saved=1`);
    expect(await footprint(order)).toEqual({ ...before, choices: 1 });
    const { rows } = await t.pool.query(
      'SELECT safe_place, safe_place_sealed FROM recipient_choices WHERE order_id = $1',
      [order.id],
    );
    expect(rows[0]).toEqual({ safe_place: null, safe_place_sealed: null });
  });
});

async function courier() {
  const email = uniqueEmail('courier');
  const { courier: c } = await t.deps.couriers.add(
    { email, name: 'Courier SS', password: PASSWORD },
    testOperator,
  );
  const b = new Browser(t.app, `10.9.0.${++ip % 250}`);
  expect((await b.submit('/courier/login', '/courier/login', { email, password: PASSWORD })).status).toBe(
    303,
  );
  return { ...c, b };
}

describe('the rounds a new day leaves', () => {
  it('keeps a stop already scanned and the rounds of past days; drops the others, renumbering', async () => {
    const order = await newOrder();
    const first = await newOrder();
    const last = await newOrder();
    const name = (label: string) => `SS-${label}-${order.id}`;
    // Yesterday's round (past: left alone), today's with a scan of this order on it, tomorrow's planned.
    const past = await t.deps.rounds.create(
      {
        date: '2026-11-23',
        name: name('past'),
        stops: [{ tracking_ref: order.ref }],
      },
      testOperator,
    );
    const today = await t.deps.rounds.create(
      {
        date: TODAY,
        name: name('today'),
        stops: [{ tracking_ref: order.ref }],
      },
      testOperator,
    );
    const tomorrow = await t.deps.rounds.create(
      {
        date: '2026-11-25',
        name: name('tomorrow'),
        stops: [{ tracking_ref: first.ref }, { tracking_ref: order.ref }, { tracking_ref: last.ref }],
      },
      testOperator,
    );
    await t.pool.query(
      `INSERT INTO scans (id, round_id, context, code, order_id, happened_at, result, status_after)
       VALUES (gen_random_uuid(), $1, 'hub', $2, $3, $4, 'applied', 'in_transit')`,
      [today.id, order.ref, order.id, now],
    );
    const b = recipient();
    await signIn(b, order);
    const newDay = daysOffered('2026-11-25', TODAY)[0]!;
    expect((await b.submit(`${order.base}/change`, `${order.base}/change`, { date: newDay })).status).toBe(
      303,
    );
    const refs = async (id: string) =>
      (await t.deps.rounds.get(id, testOperator)).stops.map((s) => [
        s.position,
        s.kind === 'delivery' ? s.order.tracking_ref : '',
      ]);
    expect(await refs(past.id)).toEqual([[1, order.ref]]);
    expect(await refs(today.id)).toEqual([[1, order.ref]]);
    expect(await refs(tomorrow.id)).toEqual([
      [1, first.ref],
      [2, last.ref],
    ]);
  });
});

describe('refusals: nothing changes', () => {
  it('5 wrong tries burn the code: even the right one is refused then', async () => {
    const order = await newOrder();
    const b = recipient();
    await askCode(b, order);
    const code = (await t.lastCode(RECIPIENT.delivery_email))!;
    const wrong = code === '999999' ? '888888' : '999999';
    for (const left of [4, 3, 2, 1])
      expect((await verify(b, order, wrong)).body).toContain(`Tries left: ${left}.`);
    const fifth = await verify(b, order, wrong);
    expect(fifth.status).toBe(400);
    expect(fifth.body).toContain('Too many tries with this code. Ask for a new one.');
    const right = await verify(b, order, code);
    expect(right.status).toBe(400);
    expect(right.body).toContain('Too many tries with this code.');
    expect(b.cookies.has('dlv_recipient')).toBe(false);
    const { rows } = await t.pool.query('SELECT attempts, used_at FROM recipient_codes WHERE order_id = $1', [
      order.id,
    ]);
    expect(rows).toEqual([{ attempts: 5, used_at: null }]);
  });

  it('an expired code is refused; a new code works', async () => {
    const order = await newOrder();
    const b = recipient();
    await askCode(b, order);
    const code = (await t.lastCode(RECIPIENT.delivery_email))!;
    await t.pool.query(`UPDATE recipient_codes SET expires_at = $2 WHERE order_id = $1`, [
      order.id,
      new Date(now.getTime() - 1000),
    ]);
    const res = await verify(b, order, code);
    expect(res.status).toBe(400);
    expect(res.body).toContain('This code has expired (10 minutes). Ask for a new one.');
    expect(b.cookies.has('dlv_recipient')).toBe(false);
    await askCode(b, order);
    expect((await verify(b, order, (await t.lastCode(RECIPIENT.delivery_email))!)).status).toBe(303);
  });

  it('only the last code sent can be entered', async () => {
    const order = await newOrder();
    const b = recipient();
    await askCode(b, order);
    const first = (await t.lastCode(RECIPIENT.delivery_email))!;
    await askCode(b, order);
    const second = (await t.lastCode(RECIPIENT.delivery_email))!;
    if (first !== second) expect((await verify(b, order, first)).body).toContain('not the right code');
    expect((await verify(b, order, second)).status).toBe(303);
  });

  it('the 6th code of the (Paris) day is refused, sent nothing and stored nothing; the next day it works', async () => {
    const order = await newOrder();
    const b = recipient();
    for (let i = 0; i < 5; i++) expect((await askCode(b, order)).status).toBe(303);
    const mails = t.smtp.inbox.length;
    const before = await footprint(order);
    const sixth = await askCode(b, order, 'sms');
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain(
      'Five codes were already sent for this order today. Please try again tomorrow.',
    );
    expect(t.smtp.inbox.length).toBe(mails);
    expect(await footprint(order)).toEqual(before);
    expect(before.codes).toBe(5);
    const saved = now;
    try {
      now = new Date('2026-11-24T23:30:00Z'); // 00:30 on the 25th in Paris
      expect((await askCode(b, order)).status).toBe(303);
    } finally {
      now = saved;
    }
  });

  it('out for delivery, delivered or awaiting its address: no link, no code, no change', async () => {
    const order = await newOrder();
    const b = recipient();
    await signIn(b, order);
    // A courier's loading scan wins the race: the form, open before it, posted after it, changes nothing.
    const open = await b.get(`${order.base}/change`);
    const csrf = open.body.match(/name="_csrf" value="([^"]+)"/)![1]!;
    await t.deps.orders.setStatus(order.ref, 'out_for_delivery', null, testOperator);
    const before = await footprint(order);
    const tracking = await b.get(order.base);
    expect(tracking.body).not.toContain('/change');
    const page = await b.get(`${order.base}/change`);
    expect(page.body).toContain('This delivery can no longer be changed');
    expect(page.body).not.toContain('name="instructions"');
    const late = await b.post(`${order.base}/change`, {
      _csrf: csrf,
      date: daysOffered('2026-11-25', TODAY)[0]!,
      instructions: 'too late',
    });
    expect(late.status).toBe(422);
    expect(late.body).toContain('This delivery can no longer be changed');
    const code = await b.post(`${order.base}/code`, { _csrf: csrf, channel: 'email' });
    expect(code.status).toBe(422);
    const verify = await b.post(`${order.base}/verify`, { _csrf: csrf, code: '123456' });
    expect(verify.status).toBe(422);
    expect(await footprint(order)).toEqual(before);

    const waiting = await newOrder({ ...RECIPIENT, delivery_address: undefined }, 'pending');
    expect((await b.get(waiting.base)).body).not.toContain('/change');
    expect((await b.get(`${waiting.base}/change`)).body).toContain('This delivery can no longer be changed');
  });

  it('a courier’s scan holding the order when the change arrives wins: the change waits, then is refused', async () => {
    const order = await newOrder();
    const b = recipient();
    await signIn(b, order);
    const page = await b.get(`${order.base}/change`);
    const csrf = page.body.match(/name="_csrf" value="([^"]+)"/)![1]!;
    const before = await footprint(order);
    const scan = await t.pool.connect();
    try {
      await scan.query('BEGIN');
      await scan.query(`UPDATE orders SET status = 'out_for_delivery' WHERE id = $1`, [order.id]);
      const change = b.post(`${order.base}/change`, {
        _csrf: csrf,
        date: daysOffered('2026-11-25', TODAY)[0]!,
        instructions: 'Code 9',
      });
      await waitForLockWaiters(t.pool, 1);
      await scan.query('COMMIT');
      const res = await change;
      expect(res.status).toBe(422);
      expect(res.body).toContain('This delivery can no longer be changed');
    } finally {
      scan.release();
    }
    expect(await footprint(order)).toMatchObject({ promised: before.promised, choices: 0, rescheduled: 0 });
  });

  it('a day not offered, instructions too long, a detail without a place: 400 naming each, nothing stored', async () => {
    const order = await newOrder();
    const b = recipient();
    await signIn(b, order);
    const before = await footprint(order);
    for (const [fields, says] of [
      [{ date: '2026-11-28' }, 'Choose one of the days offered.'], // a Saturday
      [{ date: '2026-12-03' }, 'Choose one of the days offered.'], // the 6th business day
      [{ date: TODAY }, 'Choose one of the days offered.'],
      [{ date: 'tomorrow' }, 'Choose one of the days offered.'],
      [{ instructions: 'x'.repeat(501) }, 'The instructions are longer than 500 characters.'],
      [{ safe_place: 'roof' }, 'Choose a place from the list.'],
      [
        { safe_place: 'other', safe_place_detail: 'y'.repeat(201) },
        'The details are longer than 200 characters.',
      ],
      [{ safe_place: 'none', safe_place_detail: 'Mme Martin' }, 'Choose first where the parcel may be left.'],
    ] as [Record<string, string>, string][]) {
      const res = await b.submit(`${order.base}/change`, `${order.base}/change`, {
        date: daysOffered('2026-11-25', TODAY)[1]!,
        instructions: 'Code 1',
        ...fields,
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain(says);
      expect(res.body).toContain('aria-invalid="true"');
    }
    expect(await footprint(order)).toEqual(before);
    // Exactly 500 characters is fine.
    const ok = await b.submit(`${order.base}/change`, `${order.base}/change`, {
      instructions: 'é'.repeat(500),
    });
    expect(ok.status).toBe(303);
  });

  it('a form without its CSRF token (or with another) is refused with 403, nothing stored or sent', async () => {
    const order = await newOrder();
    const b = recipient();
    await b.get(`${order.base}/change`);
    const mails = t.smtp.inbox.length;
    for (const token of [undefined, 'forged']) {
      const form: Record<string, string> = token ? { _csrf: token, channel: 'email' } : { channel: 'email' };
      const res = await b.post(`${order.base}/code`, form);
      expect(res.status).toBe(403);
      expect(res.body).toContain('This form has expired. Please try again.');
    }
    expect(t.smtp.inbox.length).toBe(mails);
    await signIn(b, order);
    const before = await footprint(order);
    const noToken = await b.post(`${order.base}/change`, {
      instructions: 'x',
      date: daysOffered('2026-11-25', TODAY)[0]!,
    });
    expect(noToken.status).toBe(403);
    expect(await footprint(order)).toEqual(before);
    // Another browser's token does not pass with this browser's cookie.
    const stranger = recipient();
    const theirs = (await stranger.get(`${order.base}/change`)).body.match(
      /name="_csrf" value="([^"]+)"/,
    )![1]!;
    expect((await b.post(`${order.base}/change`, { _csrf: theirs, instructions: 'x' })).status).toBe(403);
    // Verifying without the token counts no try.
    await askCode(b, order);
    expect((await b.post(`${order.base}/verify`, { code: '000000' })).status).toBe(403);
    const { rows } = await t.pool.query(
      'SELECT max(attempts) AS a FROM recipient_codes WHERE order_id = $1 AND used_at IS NULL',
      [order.id],
    );
    expect(rows[0].a).toBe(0);
  });

  it("another order's session does not open this one", async () => {
    const mine = await newOrder();
    const theirs = await newOrder();
    const b = recipient();
    await signIn(b, mine);
    // The cookie is bound to its order: sent to another order's pages (the browser would not), it is ignored.
    const page = await b.get(`${theirs.base}/change`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('name="instructions"');
    expect(page.body).toContain('name="channel"');
    noPersonalData(page.body, 'other order');
    const before = await footprint(theirs);
    const res = await b.submit(`${theirs.base}/change`, `${theirs.base}/change`, {
      instructions: 'not mine',
      date: daysOffered('2026-11-25', TODAY)[0]!,
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${theirs.base}/change?lang=en`);
    expect(await footprint(theirs)).toEqual(before);
    // A forged or altered cookie is no session either.
    const forged = new Browser(t.app, `198.51.100.${++ip}`);
    forged.cookies.set('dlv_recipient', `${b.cookies.get('dlv_recipient')!.slice(0, -2)}AA`);
    expect((await forged.get(`${mine.base}/change`)).body).not.toContain('name="instructions"');
  });

  it('an unknown tracking token is the tracking 404 on every route', async () => {
    const b = recipient();
    for (const path of ['/track/AAAAAAAAAAAAAAAAAAAAAA/change']) expect((await b.get(path)).status).toBe(404);
    for (const path of ['code', 'verify', 'change'])
      expect((await b.post(`/track/AAAAAAAAAAAAAAAAAAAAAA/${path}`, { _csrf: 'x' })).status).toBe(404);
  });
});

describe('what leaks nowhere', () => {
  it('the code: not in the logs (at trace), a URL, a header or a page; the words: not in the logs', async () => {
    const { loggerOptions } = await import('../src/http/shared/logging.ts');
    const lines: string[] = [];
    const logged = await buildSelfServiceApp({
      clock: () => now,
      logger: loggerOptions('trace', { write: (line) => lines.push(line) }),
    });
    try {
      const shop = await createBrandWithKey(logged.deps);
      const res = await createOrder(logged.app, shop, RECIPIENT);
      const ref = res.data.order.tracking_ref as string;
      await logged.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
      const { rows } = await logged.pool.query('SELECT tracking_token FROM orders WHERE tracking_ref = $1', [
        ref,
      ]);
      const base = `/track/${rows[0].tracking_token}`;
      const b = new Browser(logged.app, '198.51.100.250');
      const seen: string[] = [];
      const keep = (r: { body: string; headers: Record<string, unknown>; location?: string }) => {
        seen.push(r.body, JSON.stringify(r.headers), r.location ?? '');
        return r;
      };
      keep(await b.submit(`${base}/change`, `${base}/code`, { channel: 'email' }));
      const code = (await logged.lastCode(RECIPIENT.delivery_email))!;
      keep(
        await b.submit(`${base}/change?sent=email`, `${base}/verify`, {
          code: code === '000000' ? '111111' : '000000',
        }),
      );
      const ok = keep(await b.submit(`${base}/change?sent=email`, `${base}/verify`, { code }));
      keep(await b.get(ok.location!));
      keep(
        await b.submit(`${base}/change`, `${base}/change`, {
          instructions: 'Digicode 7Q4Z9',
          safe_place: 'neighbour',
          safe_place_detail: 'Mme Zyrtek',
          date: '',
        }),
      );
      keep(await b.get(`${base}/change?lang=fr`));
      expect(lines.length).toBeGreaterThan(10);
      const log = lines.join('\n');
      expect(log).toContain('/track/');
      for (const text of [code, 'Digicode 7Q4Z9', 'Mme Zyrtek', rows[0].tracking_token])
        expect(log, text).not.toContain(text);
      for (const text of seen) expect(text).not.toContain(code);
      // The code never travels in a URL: not in a redirect, not in a form's action.
      for (const line of lines) {
        const url = (JSON.parse(line) as { req?: { url?: string } }).req?.url ?? '';
        expect(url).not.toMatch(/\d{6}/);
      }
    } finally {
      await logged.close();
    }
  });
});

describe('rate limits', () => {
  it('codes asked for and typed: 20 a client address at once, then 429 with Retry-After (per-order limits aside)', async () => {
    const order = await newOrder();
    const b = recipient();
    for (let i = 0; i < 20; i++)
      expect((await b.post(`${order.base}/verify`, { code: '000000' })).status).toBe(403);
    const limited = await b.post(`${order.base}/code`, { channel: 'email' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.body).toContain('Too many requests');
    // Another address is not held back by it.
    expect((await recipient().get(`${order.base}/change`)).status).toBe(200);
    expect((await footprint(order)).codes).toBe(0);
  });

  it('the pages: the tracking page’s per-address bucket (30 at once) covers the self-service too', async () => {
    const order = await newOrder();
    const b = recipient();
    for (let i = 0; i < 30; i++) await b.get(`${order.base}/change`);
    expect((await b.get(`${order.base}/change`)).status).toBe(429);
    expect((await b.get(order.base)).status).toBe(429);
  });
});
