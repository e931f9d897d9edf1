import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableInk } from '../src/domain/recipients/settings-rules.ts';
import { redactUrl } from '../src/http/shared/logging.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { logoImage } from './support/logos.ts';
import { createOrder } from './support/orders.ts';

/** The tracking page in the brand's look (logo, colour) and the logo's own route. */
let t: TestApp;
let ip = 0;
const nextIp = () => `198.51.100.${++ip}`;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: nextIp() });

async function trackingUrlOf(brand: TestBrand): Promise<string> {
  const ref = (await createOrder(t.app, brand)).data.trackingRef;
  const { rows } = await t.pool.query('SELECT tracking_token FROM orders WHERE tracking_ref = $1', [ref]);
  return `/track/${rows[0].tracking_token}`;
}

let logoWidth = 600;

/** A brand with its colour and logo (its own: a logo's URL is its digest) chosen, and one order's tracking page. */
async function brandedBrand(colour: string) {
  const brand = await createBrandWithKey(t.deps, { name: 'Maison Lumière' });
  await t.deps.recipientSettings.update(
    brand.brandId,
    {
      emailSteps: [],
      smsSteps: [],
      senderName: '',
      colour,
      locale: 'fr',
      shopNotifies: false,
    },
    testOperator,
  );
  const settings = await t.deps.recipientSettings.uploadLogo(
    brand.brandId,
    await logoImage('png', ++logoWidth),
    testOperator,
  );
  return { brand, sha: settings.logoSha256!, url: await trackingUrlOf(brand) };
}

describe('the branded tracking page', () => {
  it('keeps the brand’s look on the self-service pages (logo, colour by nonce)', async () => {
    const { brand, sha, url } = await brandedBrand('#7c3aed');
    const res = await get(`${url}/change`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`src="/track/assets/logo/${brand.brandId}/${sha}.png"`);
    expect(res.body).toContain('<body class="branded">');
    const nonce = res.body.match(/<style nonce="([^"]+)">/)![1]!;
    expect(res.headers['content-security-policy']).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(res.body).not.toMatch(/style=/i);
  });

  it('shows the brand’s logo and name, and sets its colour through a nonced <style> only', async () => {
    const { brand, sha, url } = await brandedBrand('#0f766e');
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      `<img class="brand-logo" src="/track/assets/logo/${brand.brandId}/${sha}.png" alt="" height="40">`,
    );
    expect(res.body).toContain('<span class="brand-name">Maison Lumière</span>');
    const style = res.body.match(/<style nonce="([^"]+)">([^<]*)<\/style>/);
    expect(style).not.toBeNull();
    const [, nonce, css] = style!;
    expect(css).toBe(':root{--brand:#0f766e;--brand-ink:#ffffff}');
    expect(res.body).toContain('<body class="branded">');
    // The CSP admits that one element by its nonce, and nothing else: no style attribute, no script.
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    );
    expect(res.body).not.toMatch(/<script|style=/i);
    expect(res.body.match(/<style/g)).toHaveLength(1);
    // A fresh nonce on every page.
    const again = await get(url);
    expect(again.body.match(/<style nonce="([^"]+)">/)![1]).not.toBe(nonce);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it('writes black on a light colour and white on a dark one', async () => {
    const light = await brandedBrand('#ffe14d');
    expect((await get(light.url)).body).toContain(':root{--brand:#ffe14d;--brand-ink:#000000}');
    expect(readableInk('#ffffff')).toBe('#000000');
    expect(readableInk('#000000')).toBe('#ffffff');
    expect(readableInk('#0b5cad')).toBe('#ffffff');
    expect(readableInk('#76b900')).toBe('#000000');
    // Whichever of black and white contrasts more: never below 4.5:1 (WCAG AA for text).
    for (const colour of ['#777777', '#808080', '#ff0000', '#00ff00', '#0000ff', '#c2410c']) {
      const ink = readableInk(colour);
      expect(contrast(colour, ink), colour).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps the service’s look without settings: no <style>, the CSP unchanged, the monogram', async () => {
    const brand = await createBrandWithKey(t.deps, { name: 'Plain Brand' });
    const res = await get(await trackingUrlOf(brand));
    expect(res.body).not.toContain('<style');
    expect(res.body).not.toContain('brand-logo');
    expect(res.body).toContain('<span class="monogram" aria-hidden="true">P</span>');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it('shows a logo without a colour on the service’s bar, with no <style>', async () => {
    const brand = await createBrandWithKey(t.deps);
    const { logoSha256 } = await t.deps.recipientSettings.uploadLogo(
      brand.brandId,
      await logoImage('jpeg'),
      testOperator,
    );
    const res = await get(await trackingUrlOf(brand));
    expect(res.body).toContain(`/track/assets/logo/${brand.brandId}/${logoSha256}.png`);
    expect(res.body).not.toContain('<style');
    expect(res.body).toContain('<body>');
  });

  it('never shows another brand’s logo or colour', async () => {
    const a = await brandedBrand('#be185d');
    const b = await brandedBrand('#1d4ed8');
    const plain = await createBrandWithKey(t.deps);
    const pageB = (await get(b.url)).body;
    expect(pageB).not.toContain(a.sha);
    expect(pageB).not.toContain(a.brand.brandId);
    expect(pageB).not.toContain('#be185d');
    const plainPage = (await get(await trackingUrlOf(plain))).body;
    for (const secret of [a.sha, b.sha, '#be185d', '#1d4ed8', 'brand-logo'])
      expect(plainPage).not.toContain(secret);
  });
});

describe('GET /track/assets/logo/{brandId}/{sha256}.png', () => {
  it('serves the PNG for a year (immutable), typed and not sniffed', async () => {
    const { brand, sha } = await brandedBrand('#15803d');
    const res = await get(`/track/assets/logo/${brand.brandId}/${sha}.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await sharp(res.rawPayload).metadata()).format).toBe('png');
    expect(redactUrl(`/track/assets/logo/${brand.brandId}/${sha}.png`)).toBe(
      `/track/assets/logo/${brand.brandId}/${sha}.png`,
    );
  });

  it('answers 404 (not cached) for a wrong digest, another brand, an old logo or a malformed name', async () => {
    const a = await brandedBrand('#15803d');
    const b = await brandedBrand('#b45309');
    const old = a.sha;
    await t.deps.recipientSettings.uploadLogo(
      a.brand.brandId,
      await logoImage('webp', 300, 300),
      testOperator,
    );
    const urls = [
      `/track/assets/logo/${a.brand.brandId}/${'0'.repeat(64)}.png`,
      `/track/assets/logo/${a.brand.brandId}/${b.sha}.png`,
      `/track/assets/logo/${b.brand.brandId}/${old}.png`,
      `/track/assets/logo/${a.brand.brandId}/${old}.png`,
      `/track/assets/logo/${a.brand.brandId}/${old.toUpperCase()}.png`,
      `/track/assets/logo/${a.brand.brandId}/${old}.svg`,
      `/track/assets/logo/${a.brand.brandId}/${old}`,
      `/track/assets/logo/brd_0000000000000000/${old}.png`,
      `/track/assets/logo/not-a-brand/${old}.png`,
      `/track/assets/logo/${a.brand.brandId}/..%2F..%2Fetc%2Fpasswd.png`,
      `/track/assets/logo/${a.brand.brandId}`,
    ];
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('is rate limited per address in a bucket of its own', async () => {
    const limited = await buildTestApp();
    try {
      const brand = await createBrandWithKey(limited.deps);
      const { logoSha256 } = await limited.deps.recipientSettings.uploadLogo(
        brand.brandId,
        await logoImage('png'),
        testOperator,
      );
      const url = `/track/assets/logo/${brand.brandId}/${logoSha256}.png`;
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++)
        statuses.push((await limited.app.inject({ url, remoteAddress: '203.0.113.7' })).statusCode);
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
      // The pages keep their own budget.
      expect(
        (await limited.app.inject({ url: '/track/unknown', remoteAddress: '203.0.113.7' })).statusCode,
      ).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) =>
    [1, 3, 5]
      .map((i) => Number.parseInt(c.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
