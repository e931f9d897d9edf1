import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../src/connectors/connection.ts';
import { remedyOf } from '../src/connectors/link-attention.ts';
import { createUser, csrfOf } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';

/** The console's Exceptions: each list with the action that resolves it, through the services, audited. */
let t: TestApp;
const now = new Date();
let admin: ConsoleOperator;
let support: ConsoleOperator;
let brand: TestBrand;

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
  admin = await consoleOperator(t.app, t.deps, 'admin', () => now, '10.95.0.1');
  support = await consoleOperator(t.app, t.deps, 'support', () => now, '10.95.0.2');
  brand = await createBrandWithKey(t.deps, { name: `Maison Rebond ${randomBytes(3).toString('hex')}` });
});
afterAll(() => t.close());

const auditOf = async (actorId: string, action: string) =>
  (
    await t.pool.query(
      'SELECT object_id, order_refs, details, changes FROM audit_events WHERE actor_id = $1 AND action = $2 ORDER BY id',
      [actorId, action],
    )
  ).rows;

/** A message the notifications job gave up on: its event, its row `failed` with the server's words. */
async function bouncedEmail(): Promise<{ id: string; ref: string }> {
  const order = await t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
    {
      customer_email: 'wrong@typo.example',
      delivery_email: 'wrong@typo.example',
      delivery_address: '12 rue Oberkampf 75011 Paris',
    },
  );
  const eventId = `evt_${randomBytes(8).toString('hex')}`;
  await t.pool.query(
    `INSERT INTO outbox_events (id, brand_id, type, data, created_at) VALUES ($1, $2, 'order.out_for_delivery', $3, now())`,
    [eventId, brand.brandId, JSON.stringify({ order: { tracking_ref: order.trackingRef } })],
  );
  const id = `ntf_${randomBytes(8).toString('hex')}`;
  await t.pool.query(
    `INSERT INTO recipient_notifications (id, order_id, event_id, step, channel, status, detail)
     SELECT $1, o.id, $2, 'out_for_delivery', 'email', 'failed', '550 5.1.1 mailbox unknown' FROM orders o WHERE o.tracking_ref = $3`,
    [id, eventId, order.trackingRef],
  );
  return { id, ref: order.trackingRef };
}

describe('bounced notifications', () => {
  it('are listed with a resend, which sends the message to a corrected address, audited without the address', async () => {
    const bounced = await bouncedEmail();
    const page = await support.b.get('/console/exceptions');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`/console/notifications/${bounced.id}/resend`);
    const done = await support.b.post(`/console/notifications/${bounced.id}/resend`, {
      _csrf: csrfOf(page.body),
      to: 'right@example.com',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/console/exceptions?done=resent');
    expect((await support.b.get(done.location!)).body).toContain('The message was sent again.');
    const row = await t.pool.query('SELECT status, detail FROM recipient_notifications WHERE id = $1', [
      bounced.id,
    ]);
    expect(row.rows[0].status).toBe('sent');
    const audit = await auditOf(support.id, 'notification.resent');
    expect(audit).toEqual([
      {
        object_id: bounced.id,
        order_refs: [bounced.ref],
        details: { channel: 'email', step: 'out_for_delivery', corrected_address: true },
        changes: { status: { before: 'failed', after: 'sent' } },
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain('right@example.com');
    // Sent now: no second resend.
    const again = await support.b.post(`/console/notifications/${bounced.id}/resend`, {
      _csrf: csrfOf(page.body),
    });
    expect(again.status).toBe(422);
  });

  it('refuses a corrected address that is not one (400), and a dispatcher (403); nothing sent', async () => {
    const bounced = await bouncedEmail();
    const page = await support.b.get('/console/exceptions');
    const bad = await support.b.post(`/console/notifications/${bounced.id}/resend`, {
      _csrf: csrfOf(page.body),
      to: 'not an address',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('must be an e-mail address');
    const dispatcher = await consoleOperator(t.app, t.deps, 'dispatcher', () => now, '10.95.0.3');
    const own = await dispatcher.b.get('/console/exceptions');
    expect(own.body).not.toContain(`/console/notifications/${bounced.id}/resend`);
    const refused = await dispatcher.b.post(`/console/notifications/${bounced.id}/resend`, {
      _csrf: csrfOf(own.body),
    });
    expect(refused.status).toBe(403);
    const row = await t.pool.query('SELECT status FROM recipient_notifications WHERE id = $1', [bounced.id]);
    expect(row.rows[0].status).toBe('failed');
  });
});

describe('shop links with sync problems', () => {
  it('lists a link the shop refused, and tells the brand to link it again (audited)', async () => {
    const owner = await createUser(t.deps, { brandId: brand.brandId });
    const id = `con_${randomBytes(8).toString('hex')}`;
    const shop = `rebond-${randomBytes(3).toString('hex')}.myshopify.com`;
    await t.pool.query(
      `INSERT INTO connector_connections (id, brand_id, platform, shop, status, status_reason, credentials, created_at, updated_at)
       VALUES ($1, $2, 'shopify', $3, 'broken', 'the shop refused our token (401)', '\\x00', now(), now())`,
      [id, brand.brandId, shop],
    );
    const page = await admin.b.get('/console/exceptions');
    expect(page.body).toContain('Shop links with sync problems');
    expect(page.body).toContain(shop);
    expect(page.body).toContain(`/console/shop-links/${id}/tell-brand`);
    // A broken link cannot be read again: the shop refuses our token.
    const resync = await admin.b.post(`/console/shop-links/${id}/resync`, { _csrf: csrfOf(page.body) });
    expect(resync.status).toBe(422);
    const told = await admin.b.post(`/console/shop-links/${id}/tell-brand`, { _csrf: csrfOf(page.body) });
    expect(told.status).toBe(303);
    expect(told.location).toBe('/console/exceptions?done=told');
    expect(await auditOf(admin.id, 'connection.brand_notified')).toEqual([
      {
        object_id: id,
        order_refs: [],
        details: { platform: 'shopify', status: 'broken', recipients: 1 },
        changes: null,
      },
    ]);
    expect(owner.email).toContain('@');
    // Support reads the list but cannot act on a brand's link.
    const asSupport = await support.b.get('/console/exceptions');
    expect(asSupport.body).toContain(shop);
    expect(asSupport.body).not.toContain(`/console/shop-links/${id}/tell-brand`);
  });

  it('picks the remedy: sync again where the platform can, else tell the brand; none for a link closed on purpose', () => {
    const link = (over: Partial<Connection>) =>
      ({ status: 'active', syncError: null, statusReason: null, ...over }) as Connection;
    expect(remedyOf(link({}), true)).toBeNull();
    expect(remedyOf(link({ syncError: 'shop unreachable' }), true)).toBe('resync');
    expect(remedyOf(link({ syncError: 'webhook disabled' }), false)).toBe('tell_brand');
    expect(remedyOf(link({ status: 'broken' }), true)).toBe('tell_brand');
    expect(
      remedyOf(link({ status: 'disconnected', statusReason: 'app uninstalled from the shop' }), true),
    ).toBe('tell_brand');
    expect(
      remedyOf(link({ status: 'disconnected', statusReason: 'disconnected by the brand' }), true),
    ).toBeNull();
  });
});

describe('failing webhook endpoints', () => {
  it('are disabled or enabled again from the list, through the webhook service (audited)', async () => {
    const { endpoint } = await t.deps.webhooks.add(
      // A public address literal: passes the SSRF guard without DNS (nothing is sent to it here).
      { brandId: brand.brandId, url: 'https://93.184.216.34/hooks/failing' },
      testOperator,
    );
    await t.pool.query(
      `UPDATE webhook_endpoints SET first_failure_at = now() - interval '2 hours' WHERE id = $1`,
      [endpoint.id],
    );
    const page = await support.b.get('/console/exceptions');
    const action = `/console/brands/${brand.brandId}/webhooks/${endpoint.id}/disable`;
    expect(page.body).toContain(action);
    const done = await support.b.post(action, { _csrf: csrfOf(page.body), back: 'exceptions' });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/console/exceptions?done=disable');
    expect((await t.deps.webhooks.get(endpoint.id)).status).toBe('disabled');
    expect(await auditOf(support.id, 'webhook.endpoint_disabled')).toHaveLength(1);
    const after = await support.b.get('/console/exceptions');
    const enable = await support.b.post(`/console/brands/${brand.brandId}/webhooks/${endpoint.id}/enable`, {
      _csrf: csrfOf(after.body),
      back: 'exceptions',
    });
    expect(enable.status).toBe(303);
    expect((await t.deps.webhooks.get(endpoint.id)).status).toBe('active');
    // Another brand's endpoint under this brand's address: not found.
    const other = await createBrandWithKey(t.deps);
    const wrong = await support.b.post(`/console/brands/${other.brandId}/webhooks/${endpoint.id}/disable`, {
      _csrf: csrfOf(after.body),
    });
    expect(wrong.status).toBe(404);
  });
});
