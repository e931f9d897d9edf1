import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutWebhookEvent } from '../src/jobs/webhooks-fan-out.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, testDatabaseUrl } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';

// A public address literal: passes the SSRF guard without DNS (nothing is sent to it here).
const PUBLIC_URL = 'https://93.184.216.34/hooks/orders';

let t: TestApp;
let ipCounter = 0;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = new Browser(t.app, `10.13.2.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const requestsOf = async (brandId: string) =>
  (await t.pool.query('SELECT * FROM webhook_requests WHERE brand_id = $1', [brandId])).rows;

describe('/account/webhooks', () => {
  it('lists the operator’s endpoints and the API subscriptions with their origin; only the latter can be deleted', async () => {
    const brand = await createBrandWithKey(t.deps);
    const { endpoint } = await t.deps.webhooks.add({ brandId: brand.brandId, url: PUBLIC_URL }, testOperator);
    const { subscription } = await t.deps.subscriptions.create(brand.brandId, {
      url: `${PUBLIC_URL}/zap`,
      event_types: ['order.delivered'],
      description: 'Zapier: delivered → Slack',
    });
    const { b } = await signedIn({ brandId: brand.brandId, role: 'developer' });
    const page = await b.get('/account/webhooks');
    expect(page.body).toContain(`data-endpoint="${endpoint.id}" data-origin="operator"`);
    expect(page.body).toContain(`data-endpoint="${subscription.id}" data-origin="api"`);
    expect(page.body).toContain('Zapier: delivered → Slack');
    expect(page.body).toContain('Webhook subscriptions are open to your brand');
    expect(page.body).toContain(`action="/account/webhooks/${subscription.id}/delete"`);
    expect(page.body).not.toContain(`action="/account/webhooks/${endpoint.id}/delete"`);

    // Without its CSRF field the form does nothing; the operator's endpoint is not the brand's to delete.
    expect((await b.post(`/account/webhooks/${subscription.id}/delete`, {})).status).toBe(403);
    expect((await b.submit('/account/webhooks', `/account/webhooks/${endpoint.id}/delete`, {})).status).toBe(
      404,
    );
    const done = await b.submit('/account/webhooks', `/account/webhooks/${subscription.id}/delete`, {});
    expect(done.status).toBe(303);
    const after = await b.get('/account/webhooks');
    expect(after.body).not.toContain(subscription.id);
    expect(after.body).toContain(endpoint.id);
    const { rows } = await t.pool.query(
      'SELECT id, status FROM webhook_endpoints WHERE brand_id = $1 ORDER BY id',
      [brand.brandId],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [endpoint.id]: 'active',
      [subscription.id]: 'deleted',
    });

    // French, and a brand not allowed yet is told to request access.
    const closed = await signedIn({ role: 'owner' });
    const fr = await closed.b.get('/account/webhooks?lang=fr');
    expect(fr.body).toContain('ne sont pas encore ouverts à votre marque');
    expect(fr.body).toContain('Demander l’accès aux webhooks');
    // …and its people cannot give a key the webhooks:write scope (the form says why, in French too).
    const form = { name: 'Zapier', scopes: ['orders:read', 'webhooks:write'], password: PASSWORD };
    const refused = await closed.b.submit('/account/keys?lang=fr', '/account/keys', form);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('est réservé aux marques dont les abonnements webhook sont ouverts');
    const keys = await t.pool.query('SELECT count(*)::int AS n FROM api_keys WHERE brand_id = $1', [
      closed.brandId,
    ]);
    expect(keys.rows[0].n).toBe(0);
  });

  it("lists only the brand's endpoints, with their last deliveries and outcome", async () => {
    const brand = await createBrandWithKey(t.deps);
    const { endpoint } = await t.deps.webhooks.add(
      {
        brandId: brand.brandId,
        url: PUBLIC_URL,
        events: 'order.created',
      },
      testOperator,
    );
    await t.deps.webhooks.disable(endpoint.id, testOperator, 'failing for 5 days');
    await t.deps.webhooks.enable(endpoint.id, testOperator);
    const { endpoint: second } = await t.deps.webhooks.add(
      {
        brandId: brand.brandId,
        url: `${PUBLIC_URL}/2`,
      },
      testOperator,
    );
    await t.deps.webhooks.disable(second.id, testOperator, 'failing for 5 days');
    expect((await createOrder(t.app, brand)).statusCode).toBeLessThan(300);
    const { rows } = await t.pool.query('SELECT id FROM outbox_events WHERE brand_id = $1', [brand.brandId]);
    const [deliveryId] = await fanOutWebhookEvent(t.deps, rows[0].id);
    await t.pool.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempt_count = 2, last_status = 502,
         next_attempt_at = now() WHERE id = $1`,
      [deliveryId],
    );
    const other = await createBrandWithKey(t.deps);
    const { endpoint: foreign } = await t.deps.webhooks.add(
      {
        brandId: other.brandId,
        url: 'https://93.184.216.35/x',
      },
      testOperator,
    );

    const { b } = await signedIn({ brandId: brand.brandId, role: 'developer' });
    const page = await b.get('/account/webhooks');
    expect(page.status).toBe(200);
    expect(page.body).toContain(`data-endpoint="${endpoint.id}"`);
    expect(page.body).toContain(`data-endpoint="${second.id}"`);
    expect(page.body).toContain('disabled — failing for 5 days');
    expect(page.body).not.toContain(foreign.id);
    expect(page.body).not.toContain('93.184.216.35');
    expect(page.body).not.toContain('whsec_');
    const row = page.body.match(new RegExp(`<tr data-delivery="${deliveryId}">[\\s\\S]*?</tr>`))?.[0] ?? '';
    expect(row).toContain('order.created');
    expect(row).toContain('failed, will retry');
    expect(row).toMatch(/>2<\/td>/);
    expect(row).toContain('502');
    expect(page.body).toContain('href="/account/webhooks"');
  });

  it('records a request (CSRF needed) and dlv webhooks requests lists it; a refused URL stores nothing', async () => {
    const { b, brandId, email } = await signedIn();
    const page = await b.get('/account/webhooks');
    const csrf = csrfOf(page.body);
    const fields = { url: PUBLIC_URL, events: ['order.created', 'order.status_changed'], message: 'Our ERP' };
    expect((await b.post('/account/webhooks/requests', fields)).status).toBe(403);
    expect((await b.post('/account/webhooks/requests', { ...fields, _csrf: 'forged' })).status).toBe(403);
    expect(await requestsOf(brandId)).toHaveLength(0);

    for (const [url, message] of [
      [
        'https://127.0.0.1/hook',
        '127.0.0.1 is not an allowed address; webhooks are only delivered to public addresses',
      ],
      ['https://169.254.169.254/latest/', 'webhooks are only delivered to public addresses'],
      ['http://93.184.216.34/hook', 'Endpoint URL (https, reachable from the internet): must use https'],
      ['not a url', 'is not a valid absolute URL'],
    ] as const) {
      const refused = await b.post('/account/webhooks/requests', { ...fields, url, _csrf: csrf });
      expect(refused.status, url).toBe(400);
      expect(refused.body).toContain('<p class="field-error" id="url-error">');
      expect(refused.body).toContain(message);
    }
    const noEvents = await b.post('/account/webhooks/requests', { url: PUBLIC_URL, _csrf: csrf });
    expect(noEvents.status).toBe(400);
    expect(noEvents.body).toContain('id="events-error"');
    const fr = await b.post('/account/webhooks/requests?lang=fr', {
      ...fields,
      url: 'https://10.0.0.1/',
      _csrf: csrf,
    });
    expect(fr.body).toContain('n’est pas une adresse publique');
    expect(fr.body).toContain('(10.0.0.1) : les webhooks ne partent que vers internet');
    expect(await requestsOf(brandId)).toHaveLength(0);

    const sent = await b.post('/account/webhooks/requests', { ...fields, _csrf: csrf });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe('/account/webhooks?requested=1');
    const stored = await requestsOf(brandId);
    expect(stored).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^whr_[0-9a-f]{16}$/),
        url: PUBLIC_URL,
        event_types: ['order.created', 'order.status_changed'],
        message: 'Our ERP',
        status: 'open',
      }),
    ]);
    const after = await b.get('/account/webhooks?requested=1&lang=en');
    expect(after.body).toContain('Your request is recorded');
    expect(after.body).toContain(PUBLIC_URL);

    const env = { DATABASE_URL: testDatabaseUrl() };
    const [json, human] = await Promise.all([
      runDlv(['webhooks', 'requests', '--json'], env),
      runDlv(['webhooks', 'requests'], env),
    ]);
    expect(json.code).toBe(0);
    const listed = (JSON.parse(json.stdout) as { requests: Record<string, unknown>[] }).requests;
    expect(listed.find((r) => r.brand_id === brandId)).toEqual({
      id: stored[0].id,
      brand_id: brandId,
      requested_by: email,
      url: PUBLIC_URL,
      events: ['order.created', 'order.status_changed'],
      message: 'Our ERP',
      status: 'open',
      created_at: expect.any(String),
    });
    expect(human.stdout).toContain(stored[0].id);
    expect(human.stdout).toContain('dlv webhooks add');

    // The operator answers: the request leaves the queue and the brand sees its status.
    const declined = await runDlv(
      ['webhooks', 'requests', 'close', stored[0].id, '--declined', '--json'],
      env,
    );
    expect(declined.code).toBe(0);
    expect(JSON.parse(declined.stdout).request).toMatchObject({ id: stored[0].id, status: 'declined' });
    expect(await requestsOf(brandId)).toEqual([expect.objectContaining({ status: 'declined' })]);
    const again = await runDlv(['webhooks', 'requests', 'close', stored[0].id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no open webhook request');

    // Opening the brand's subscription API answers its open requests.
    await b.post('/account/webhooks/requests', { ...fields, _csrf: csrf });
    const allowed = await runDlv(['brands', 'allow-webhooks', brandId, '--json'], env);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ answered_requests: 1 });
    const statuses = (await requestsOf(brandId)).map((r) => r.status).sort();
    expect(statuses).toEqual(['declined', 'done']);
  }, 60_000);

  it('is closed to finance people (403, no link), requests included', async () => {
    const { b, brandId } = await signedIn({ role: 'finance' });
    const home = await b.get('/account');
    expect(home.body).not.toContain('href="/account/webhooks"');
    expect(home.body).toContain('href="/account/rates"');
    expect((await b.get('/account/webhooks')).status).toBe(403);
    const res = await b.post('/account/webhooks/requests', {
      _csrf: csrfOf(home.body),
      url: PUBLIC_URL,
      events: 'order.created',
    });
    expect(res.status).toBe(403);
    expect(await requestsOf(brandId)).toHaveLength(0);
  });
});
