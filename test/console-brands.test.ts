import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../src/db/stores.ts';
import { createUser, csrfOf } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';

/** The console's Brands: a grid imported after its holes are shown, webhooks on request, keys. */
let t: TestApp;
const now = new Date();
let admin: ConsoleOperator;
let finance: ConsoleOperator;
let brand: TestBrand;

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
  admin = await consoleOperator(t.app, t.deps, 'admin', () => now, '10.96.0.1');
  finance = await consoleOperator(t.app, t.deps, 'finance', () => now, '10.96.0.2');
  brand = await createBrandWithKey(t.deps, { name: `Maison Grille ${randomBytes(3).toString('hex')}` });
});
afterAll(() => t.close());

const HEADER = 'service,zone,unit_type,max_weight_kg,first_unit_eur,extra_unit_eur';
/** Paris only: every other zone is a hole for a 2 kg parcel. */
const PARIS_ONLY = `${HEADER}\nstandard,paris,parcel,2,7.20,3.00\n`;

const gridImports = async () =>
  Number(
    (
      await t.pool.query(
        "SELECT count(*) FROM audit_events WHERE action = 'grid.imported' AND object_id = $1",
        [brand.brandId],
      )
    ).rows[0].count,
  );

describe('price grid import', () => {
  it('shows the holes before saving, saves nothing until confirmed, then saves through the grid service (audited)', async () => {
    const page = await finance.b.get(`/console/brands/${brand.brandId}/grid`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('the default grid');
    const preview = await finance.b.post(`/console/brands/${brand.brandId}/grid/preview`, {
      _csrf: csrfOf(page.body),
      grid: PARIS_ONLY,
      format: 'csv',
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toContain('Checked: 1 rows, nothing saved yet');
    expect(preview.body).toMatch(/\d+ hole\(s\)/);
    expect(preview.body).toContain('<td>petite_couronne</td>');
    // Nothing saved by the preview.
    expect(await gridImports()).toBe(0);
    expect((await t.deps.grids.gridFor(brand.brandId)).source).not.toBe('negotiated');
    const saved = await finance.b.post(`/console/brands/${brand.brandId}/grid`, {
      _csrf: csrfOf(preview.body),
      grid: PARIS_ONLY,
      format: 'csv',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/console/brands/${brand.brandId}/grid?done=imported`);
    expect(await gridImports()).toBe(1);
    const actor = await t.pool.query(
      "SELECT actor_id FROM audit_events WHERE action = 'grid.imported' AND object_id = $1",
      [brand.brandId],
    );
    expect(actor.rows[0].actor_id).toBe(finance.id);
    await t.deps.grids.refresh();
    const after = await finance.b.get(saved.location!);
    expect(after.body).toContain('The grid was saved');
    expect(after.body).toContain('the brand’s own grid');
  });

  it('refuses a file the grid checks refuse (400, the text kept), and a role without grids:write (403)', async () => {
    const page = await finance.b.get(`/console/brands/${brand.brandId}/grid`);
    const bad = await finance.b.post(`/console/brands/${brand.brandId}/grid/preview`, {
      _csrf: csrfOf(page.body),
      grid: 'service,zone\nstandard,paris\n',
      format: 'csv',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('class="error"');
    expect(bad.body).toContain('standard,paris');
    const dispatcher = await consoleOperator(t.app, t.deps, 'dispatcher', () => now, '10.96.0.3');
    const own = await dispatcher.b.get(`/console/brands/${brand.brandId}`);
    const refused = await dispatcher.b.post(`/console/brands/${brand.brandId}/grid`, {
      _csrf: csrfOf(own.body),
      grid: PARIS_ONLY,
    });
    expect(refused.status).toBe(403);
    expect(await gridImports()).toBe(1);
  });
});

describe('webhooks on request', () => {
  it('sets up the endpoint a brand asked for (its secret shown once), declines another, disables an endpoint; audited', async () => {
    const person = await createUser(t.deps, { brandId: brand.brandId, role: 'developer' });
    const user = (await storesOn(t.pool).users.findById(person.userId))!;
    const wanted = await t.deps.webhookRequests.request(user, {
      // A public address literal: passes the SSRF guard without DNS (nothing is sent to it here).
      url: 'https://93.184.216.34/hooks/console',
      events: ['order.delivered'],
      message: 'For our ERP',
    });
    const declined = await t.deps.webhookRequests.request(user, {
      url: 'https://93.184.216.34/hooks/other',
      events: ['order.created'],
      message: '',
    });
    const page = await admin.b.get(`/console/brands/${brand.brandId}/webhooks`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('For our ERP');
    const setUp = await admin.b.post(
      `/console/brands/${brand.brandId}/webhook-requests/${wanted.id}/set-up`,
      { _csrf: csrfOf(page.body) },
    );
    expect(setUp.status).toBe(201);
    const secret = setUp.body.match(/<code id="webhook-secret">([^<]+)<\/code>/)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const endpoints = await t.deps.webhooks.list(brand.brandId);
    const endpoint = endpoints.find((e) => e.url === 'https://93.184.216.34/hooks/console')!;
    expect(endpoint.eventTypes).toEqual(['order.delivered']);
    // Answered once: the same request again is not found.
    const again = await admin.b.post(
      `/console/brands/${brand.brandId}/webhook-requests/${wanted.id}/set-up`,
      {
        _csrf: csrfOf(page.body),
      },
    );
    expect(again.status).toBe(404);
    const no = await admin.b.post(
      `/console/brands/${brand.brandId}/webhook-requests/${declined.id}/decline`,
      {
        _csrf: csrfOf(page.body),
      },
    );
    expect(no.status).toBe(303);
    const after = await admin.b.get(no.location!);
    expect(after.body).toContain('The request was declined.');
    expect(after.body).not.toContain(secret!);
    const off = await admin.b.post(`/console/brands/${brand.brandId}/webhooks/${endpoint.id}/disable`, {
      _csrf: csrfOf(after.body),
    });
    expect(off.status).toBe(303);
    expect((await t.deps.webhooks.get(endpoint.id)).status).toBe('disabled');
    const audit = await t.pool.query(
      `SELECT action FROM audit_events WHERE actor_id = $1 AND action LIKE 'webhook.%' ORDER BY id`,
      [admin.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'webhook.endpoint_added',
      'webhook.request_closed',
      'webhook.request_closed',
      'webhook.endpoint_disabled',
    ]);
  });
});

describe('keys', () => {
  it("lists a brand's keys by prefix, never the secret, and revokes one (audited)", async () => {
    const page = await admin.b.get(`/console/brands/${brand.brandId}`);
    expect(page.body).not.toContain(brand.key);
    const keyId = brand.keyId;
    expect(page.body).toContain(`/console/brands/${brand.brandId}/keys/${keyId}/revoke`);
    const revoked = await admin.b.post(`/console/brands/${brand.brandId}/keys/${keyId}/revoke`, {
      _csrf: csrfOf(page.body),
    });
    expect(revoked.status).toBe(303);
    const audit = await t.pool.query(
      "SELECT object_id FROM audit_events WHERE actor_id = $1 AND action = 'api_key.revoked'",
      [admin.id],
    );
    expect(audit.rows).toEqual([{ object_id: keyId }]);
  });
});
