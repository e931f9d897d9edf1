import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redactUrl } from '../src/http/shared/logging.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';

/** The recipients' tracking page (/track/{token}) and the `tracking_url` that leads to it. */
const BASE = 'https://suivi.example.fr';
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
let now = new Date('2026-11-24T09:12:00Z'); // 10:12 in Paris
let t: TestApp;
let brand: TestBrand;
let ip = 0;
/** Each test from its own address: the page is rate-limited per address. */
const nextIp = () => `192.0.2.${++ip}`;

const ORDER = {
  customer_email: 'buyer.private@example.com',
  delivery_address: '12 rue Oberkampf 75011 Paris',
  delivery_recipient: 'Josephine Secretname',
  delivery_phone: '06 12 34 56 78',
  delivery_email: 'josephine.hidden@example.org',
  reference: 'CMD-SECRET-REF',
};

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now, config: { publicBaseUrl: BASE, webhooksAllowInsecure: true } });
  brand = await createBrandWithKey(t.deps);
  // A name stored before the sender-name rules refused `<`, `>` and `"` (#36 item 10): the page escapes it.
  await t.pool.query('UPDATE brands SET name = $2 WHERE id = $1', [brand.brandId, 'Atelier <Lune> & "Co"']);
});
afterAll(() => t.close());

async function tokenOf(trackingRef: string): Promise<string> {
  const { rows } = await t.pool.query('SELECT tracking_token FROM orders WHERE tracking_ref = $1', [
    trackingRef,
  ]);
  return rows[0].tracking_token;
}

const page = (url: string, headers: Record<string, string> = {}, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress });

describe('tracking_url', () => {
  it('points at an unguessable token, unique per order and unrelated to the ref', async () => {
    const refs: string[] = [];
    for (let i = 0; i < 20; i++) refs.push((await createOrder(t.app, brand, ORDER)).data.trackingRef);
    const tokens = await Promise.all(refs.map(tokenOf));
    for (const [i, token] of tokens.entries()) {
      expect(token).toMatch(TOKEN);
      expect(token).not.toContain(refs[i]!.slice(4));
    }
    expect(new Set(tokens).size).toBe(20);
  });

  it('is in the order JSON of create, detail and list, the same in each', async () => {
    const created = await createOrder(t.app, brand, ORDER);
    const ref = created.data.trackingRef;
    const url = `${BASE}/track/${await tokenOf(ref)}`;
    expect(created.data.order.tracking_url).toBe(url);
    const detail = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(detail.data.order.tracking_url).toBe(url);
    const list = await call(t.app, { method: 'GET', url: `${API}/orders?limit=200`, headers: brand.headers });
    expect(list.data.orders.find((o: { tracking_ref: string }) => o.tracking_ref === ref).tracking_url).toBe(
      url,
    );
    // The token itself is never a member of the JSON.
    expect(JSON.stringify(created.data)).not.toMatch(/tracking_token/);
  });

  it('is in the webhook payloads (order.created and order.status_changed)', async () => {
    const listening = await createBrandWithKey(t.deps);
    await t.deps.webhooks.add({ brandId: listening.brandId, url: 'http://127.0.0.1:9/hook' }, testOperator);
    const ref = (await createOrder(t.app, listening, ORDER)).data.trackingRef;
    await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
    const { rows } = await t.pool.query(
      'SELECT type, data FROM outbox_events WHERE brand_id = $1 ORDER BY seq',
      [listening.brandId],
    );
    const url = `${BASE}/track/${await tokenOf(ref)}`;
    expect(rows.map((r) => [r.type, r.data.order.tracking_url])).toEqual([
      ['order.created', url],
      ['order.status_changed', url],
    ]);
  });

  it('is given to orders stored before it existed (the migration backfills a random token)', async () => {
    const ref = (await createOrder(t.app, brand, ORDER)).data.trackingRef;
    const { rows } = await t.pool.query(
      `UPDATE orders SET tracking_token = DEFAULT WHERE tracking_ref = $1 RETURNING tracking_token`,
      [ref],
    );
    expect(rows[0].tracking_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await page(`/track/${rows[0].tracking_token}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(ref);
  });
});

describe('GET /track/{token}', () => {
  let ref: string;
  let token: string;
  beforeAll(async () => {
    now = new Date('2026-11-24T09:12:00Z');
    ref = (await createOrder(t.app, brand, ORDER)).data.trackingRef;
    token = await tokenOf(ref);
    now = new Date('2026-11-24T13:05:00Z');
    await t.deps.orders.setStatus(
      ref,
      'picked_up',
      'Handed over by Josephine Secretname at the door',
      testOperator,
    );
    now = new Date('2026-11-24T16:40:00Z');
    await t.deps.orders.setStatus(ref, 'in_transit', null, testOperator);
  });

  it('shows the brand, the status as a timeline in Paris time, the promised date and postcode and city', async () => {
    const res = await page(`/track/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const body = res.body;
    expect(body).toContain('<html lang="fr">');
    expect(body).toContain('Atelier &lt;Lune&gt; &amp; &quot;Co&quot;');
    expect(body).not.toContain('<Lune>');
    expect(body).toContain(ref);
    expect(body).toContain('Colis en transit');
    for (const step of [
      'Commande enregistrée',
      'Pris en charge',
      'En transit',
      'En cours de livraison',
      'Livré',
    ])
      expect(body).toContain(step);
    // Times in Europe/Paris (UTC+1 in November).
    expect(body).toMatch(/10:12/);
    expect(body).toMatch(/14:05/);
    expect(body).toMatch(/17:40/);
    expect(body).toContain('<time datetime="2026-11-24T13:05:00.000Z">');
    expect(body).toContain('mercredi 25 novembre'); // the promised day (standard: next working day)
    expect(body).toContain('75011 Paris');
    expect(body).toContain('aria-current="step"');
  });

  it("never shows the recipient's name, address, phone or e-mail, the customer's e-mail or the notes", async () => {
    for (const lang of ['fr', 'en']) {
      const body = (await page(`/track/${token}?lang=${lang}`)).body;
      for (const secret of [
        'Josephine',
        'Secretname',
        'Oberkampf',
        '12 rue',
        '06 12 34 56 78',
        '+33612345678',
        '612345678',
        'josephine.hidden',
        'example.org',
        'buyer.private',
        'example.com',
        'CMD-SECRET-REF',
        'Handed over',
        BASE,
      ])
        expect(body, `${lang}: ${secret}`).not.toContain(secret);
    }
  });

  it('speaks English with ?lang=en or an English Accept-Language, with a switch back', async () => {
    const en = await page(`/track/${token}?lang=en`);
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('Parcel in transit');
    expect(en.body).toContain('Wednesday 25 November');
    expect(en.body).toContain('href="?lang=fr"');
    const accepted = await page(`/track/${token}`, { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' });
    expect(accepted.body).toContain('<html lang="en">');
    expect(accepted.headers.vary).toMatch(/accept-language/i);
    const preferFr = await page(`/track/${token}`, { 'accept-language': 'de-DE, en;q=0.4, fr;q=0.8' });
    expect(preferFr.body).toContain('<html lang="fr">');
    expect(preferFr.body).toContain('href="?lang=en"');
    // ?lang wins over the header; an unknown value falls back to it.
    expect((await page(`/track/${token}?lang=fr`, { 'accept-language': 'en' })).body).toContain('lang="fr"');
    expect((await page(`/track/${token}?lang=xx`, { 'accept-language': 'en' })).body).toContain('lang="en"');
  });

  it('sends its own strict CSP, noindex and no-store; loads nothing from elsewhere', async () => {
    const res = await page(`/track/${token}`);
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers['x-robots-tag']).toMatch(/^noindex/);
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).not.toMatch(/<script|style=|https?:\/\//i);
    const css = res.body.match(/<link rel="stylesheet" href="([^"]+)">/)![1]!;
    expect(css).toMatch(/^\/track\/assets\/tracking\.css\?v=[0-9a-f]{12}$/);
    const sheet = await page(css);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(sheet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(sheet.body).not.toMatch(/url\(|@import|https?:\/\//);
  });

  it('shows a delivered, a failed attempt and a cancelled order for what they are', async () => {
    const delivered = (await createOrder(t.app, brand, ORDER)).data.trackingRef;
    for (const s of ['picked_up', 'in_transit', 'out_for_delivery', 'failed_attempt'] as const)
      await t.deps.orders.setStatus(delivered, s, null, testOperator);
    expect((await page(`/track/${await tokenOf(delivered)}`)).body).toContain(
      'Tentative de livraison échouée',
    );
    await t.deps.orders.setStatus(delivered, 'out_for_delivery', null, testOperator);
    await t.deps.orders.setStatus(delivered, 'delivered', null, testOperator);
    const done = (await page(`/track/${await tokenOf(delivered)}?lang=en`)).body;
    expect(done).toContain('Delivered on');
    expect(done).not.toContain('Expected delivery');
    const cancelled = (await createOrder(t.app, brand, ORDER)).data.trackingRef;
    await call(t.app, { method: 'POST', url: `${API}/orders/${cancelled}/cancel`, headers: brand.headers });
    const body = (await page(`/track/${await tokenOf(cancelled)}`)).body;
    expect(body).toContain('Livraison annulée');
    expect(body).not.toContain('Pris en charge');
  });
});

describe('an unknown or malformed token', () => {
  it('gets the same 404 page, which tells nothing about orders', async () => {
    const urls = [
      `/track/${'A'.repeat(22)}`,
      `/track/${'A'.repeat(43)}`,
      '/track/short',
      '/track/DLV-0000000000',
      "/track/%3Cscript%3E'",
      '/track/%E0%A4%A',
      `/track/${'x'.repeat(300)}`,
      '/track/a/b',
      '/track',
    ];
    const bodies = new Set<string>();
    for (const url of urls) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['x-robots-tag'], url).toMatch(/^noindex/);
      expect(res.headers['content-security-policy'], url).toMatch(/^default-src 'none'; style-src 'self'/);
      expect(res.body).toContain('Lien de suivi introuvable');
      expect(res.body).not.toContain('<script');
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    expect((await page('/track/nope', { 'accept-language': 'en' })).body).toContain(
      'Tracking link not found',
    );
  });
});

describe('a failure behind the page', () => {
  it('is an error page without internals, 503 when the database is away', async () => {
    const track = vi.spyOn(t.deps.orders, 'track');
    try {
      track.mockRejectedValueOnce(new Error('relation "orders" does not exist at /work/src/x.ts:1:1'));
      const failed = await page(`/track/${'A'.repeat(22)}`);
      expect(failed.statusCode).toBe(500);
      expect(failed.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(failed.body).toContain('Service momentanément indisponible');
      expect(failed.body).not.toMatch(/relation|\/work\/|x\.ts/);
      track.mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      expect((await page(`/track/${'A'.repeat(22)}`)).statusCode).toBe(503);
    } finally {
      track.mockRestore();
    }
  });
});

describe('rate limiting', () => {
  it('refuses a client after 30 pages at once with a 429 page, not the others', async () => {
    const token = await tokenOf((await createOrder(t.app, brand, ORDER)).data.trackingRef);
    const address = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await page(`/track/${i % 2 ? token : 'unknown'}`, {}, address)).statusCode);
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    const refused = await page(`/track/${token}`, {}, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('Trop de requêtes');
    expect(refused.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'self'/);
    expect((await page(`/track/${token}`, {}, nextIp())).statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('keep only the first 4 characters of a tracking token', () => {
    expect(redactUrl('/track/q3J5vT8wZ0bXcR2mK9yL4A?lang=en')).toBe('/track/q3J5[redacted]?lang=en');
    expect(redactUrl('/track/assets/tracking.css?v=abc')).toBe('/track/assets/tracking.css?v=abc');
    expect(redactUrl('/public/v1/orders/DLV-7K3M9Q2XHP')).toBe('/public/v1/orders/DLV-7K3M9Q2XHP');
  });
});

describe('the public API document', () => {
  it('does not describe the tracking pages', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API}/openapi.json` });
    expect(Object.keys(res.data.paths).filter((p) => p.includes('track/'))).toEqual([]);
    expect(res.data.components.schemas.OrderSummary.properties.tracking_url).toMatchObject({ format: 'uri' });
  });
});
