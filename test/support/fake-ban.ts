import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type BanFeature, banFeatures, lambert93, words } from './fake-ban/addresses.ts';

/**
 * A faithful fake of the Base Adresse Nationale's geocoding API (api-adresse.data.gouv.fr) and of
 * addok, the engine behind it, on 127.0.0.1: `GET /search/?q=…&limit=&autocomplete=&type=&postcode=
 * &citycode=&lat=&lon=`, answering GeoCodeJSON as the API's documented sample does (a
 * FeatureCollection, `version: "draft"`, features with `label`, `score`, `housenumber`, `id`,
 * `type`, `name`, `postcode`, `citycode`, `x`, `y` in Lambert-93, `city`, `district`, `context`,
 * `importance`, `street`; then `attribution`, `licence`, `query`, `filters`, `limit`), from the real
 * addresses and points of test/fixtures/addresses, scored like a full-text match (a correctly
 * typed address ≈ 0.9–0.97, a wrong number or word lower, an unknown street under 0.5).
 *
 * Its errors as documented: BAN's 400 `{"code":400,"message":"Failed parsing query","detail":["q:
 * must contain between 3 and 200 chars and start with a number or a letter"]}`; addok's (falcon)
 * `{"title":"Missing parameter",…}` and `{"title":"Invalid parameter",…}` 400s and its 413 for a
 * query over 200 characters. Its limit: `ratePerSecond` requests a second per client address (BAN:
 * 50); above it a 429 with `Retry-After`, and the client is refused as long as it keeps above the
 * limit and for `blockSeconds` more (BAN: 5). And what an engine does when it goes wrong: slow
 * (`delayMs` before answering), failing (5xx, an nginx page), down (connections cut).
 */
export interface FakeBanOptions {
  flavour?: 'ban' | 'addok';
  ratePerSecond?: number;
  blockSeconds?: number;
}

type FakeBanMode =
  | { kind: 'normal' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'failing'; status: 500 | 502 | 503 | 504; retryAfterSeconds?: number; times?: number }
  | { kind: 'down' };

interface FakeBanRequest {
  path: string;
  params: Record<string, string>;
  status: number;
  client: string;
}

export interface FakeBan {
  url: string;
  requests: FakeBanRequest[];
  setMode(mode: FakeBanMode): void;
  close(): Promise<void>;
}

const TYPES = ['housenumber', 'street', 'locality', 'municipality'];

/** BAN's score of a feature for a query (see the header): a rough full-text match, deterministic. */
function score(
  feature: BanFeature,
  query: { words: string[]; number: string | null; postcode: string | null },
) {
  const asked = query.words.filter((w) => !feature.cityWords.has(w));
  let common = 0;
  for (const w of new Set(asked)) if (feature.words.has(w)) common++;
  if (common === 0) return 0;
  const dice = (2 * common) / (new Set(asked).size + feature.words.size);
  let s =
    feature.type === 'housenumber'
      ? query.number === feature.housenumber
        ? 0.33 + 0.6 * dice * dice
        : 0
      : 0.3 + 0.45 * dice * dice;
  if (s === 0) return 0;
  if (query.postcode !== null) s += query.postcode === feature.postcode ? 0.04 : -0.04;
  return Math.max(0, Math.min(0.99, s));
}

function parseQuery(q: string) {
  const all = words(q);
  const postcode = all.find((w) => /^\d{5}$/.test(w)) ?? null;
  const number = all.find((w) => /^\d{1,4}(bis|ter)?$/.test(w)) ?? null;
  return { words: all.filter((w) => w !== postcode && w !== number), number, postcode };
}

function featureJson(f: BanFeature, s: number) {
  const name = f.housenumber ? `${f.housenumber} ${f.street}` : f.street;
  const { x, y } = lambert93(f.lat, f.lng);
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [f.lng, f.lat] },
    properties: {
      label: `${name} ${f.postcode} ${f.city}`,
      score: s,
      ...(f.housenumber ? { housenumber: f.housenumber } : {}),
      id: f.id,
      type: f.type,
      name,
      postcode: f.postcode,
      citycode: f.citycode,
      x,
      y,
      city: f.city,
      ...(f.district ? { district: f.district } : {}),
      context: f.context,
      importance: Math.round((0.5 + s / 4) * 1e6) / 1e6,
      street: f.street,
    },
  };
}

export async function startFakeBan(options: FakeBanOptions = {}): Promise<FakeBan> {
  const flavour = options.flavour ?? 'ban';
  const limitPerSecond = options.ratePerSecond ?? 50;
  const blockMs = (options.blockSeconds ?? 5) * 1000;
  const requests: FakeBanRequest[] = [];
  let mode: FakeBanMode = { kind: 'normal' };
  const seen = new Map<string, number[]>();
  const blockedUntil = new Map<string, number>();
  const sockets = new Set<Socket>();

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const badQuery = (res: ServerResponse, description: string, title = 'Invalid parameter') =>
    flavour === 'ban'
      ? json(res, 400, { code: 400, message: 'Failed parsing query', detail: [description] })
      : json(res, 400, { title, description });

  /** The client's limit: true when this request is refused. */
  function throttled(client: string): boolean {
    const now = Date.now();
    const window = (seen.get(client) ?? []).filter((t) => now - t < 1000);
    window.push(now);
    seen.set(client, window);
    const over = window.length > limitPerSecond;
    if (over) blockedUntil.set(client, now + blockMs);
    return over || now < (blockedUntil.get(client) ?? 0);
  }

  function answer(req: IncomingMessage, res: ServerResponse): number {
    const url = new URL(req.url ?? '/', 'http://fake');
    const params = Object.fromEntries(url.searchParams);
    const client = req.socket.remoteAddress ?? '';
    if (!/^\/search\/?$/.test(url.pathname)) {
      json(res, 404, flavour === 'ban' ? { code: 404, message: 'Not found' } : { title: '404 Not Found' });
      return 404;
    }
    if (throttled(client)) {
      json(res, 429, { code: 429, message: 'Too Many Requests' }, { 'retry-after': String(blockMs / 1000) });
      return 429;
    }
    if (mode.kind === 'failing' && (mode.times === undefined || mode.times-- > 0)) {
      res.writeHead(mode.status, {
        'content-type': 'text/html',
        ...(mode.retryAfterSeconds !== undefined ? { 'retry-after': String(mode.retryAfterSeconds) } : {}),
      });
      res.end(
        `<html><head><title>${mode.status}</title></head><body><center><h1>${mode.status}</h1></center><hr><center>nginx</center></body></html>`,
      );
      return mode.status;
    }
    const q = (params.q ?? '').trim();
    if (flavour === 'addok' && q === '') {
      badQuery(res, 'The "q" parameter is required.', 'Missing parameter');
      return 400;
    }
    if (flavour === 'addok' && q.length > 200) {
      json(res, 413, { title: `Query too long, ${q.length} chars, limit is 200` });
      return 413;
    }
    if (flavour === 'ban' && (q.length < 3 || q.length > 200 || !/^[\p{L}\p{N}]/u.test(q))) {
      badQuery(res, 'q: must contain between 3 and 200 chars and start with a number or a letter');
      return 400;
    }
    const limit = params.limit === undefined ? 5 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > (flavour === 'ban' ? 50 : 100)) {
      badQuery(
        res,
        flavour === 'ban'
          ? 'limit: must be an integer between 1 and 50'
          : 'The "limit" parameter is invalid. out of range (1..100)',
      );
      return 400;
    }
    const types = params.type ? params.type.split(/[ +]/) : null;
    if (types?.some((t) => !TYPES.includes(t))) {
      badQuery(
        res,
        flavour === 'ban' ? `type: must be one of ${TYPES.join(', ')}` : 'The "type" parameter is invalid.',
      );
      return 400;
    }
    const query = parseQuery(q);
    const filters: Record<string, string> = {};
    for (const name of ['type', 'postcode', 'citycode'] as const)
      if (params[name]) filters[name] = params[name]!;
    const features = banFeatures()
      .filter(
        (f) =>
          (!types || types.includes(f.type)) &&
          (!params.postcode || f.postcode === params.postcode) &&
          (!params.citycode || f.citycode === params.citycode),
      )
      .map((f) => ({ f, s: score(f, query) }))
      .filter(({ s }) => s > 0)
      .sort((a, b) => b.s - a.s || a.f.id.localeCompare(b.f.id))
      .slice(0, limit);
    json(res, 200, {
      type: 'FeatureCollection',
      version: 'draft',
      features: features.map(({ f, s }) => featureJson(f, s)),
      attribution: 'BAN',
      licence: 'ETALAB-2.0',
      query: q,
      ...(Object.keys(filters).length > 0 ? { filters } : {}),
      limit,
    });
    return 200;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const record = (status: number) =>
      requests.push({
        path: url.pathname,
        params: Object.fromEntries(url.searchParams),
        status,
        client: req.socket.remoteAddress ?? '',
      });
    if (mode.kind === 'down') {
      record(0);
      req.socket.destroy();
      return;
    }
    const delay = mode.kind === 'slow' ? mode.delayMs : 0;
    const timer = setTimeout(() => record(answer(req, res)), delay);
    res.on('close', () => clearTimeout(timer));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(next) {
      mode = next;
      if (next.kind === 'down') for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
