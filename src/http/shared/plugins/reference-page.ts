import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.join(here, 'reference');
/**
 * Redoc's standalone bundle: copied beside this module by the build (scripts/build.js), so the image
 * serves it without development packages; from a checkout, the one @redocly/cli ships (the OpenAPI
 * linter of .ci/run). Both are this server's files: the page loads nothing from another origin.
 */
const REDOC_CANDIDATES = [
  path.join(ASSETS, 'redoc.standalone.js'),
  path.resolve(here, '../../../../node_modules/@redocly/cli/lib/chunks/redoc.standalone.js'),
];

function redocBundle(): string | null {
  return REDOC_CANDIDATES.find((file) => existsSync(file)) ?? null;
}

/**
 * Redoc's sidebar credits it with an image fetched from Redocly's CDN (`cdn.redoc.ly`), whatever the
 * options: a request to a third party from every visitor's browser (the CSP refuses it, and the
 * console says so). The bundle is served with that image drawn in place instead (a data: SVG with
 * the same words), so the page asks nothing of another origin and the credit stays.
 */
const REDOCLY_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const CREDIT_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16"><text x="0" y="12" font-family="system-ui,sans-serif" font-size="12" font-weight="600" fill="#5c6470">Redocly</text></svg>',
)}`;
let servedBundle: Buffer | null = null;

/** The bundle as served: read once, its CDN image replaced (see REDOCLY_LOGO). */
function servedRedocBundle(): Buffer {
  if (servedBundle) return servedBundle;
  const bundle = redocBundle();
  if (!bundle) throw new Error('Redoc’s bundle is missing: build with scripts/build.js (it copies it)');
  servedBundle = Buffer.from(readFileSync(bundle, 'utf8').replace(REDOCLY_LOGO, CREDIT_IMAGE));
  return servedBundle;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The API reference at `<prefix>/docs`: the product's own page (name, logo, support contact) with
 * Redoc rendering the OpenAPI document and code samples in curl and the three SDKs. Every asset is
 * served from here under `<prefix>/docs/`; the page has no inline script (see security-headers.ts).
 */
export function registerReferencePage(
  app: FastifyInstance,
  prefix: string,
  /** Read at the first request: the document's title and contact are known once the routes are. */
  describe: () => { title: string; contact: string },
): void {
  const hidden = { schema: { hide: true } };
  const logo = readFileSync(path.join(ASSETS, 'logo.svg'));
  const script = readFileSync(path.join(ASSETS, 'reference.js'));
  let html: string | null = null;
  const pageHtml = (page: { title: string; contact: string }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} — API reference · Livraison DLV</title>
<link rel="icon" href="${prefix}/docs/logo.svg" type="image/svg+xml">
<link rel="stylesheet" href="${prefix}/docs/reference.css">
</head>
<body>
<header class="brand-bar">
  <a class="brand" href="${prefix}/docs"><img src="${prefix}/docs/logo.svg" alt="Livraison DLV" width="200" height="48"></a>
  <nav>
    <a href="${prefix}/openapi.json">OpenAPI 3.1 document</a>
    <a href="mailto:${escapeHtml(page.contact)}">Support: ${escapeHtml(page.contact)}</a>
  </nav>
</header>
<main id="reference" data-spec="${prefix}/openapi.json">Loading the reference…</main>
<script type="module" src="${prefix}/docs/reference.js"></script>
</body>
</html>
`;
  const css = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#14213d}
.brand-bar{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.25rem 1.25rem;border-bottom:1px solid #dfe3eb;background:#fff}
.brand-bar nav{display:flex;gap:1.25rem;font-size:.9rem}
.brand-bar a{color:#0b5cab;text-decoration:none}
.brand-bar a:hover{text-decoration:underline}
#reference{min-height:80vh}
`;
  const cached = 'public, max-age=3600';
  app.get('/docs', hidden, (_req, reply) => {
    html ??= pageHtml(describe());
    return reply.type('text/html; charset=utf-8').send(html);
  });
  app.get('/docs/reference.css', hidden, (_req, reply) =>
    reply.header('cache-control', cached).type('text/css; charset=utf-8').send(css),
  );
  app.get('/docs/reference.js', hidden, (_req, reply) =>
    reply.header('cache-control', cached).type('text/javascript; charset=utf-8').send(script),
  );
  app.get('/docs/logo.svg', hidden, (_req, reply) =>
    reply.header('cache-control', cached).type('image/svg+xml').send(logo),
  );
  app.get('/docs/redoc.standalone.js', hidden, (_req, reply) =>
    reply.header('cache-control', cached).type('text/javascript; charset=utf-8').send(servedRedocBundle()),
  );
}
