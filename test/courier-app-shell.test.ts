import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURIER_APP_CSP } from '../src/http/courier/app-shell.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

/** The courier app's shell, files, manifest and service worker, through inject. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

function configOf(body: string) {
  const match = /<script type="application\/json" id="courier-config">(.*?)<\/script>/s.exec(body);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as {
    version: string;
    assets: string;
    locale: string;
    refPattern: string;
    words: Record<'fr' | 'en', Record<string, string>>;
  };
}

describe('GET /courier/', () => {
  it('is the shell: no inline script, its own origin only, both languages as data', async () => {
    const res = await get('/courier/', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(COURIER_APP_CSP);
    expect(COURIER_APP_CSP).not.toMatch(/unsafe-inline|https?:|\*/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<html lang="en">');
    // Scripts: external modules only, from /courier/assets/<version>/; the JSON block is data.
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attrs, content] of scripts) {
      if (attrs!.includes('application/json')) continue;
      expect(attrs).toMatch(/ src="\/courier\/assets\/[0-9a-f]{12}\/app\.js"/);
      expect(content).toBe('');
    }
    const config = configOf(res.body);
    expect(config.locale).toBe('en');
    expect(config.words.fr.waiting).toContain('en attente');
    expect(config.words.en.waiting).toBe('{count} waiting to be sent');
    expect(new RegExp(config.refPattern).test('DLV-0123456789')).toBe(true);
    expect(res.body).toContain('<link rel="manifest" href="/courier/manifest.webmanifest">');
  });

  it('speaks French by default and on ?lang=fr', async () => {
    for (const res of [await get('/courier/'), await get('/courier/?lang=fr', { 'accept-language': 'en' })]) {
      expect(res.body).toContain('<html lang="fr">');
      expect(res.body).toContain('Tournée coursier');
    }
  });

  it('escapes what could close the data block', async () => {
    const res = await get('/courier/');
    const block = /id="courier-config">(.*?)<\/script>/s.exec(res.body)![1]!;
    expect(block).not.toContain('<');
  });
});

describe('the app files', () => {
  it('serves every file the shell names, cached for a year, and refuses another version', async () => {
    const config = configOf((await get('/courier/')).body);
    for (const [name, type] of [
      ['app.js', 'text/javascript; charset=utf-8'],
      ['sender.js', 'text/javascript; charset=utf-8'],
      ['courier.css', 'text/css; charset=utf-8'],
      ['icon-192.png', 'image/png'],
      ['zxing-reader.js', 'text/javascript; charset=utf-8'],
      ['zxing_reader.wasm', 'application/wasm'],
    ] as const) {
      const res = await get(`${config.assets}/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type'], name).toBe(type);
      expect(res.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
    }
    const wasm = await get(`${config.assets}/zxing_reader.wasm`);
    expect(wasm.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    for (const url of [
      '/courier/assets/000000000000/app.js',
      `${config.assets}/nope.js`,
      `${config.assets}/sw.js`,
      `${config.assets}/..%2Fapp-shell.ts`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ ok: false, error: 'not_found' });
    }
  });

  it('never points the barcode reader at a CDN: the app sets its .wasm location to this origin', async () => {
    const config = configOf((await get('/courier/')).body);
    const scanner = (await get(`${config.assets}/scanner.js`)).body;
    expect(scanner).toContain('locateFile');
    expect(scanner).toContain('zxing_reader.wasm');
  });
});

describe('install', () => {
  it('has a manifest for an installable app at /courier/', async () => {
    const res = await get('/courier/manifest.webmanifest', { 'accept-language': 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    const manifest = res.json();
    expect(manifest).toMatchObject({
      name: 'Courier round',
      start_url: '/courier/',
      scope: '/courier/',
      display: 'standalone',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
    });
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const png = await get(icon.src);
      expect(png.statusCode).toBe(200);
      // The PNG's width, from its IHDR chunk, is the size the manifest states.
      expect(`${png.rawPayload.readUInt32BE(16)}x${png.rawPayload.readUInt32BE(20)}`).toBe(icon.sizes);
    }
  });

  it('has a service worker caching this release (shell and files), never the API', async () => {
    const config = configOf((await get('/courier/')).body);
    const res = await get('/courier/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(`const VERSION = "${config.version}"`);
    expect(res.body).toContain(`"${config.assets}/app.js"`);
    expect(res.body).not.toContain('__VERSION__');
    expect(res.body).not.toMatch(/\/courier\/api/);
  });
});
