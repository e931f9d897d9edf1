import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canTransition, ORDER_STATUSES } from '../../domain/orders/state-machine.ts';
import { TRACKING_REF_PATTERN } from '../../domain/orders/tracking-ref.ts';
import { AppError } from '../../errors.ts';
import { courierWords } from '../../i18n/courier-app.ts';
import { type Locale, negotiateLocale } from '../../i18n/locales.ts';
import { html, SafeHtml, toText } from '../shared/html.ts';

/**
 * The courier app's shell (`/courier/`), its scripts and styles (`/courier/assets/<version>/…`),
 * its web app manifest and its service worker (`/courier/sw.js`). All public: they hold no data.
 * What a courier sees comes from the JSON API of the courier plugin (`/courier/api/v1/…`), which
 * the scripts call with the session cookie; without a session they go to `/courier/login`.
 *
 * The page's scripts are plain ES modules, served as they are written (no bundler): they import one
 * another by relative paths under one versioned directory, so a new release is a new directory and
 * every file can be cached for a year.
 */

export const COURIER_SHELL_PREFIX = '/courier';

/**
 * Scripts and styles from this origin only; `'wasm-unsafe-eval'` because the barcode reader of
 * phones without `BarcodeDetector` is ZXing compiled to WebAssembly (served from here too). Photos
 * and the signature are previewed from `blob:` URLs; the camera is a `MediaStream`.
 */
export const COURIER_APP_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; " +
  "media-src 'self' blob: mediastream:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));
const THEME = '#14532d';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

interface Asset {
  body: Buffer;
  type: string;
}

/** The app's files, read once: its own (client/) and ZXing's reader from the npm package. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(CLIENT_DIR).sort()) {
    const type = TYPES[path.extname(name)];
    if (type && name !== 'sw.js') assets.set(name, { body: readFileSync(path.join(CLIENT_DIR, name)), type });
  }
  // zxing-wasm fetches its WebAssembly from a CDN unless told where it is: the app tells it here.
  const require = createRequire(import.meta.url);
  const wasm = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
  assets.set('zxing-reader.js', {
    body: readFileSync(path.join(path.dirname(wasm), '..', 'iife', 'reader', 'index.js')),
    type: TYPES['.js']!,
  });
  assets.set('zxing_reader.wasm', { body: readFileSync(wasm), type: TYPES['.wasm']! });
  return assets;
}

const ROUTE = { config: { auth: 'none' as const }, schema: { hide: true } };

function localeOf(request: FastifyRequest): Locale {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  return negotiateLocale(request.headers['accept-language'], { asked, fallback: 'fr' });
}

/** Data for the page's scripts, in a non-executed `<script type="application/json">` (no inline code). */
const jsonData = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

interface Release {
  assets: Map<string, Asset>;
  version: string;
  /** `/courier/assets/<version>`: where this release's files are. */
  base: string;
  serviceWorker: string;
}

let release: Release | null = null;

/** This release's files and their version (a digest of them all), read once per process. */
function courierRelease(): Release {
  if (release) return release;
  const assets = loadAssets();
  const hash = createHash('sha256');
  for (const [name, asset] of assets) hash.update(name).update(asset.body);
  const swTemplate = readFileSync(path.join(CLIENT_DIR, 'sw.js'), 'utf8');
  hash.update(swTemplate);
  const version = hash.digest('hex').slice(0, 12);
  const base = `${COURIER_SHELL_PREFIX}/assets/${version}`;
  const assetUrls = [...assets.keys()].map((name) => `${base}/${name}`);
  const serviceWorker = swTemplate
    .replace("'__VERSION__'", JSON.stringify(version))
    .replace('/*ASSETS*/ []', JSON.stringify(assetUrls));
  release = { assets, version, base, serviceWorker };
  return release;
}

/** The app's stylesheet, which the server-rendered courier pages (sign-in, password) wear too. */
export const courierStylesheet = (): string => `${courierRelease().base}/courier.css`;

export function courierAppShell() {
  const { assets, version, base, serviceWorker } = courierRelease();

  const shell = (locale: Locale) => {
    const words = courierWords(locale);
    const data = {
      version,
      assets: base,
      locale,
      refPattern: TRACKING_REF_PATTERN.source,
      // The parcels' moves, so the app offers only the scans a parcel can take (its door only when
      // out for delivery), counting what the phone has queued and not yet sent.
      moves: Object.fromEntries(
        ORDER_STATUSES.map((from) => [from, ORDER_STATUSES.filter((to) => canTransition(from, to))]),
      ),
      words: { fr: courierWords('fr'), en: courierWords('en') },
    };
    return toText(html`<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex, nofollow">
<meta name="theme-color" content="${THEME}">
<title>${words.appName}</title>
<link rel="manifest" href="${COURIER_SHELL_PREFIX}/manifest.webmanifest">
<link rel="icon" href="${base}/icon-192.png">
<link rel="apple-touch-icon" href="${base}/icon-192.png">
<link rel="stylesheet" href="${base}/courier.css">
<script type="application/json" id="courier-config">${new SafeHtml(jsonData(data))}</script>
<script type="module" src="${base}/app.js"></script>
</head>
<body>
<header class="bar"><span class="title">${words.appName}</span></header>
<main id="app"><p class="muted" id="boot">${words.loading}</p>
<noscript><p class="notice">${words.noScript}</p></noscript></main>
</body>
</html>`);
  };
  const shells: Record<Locale, string> = { fr: shell('fr'), en: shell('en') };

  return async (app: FastifyInstance) => {
    // Every answer of the shell's routes, errors too, carries the app's policy.
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('content-security-policy', COURIER_APP_CSP);
    });

    app.get('/', ROUTE, async (request, reply) =>
      reply
        // Revalidated each time online (the service worker keeps a copy for offline starts).
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-language')
        .type('text/html; charset=utf-8')
        .send(shells[localeOf(request)]),
    );

    app.get('/manifest.webmanifest', ROUTE, async (request, reply) => {
      const locale = localeOf(request);
      const words = courierWords(locale);
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-language')
        .type('application/manifest+json; charset=utf-8')
        .send(
          JSON.stringify({
            name: words.appName,
            short_name: words.appName,
            lang: locale,
            start_url: `${COURIER_SHELL_PREFIX}/`,
            scope: `${COURIER_SHELL_PREFIX}/`,
            display: 'standalone',
            orientation: 'portrait',
            theme_color: THEME,
            background_color: '#ffffff',
            icons: [
              { src: `${base}/icon-192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
              { src: `${base}/icon-512.png`, sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
            ],
          }),
        );
    });

    app.get('/sw.js', ROUTE, async (_request, reply) =>
      reply
        // A browser checks its worker for updates; a stale one would keep serving an old release.
        .header('cache-control', 'no-cache')
        .header('service-worker-allowed', `${COURIER_SHELL_PREFIX}/`)
        .type('text/javascript; charset=utf-8')
        .send(serviceWorker),
    );

    app.get<{ Params: { version: string; name: string } }>(
      '/assets/:version/:name',
      ROUTE,
      async (request, reply) => {
        const asset = assets.get(request.params.name);
        // Another release's file is not served under this one's name: the shell names this release's.
        if (!asset || request.params.version !== version) {
          throw new AppError('not_found', 'No such courier app file.');
        }
        return reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .type(asset.type)
          .send(asset.body);
      },
    );
  };
}
