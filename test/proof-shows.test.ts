/**
 * Where proof shows (decision 0006): the order's detail JSON (URLs signed at answer time, never
 * stored), the account area's order page, the tracking page with and without the brand's consent
 * (the company page's checkbox), and lists that carry no proof.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { call, createBrandWithKey } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { subscribeToWebhooks } from './support/orders.ts';
import { buildProofApp, deliveredOrder, orderAtTheDoor, recordAttempt } from './support/proofs.ts';

let t: Awaited<ReturnType<typeof buildProofApp>>;
let ip = 0;

beforeAll(async () => {
  t = await buildProofApp();
});
afterAll(async () => {
  await t?.close();
});

const detail = async (ref: string, headers: { authorization: string }) => {
  const answer = await call(t.app, { method: 'GET', url: `/public/v1/orders/${ref}`, headers });
  expect(answer.statusCode).toBe(200);
  return answer.data.order;
};

async function ownerOf(brandId: string) {
  const user = await createUser(t.deps, { brandId });
  const b = new Browser(t.app, `10.27.0.${++ip}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return b;
}

const trackingPage = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/track/${token}`,
    headers: { 'accept-language': 'fr' },
    remoteAddress: `10.28.0.${++ip}`,
  });

describe('proof in GET /orders/{ref}', () => {
  it('is null for an order that never reached the door, with both members present', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = (
      await call(t.app, {
        method: 'POST',
        url: '/public/v1/orders',
        headers: brand.headers,
        payload: {
          customer_email: 'a@example.com',
          delivery_address: '12 rue Oberkampf 75011 Paris',
          delivery_recipient: 'A',
          delivery_phone: '0612345678',
        },
      })
    ).data.trackingRef;
    const order = await detail(ref, brand.headers);
    expect(order).toHaveProperty('proof_of_delivery', null);
    expect(order).toHaveProperty('failed_attempt', null);
  });

  it('carries the delivery facts and signed links; the stored JSON holds no link', async () => {
    const happenedAt = new Date(Date.now() - 3600_000);
    const { ref, brand, attempt } = await deliveredOrder(t, { happenedAt, receivedBy: 'Gardien' });
    const order = await detail(ref, brand.headers);
    expect(order.status).toBe('delivered');
    expect(order.proof_of_delivery).toEqual({
      delivered_at: happenedAt.toISOString(),
      received_by: 'Gardien',
      photo_url: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:3000/proofs/${attempt.id}/photo\\?expires=\\d+&sig=`),
      ),
      signature_url: expect.stringMatching(new RegExp(`/proofs/${attempt.id}/signature\\?expires=\\d+&sig=`)),
      location: { latitude: 48.867, longitude: 2.363 },
    });
    expect(order.failed_attempt).toBeNull();
    const stored = await t.pool.query(
      'SELECT json_rest, history::text AS history FROM orders WHERE tracking_ref = $1',
      [ref],
    );
    expect(JSON.stringify(stored.rows[0])).not.toMatch(/proofs\/|sig=|proof_of_delivery/);
  });

  it('carries the last failed attempt and the count, kept after the delivery; no location, no files: nulls', async () => {
    const door = await orderAtTheDoor(t);
    const first = new Date(Date.now() - 2 * 86400_000);
    const second = new Date(Date.now() - 86400_000);
    await t.deps.orders.setStatus(door.ref, 'failed_attempt', null, testOperator);
    await recordAttempt(t, door.orderId, { outcome: 'failed_attempt', reason: 'absent', happenedAt: first });
    let order = await detail(door.ref, door.brand.headers);
    expect(order.failed_attempt).toEqual({ at: first.toISOString(), reason: 'absent', attempts: 1 });
    expect(order.proof_of_delivery).toBeNull();

    await t.deps.orders.setStatus(door.ref, 'out_for_delivery', null, testOperator);
    await recordAttempt(t, door.orderId, {
      outcome: 'failed_attempt',
      reason: 'no_access',
      happenedAt: second,
    });
    await t.deps.orders.setStatus(door.ref, 'failed_attempt', null, testOperator);
    await t.deps.orders.setStatus(door.ref, 'out_for_delivery', null, testOperator);
    await t.deps.orders.setStatus(door.ref, 'delivered', null, testOperator);
    await recordAttempt(t, door.orderId, {
      photo: false,
      signature: false,
      location: null,
      receivedBy: 'Voisin (3e)',
    });
    order = await detail(door.ref, door.brand.headers);
    expect(order.failed_attempt).toEqual({ at: second.toISOString(), reason: 'no_access', attempts: 2 });
    expect(order.proof_of_delivery).toMatchObject({
      received_by: 'Voisin (3e)',
      photo_url: null,
      signature_url: null,
      location: null,
    });
  });

  it('is another brand’s order: 404, nothing about its proof', async () => {
    const { ref } = await deliveredOrder(t);
    const other = await createBrandWithKey(t.deps);
    const answer = await call(t.app, {
      method: 'GET',
      url: `/public/v1/orders/${ref}`,
      headers: other.headers,
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toMatch(/proof/);
  });

  it('lists carry no proof members (documented): the detail does', async () => {
    const { brand } = await deliveredOrder(t);
    const list = await call(t.app, { method: 'GET', url: '/public/v1/orders', headers: brand.headers });
    expect(list.statusCode).toBe(200);
    expect(list.data.orders[0]).not.toHaveProperty('proof_of_delivery');
    expect(list.data.orders[0]).not.toHaveProperty('failed_attempt');
  });
});

// What docs/proof-of-delivery.md says of the webhooks (#36 item 27): door scans' events carry both
// members with 7-day links; order.status_changed and the operator's set-status carry neither.
describe('proof in the delivery webhooks', () => {
  const eventsOf = async (brandId: string) =>
    (
      await t.pool.query<{ type: string; data: { order: Record<string, unknown> } }>(
        'SELECT type, data FROM outbox_events WHERE brand_id = $1 ORDER BY id',
        [brandId],
      )
    ).rows;
  const door = (ref: string, extra: Record<string, unknown>) => ({
    id: randomUUID(),
    context: 'door',
    code: ref,
    happened_at: new Date().toISOString(),
    ...extra,
  });
  const operator = { courierId: null, locale: 'en' as const, by: testOperator };

  it('carries both members in the door scans’ events, neither in order.status_changed', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const { ref } = await orderAtTheDoor(t, brand);
    await t.deps.scans.apply(operator, [door(ref, { outcome: 'failed_attempt', reason: 'absent' })]);
    await t.deps.orders.setStatus(ref, 'out_for_delivery', null, testOperator);
    await t.deps.scans.apply(operator, [door(ref, { outcome: 'delivered', received_by: 'Camille' })]);
    const events = await eventsOf(brand.brandId);
    const failed = events.find((e) => e.type === 'order.delivery_failed')!.data.order;
    expect(failed).toMatchObject({
      status: 'failed_attempt',
      proof_of_delivery: null,
      failed_attempt: { reason: 'absent', attempts: 1 },
    });
    const delivered = events.find((e) => e.type === 'order.delivered')!.data.order;
    expect(delivered).toMatchObject({
      status: 'delivered',
      proof_of_delivery: { received_by: 'Camille', photo_url: null, signature_url: null, location: null },
      failed_attempt: { reason: 'absent', attempts: 1 },
    });
    for (const e of events.filter((e) => e.type === 'order.status_changed')) {
      expect(e.data.order).not.toHaveProperty('proof_of_delivery');
      expect(e.data.order).not.toHaveProperty('failed_attempt');
    }
  });

  it('carries neither when the operator sets the status without a scan', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const { ref } = await orderAtTheDoor(t, brand);
    await t.deps.orders.setStatus(ref, 'delivered', null, testOperator);
    const delivered = (await eventsOf(brand.brandId)).find((e) => e.type === 'order.delivered')!.data.order;
    expect(delivered).toMatchObject({ status: 'delivered' });
    expect(delivered).not.toHaveProperty('proof_of_delivery');
    expect(delivered).not.toHaveProperty('failed_attempt');
  });
});

describe('proof on the account area’s order page', () => {
  it('shows the photo, the signature, who took it, when and where, through signed links that open', async () => {
    const brand = await createBrandWithKey(t.deps);
    const b = await ownerOf(brand.brandId);
    const { ref } = await deliveredOrder(t, { brand, receivedBy: 'Mme <Durand>' });
    const page = await b.get(`/account/orders/${ref}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Proof of delivery');
    expect(page.body).toContain('Mme &lt;Durand&gt;');
    expect(page.body).toContain('48.867, 2.363');
    const photo = page.body.match(
      /<img src="(\/proofs\/att_[0-9a-f]{16}\/photo\?expires=\d+&amp;sig=[\w-]+)"/,
    )?.[1];
    const signature = page.body.match(/<img src="(\/proofs\/att_[0-9a-f]{16}\/signature\?[^"]+)"/)?.[1];
    expect(photo).toBeDefined();
    expect(signature).toBeDefined();
    const opened = await t.app.inject({ method: 'GET', url: photo!.replaceAll('&amp;', '&') });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('image/jpeg');
  });

  it('lists failed attempts with their reason, in French too', async () => {
    const brand = await createBrandWithKey(t.deps);
    const b = await ownerOf(brand.brandId);
    const door = await orderAtTheDoor(t, brand);
    await t.deps.orders.setStatus(door.ref, 'failed_attempt', null, testOperator);
    await recordAttempt(t, door.orderId, { outcome: 'failed_attempt', reason: 'address_not_found' });
    const en = await b.get(`/account/orders/${door.ref}`);
    expect(en.body).toContain('Failed delivery attempts');
    expect(en.body).toContain('Address not found');
    expect(en.body).not.toContain('<img src="/proofs');
    await b.get('/account/lang?to=fr');
    const fr = await t.app.inject({
      method: 'GET',
      url: `/account/orders/${door.ref}`,
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'accept-language': 'fr' },
      remoteAddress: '10.27.9.9',
    });
    expect(fr.body).toContain('Adresse introuvable');
  });

  it('shows nothing of proof on an order not yet at the door', async () => {
    const brand = await createBrandWithKey(t.deps);
    const b = await ownerOf(brand.brandId);
    const ref = (
      await t.deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
        {
          customer_email: 'c@example.com',
          delivery_address: '12 rue Oberkampf 75011 Paris',
          delivery_recipient: 'C',
          delivery_phone: '0612345678',
        },
      )
    ).trackingRef;
    const page = await b.get(`/account/orders/${ref}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('Proof of delivery');
  });
});

describe('proof on the tracking page, and the brand’s consent', () => {
  it('shows the delivery time always, the photo only once the owner ticks the company page’s box', async () => {
    const brand = await createBrandWithKey(t.deps);
    const b = await ownerOf(brand.brandId);
    const happenedAt = new Date('2026-11-20T15:42:00Z'); // 16:42 in Paris
    const { trackingToken } = await deliveredOrder(t, { brand, happenedAt });

    const before = await trackingPage(trackingToken);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Livré le');
    expect(before.body).toContain('16:42');
    expect(before.body).not.toContain('/proofs/');

    const company = await b.get('/account/company');
    expect(company.body).toContain('Show the delivery photo on the tracking page');
    expect(company.body).not.toMatch(/name="tracking_shows_proof_photo" value="1" checked/);
    const saved = await b.follow(
      b.submit('/account/company', '/account/company/tracking', { tracking_shows_proof_photo: '1' }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatch(/name="tracking_shows_proof_photo" value="1" checked/);

    const after = await trackingPage(trackingToken);
    const photo = after.body.match(
      /<img src="(\/proofs\/att_[0-9a-f]{16}\/photo\?[^"]+)" alt="Photo prise par le livreur/,
    )?.[1];
    expect(photo).toBeDefined();
    expect(after.body).not.toContain('/signature?');
    expect((await t.app.inject({ method: 'GET', url: photo!.replaceAll('&amp;', '&') })).statusCode).toBe(
      200,
    );

    // Unticked again: gone at once.
    await b.submit('/account/company', '/account/company/tracking', {});
    expect((await trackingPage(trackingToken)).body).not.toContain('/proofs/');
  });

  it('lets only the owner change it; others see it read only, and their POST changes nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const user = await createUser(t.deps, { brandId: brand.brandId, role: 'developer' });
    const b = new Browser(t.app, `10.27.1.${++ip}`);
    await b.signIn(user.email, PASSWORD);
    const page = await b.get('/account/company');
    expect(page.body).toContain('The delivery photo is not shown on the tracking page.');
    expect(page.body).not.toContain('name="tracking_shows_proof_photo"');
    const refused = await b.submit('/account/company', '/account/company/tracking', {
      tracking_shows_proof_photo: '1',
    });
    expect(refused.status).toBe(403);
    expect(await t.deps.proofs.showsPhotoOnTracking(brand.brandId)).toBe(false);
  });
});
