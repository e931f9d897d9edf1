import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consoleMapRepository } from '../../db/repositories/console-map-repository.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
import { type DayMap, dayMapOf } from '../../domain/console/day-map.ts';
import { AppError } from '../../errors.ts';
import { query } from '../account/form.ts';
import { html } from '../shared/html.ts';
import { needs, OPEN, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { CONSOLE_PATH, layout } from './views/layout.ts';
import { mapJson, mapList } from './views/map.ts';

const leaflet = createRequire(import.meta.url);
const file = (type: string, path: string | URL) => ({ type, body: readFileSync(path) });

/**
 * The map's files, served by the console itself (no third-party origin): Leaflet's script and
 * stylesheet as npm ships them, and the page's own. Leaflet's images are not served: they draw its
 * default marker and layer switcher, which the page does not use (its markers are vector or CSS).
 */
const MAP_FILES: Record<string, { type: string; body: Buffer }> = {
  'leaflet.js': file('text/javascript; charset=utf-8', leaflet.resolve('leaflet/dist/leaflet.js')),
  'leaflet.css': file('text/css; charset=utf-8', leaflet.resolve('leaflet/dist/leaflet.css')),
  'map.js': file('text/javascript; charset=utf-8', new URL('./static/map.js', import.meta.url)),
  'map.css': file('text/css; charset=utf-8', new URL('./static/map.css', import.meta.url)),
};

/** The map refreshes on the board's changes; positions (not on the board) at least this often. */
const POSITIONS_REFRESH_MS = 30_000;

/**
 * The console's Map: the day's stops and pickups coloured by round, each round's line in stop
 * order, the couriers' last shared positions; a stop leads to its order. The page draws nothing
 * itself: its script fetches `/map/data` (JSON) and the list beside the map (`/map/stops`, HTML)
 * when it opens, on each change of the board's stream and every 30 s.
 */
export function mapRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const reader = consoleMapRepository(deps.pool);
  const tiles = deps.config.consoleMap;

  /** The day's map, the one round asked for (`?round=`) or all; a round not of the day is a 404. */
  async function dayMap(request: FastifyRequest): Promise<{ map: DayMap; roundId: string | null }> {
    const roundId = query(request, 'round', 40) || null;
    const now = deps.clock();
    const date = parisToday(now);
    const rows = await reader.dayMap(date);
    if (roundId !== null && !rows.rounds.some((r) => r.id === roundId))
      throw new AppError('not_found', `No round ${roundId} today.`);
    return { map: dayMapOf(date, now, rows, roundId ?? undefined), roundId };
  }

  const roundQuery = (roundId: string | null) => (roundId ? `?round=${encodeURIComponent(roundId)}` : '');

  app.get('/static/map/:file', OPEN, async (request, reply) => {
    const found = MAP_FILES[(request.params as { file: string }).file];
    if (!found) throw new AppError('not_found', 'No such file.');
    return reply.type(found.type).header('cache-control', 'public, max-age=300').send(found.body);
  });

  app.get('/map', needs('rounds:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const { t } = ctx;
    const { map, roundId } = await dayMap(request);
    allowTileImages(reply, tiles.tileUrl);
    return sendPage(
      reply,
      layout(
        ctx,
        `${t('map.title')} — ${map.date}`,
        html`<link rel="stylesheet" href="${CONSOLE_PATH}/static/map/leaflet.css">
<link rel="stylesheet" href="${CONSOLE_PATH}/static/map/map.css">
<form method="get" action="${CONSOLE_PATH}/map" class="filters map-filter">
<div><label for="map-round">${t('map.round')}</label>
<select id="map-round" name="round"><option value="">${t('map.allRounds')}</option>
${map.rounds.map((r) => html`<option value="${r.id}"${r.id === roundId ? html` selected` : ''}>${r.name}${r.courierName ? ` — ${r.courierName}` : ''}</option>`)}
</select></div>
<div class="actions"><button type="submit">${t('map.show')}</button></div>
<p id="map-live" class="live" role="status" aria-live="polite" data-live="${t('today.live')}" data-offline="${t('today.offline')}"></p>
</form>
<div class="map-layout">
<div id="map" class="map-canvas" role="region" aria-label="${t('map.label')}"
 data-src="${CONSOLE_PATH}/map/data${roundQuery(roundId)}" data-list="${CONSOLE_PATH}/map/stops${roundQuery(roundId)}"
 data-events="${CONSOLE_PATH}/today/events" data-refresh-ms="${POSITIONS_REFRESH_MS}"
 data-tiles="${tiles.tileUrl ?? ''}" data-attribution="${tiles.attribution ?? ''}"></div>
<aside id="map-stops" class="map-stops panel" aria-labelledby="h-map-stops">
<h2 id="h-map-stops">${t('map.stops')}</h2>
<p class="hint">${t('map.hint')}</p>
<ul class="map-legend map-none">
<li><span class="map-key map-key-stop" aria-hidden="true"></span> ${t('map.key.stop')}</li>
<li><span class="map-key map-key-done" aria-hidden="true"></span> ${t('map.key.done')}</li>
<li><span class="map-key map-key-pickup" aria-hidden="true"></span> ${t('map.key.pickup')}</li>
<li><span class="map-key map-key-courier" aria-hidden="true"></span> ${t('map.key.courier')}</li>
</ul>
<div id="map-list">${mapList(ctx, map, roundId)}</div>
</aside>
</div>`,
        { wide: true, scripts: ['map/leaflet.js', 'map/map.js'] },
      ),
    );
  });

  // What the map draws: JSON for the page's script (session-authenticated like every console page).
  app.get('/map/data', needs('rounds:read'), async (request, reply) => {
    const { map } = await dayMap(request);
    return reply.type('application/json; charset=utf-8').send(mapJson(map));
  });

  // The list beside the map, swapped in by the page's script with the map's data.
  app.get('/map/stops', needs('rounds:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const { map, roundId } = await dayMap(request);
    return sendPage(reply, mapList(ctx, map, roundId).value);
  });
}

/**
 * The console's CSP allows images from its own origin only. A tile server on another origin (set by
 * the operator in CONSOLE_MAP_TILE_URL) is allowed on this page alone, for images alone; Leaflet's
 * `{s}` subdomains become the CSP's `*.` wildcard. A tile path on the console's origin needs nothing.
 */
function allowTileImages(reply: FastifyReply, tileUrl: string | null): void {
  const origin = tileUrl?.match(/^https?:\/\/[^/]+/)?.[0];
  if (!origin) return;
  const csp = String(reply.getHeader('content-security-policy') ?? '');
  reply.header(
    'content-security-policy',
    csp.replace("img-src 'self' data:", `img-src 'self' data: ${origin.replace('{s}', '*')}`),
  );
}
