import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A faithful fake of OSRM's table service (osrm-routed, docs/http.md) on 127.0.0.1:
 * `GET /table/v1/{profile}/{lng,lat;lng,lat…}?sources=&destinations=&annotations=duration,distance`,
 * answering `{code: "Ok", durations, distances, sources, destinations}` (row-major, seconds and
 * metres, a waypoint per source and destination), and its documented errors, each a 400 with
 * `code` and `message`: `InvalidUrl` (another service), `InvalidQuery` ("Query string malformed close
 * to position N"), `InvalidOptions` ("Coordinates are invalid"), `TooBig` ("Too many table
 * coordinates": sources × destinations over `maxTableSize`², osrm-routed's --max-table-size, 100 by
 * default), `NoSegment` ("Could not find a matching segment for coordinate N": a point off its map,
 * here outside Île-de-France's box). Its "road network" is a city grid: a route is the Manhattan
 * distance (metres), at 25 km/h by car, 15 by bike, 5 on foot. Slow, failing and down on demand.
 */
type FakeOsrmMode =
  | { kind: 'normal' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'failing'; status: 500 | 502 | 503 }
  | { kind: 'down' };

export interface FakeOsrm {
  url: string;
  requests: string[];
  setMode(mode: FakeOsrmMode): void;
  close(): Promise<void>;
}

const SPEEDS_KMH: Record<string, number> = {
  driving: 25,
  car: 25,
  cycling: 15,
  bike: 15,
  walking: 5,
  foot: 5,
};
const MAP = { south: 48.0, north: 49.4, west: 1.3, east: 3.7 };
const NUMBER = '-?\\d+(?:\\.\\d+)?';
const COORDINATES = new RegExp(`^${NUMBER},${NUMBER}(;${NUMBER},${NUMBER})*$`);

function gridMetres(a: [number, number], b: [number, number]): number {
  const latMetres = Math.abs(a[1] - b[1]) * 111_195;
  const lngMetres = Math.abs(a[0] - b[0]) * 111_195 * Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180);
  return latMetres + lngMetres;
}

function indices(value: string | null, count: number): number[] | null {
  if (value === null || value === 'all') return [...Array(count).keys()];
  const list = value.split(';').map(Number);
  return list.every((i) => Number.isInteger(i) && i >= 0 && i < count) ? list : null;
}

export async function startFakeOsrm(options: { maxTableSize?: number } = {}): Promise<FakeOsrm> {
  const maxTable = options.maxTableSize ?? 100;
  const requests: string[] = [];
  let mode: FakeOsrmMode = { kind: 'normal' };
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (mode.kind === 'down') {
      req.socket.destroy();
      return;
    }
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
    const answer = () => {
      if (mode.kind === 'failing') {
        res.writeHead(mode.status, { 'content-type': 'text/html' });
        res.end(`<html><body><h1>${mode.status}</h1></body></html>`);
        return;
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      const match = /^\/(\w+)\/(v\d+)\/(\w+)\/([^/?]+)$/.exec(url.pathname);
      if (match?.[1] !== 'table' || match[2] !== 'v1')
        return reply(400, {
          code: 'InvalidUrl',
          message: `URL string malformed close to position 1: "${url.pathname.slice(0, 12)}"`,
        });
      const profile = match[3]!;
      const text = decodeURIComponent(match[4]!);
      if (!COORDINATES.test(text)) {
        const position = text.search(/[^0-9.,;-]/);
        return reply(400, {
          code: 'InvalidQuery',
          message: `Query string malformed close to position ${10 + profile.length + (position < 0 ? text.length : position)}`,
        });
      }
      const points = text.split(';').map((p) => p.split(',').map(Number) as [number, number]);
      if (points.length < 2 || points.some(([lng, lat]) => Math.abs(lat) > 90 || Math.abs(lng) > 180))
        return reply(400, { code: 'InvalidOptions', message: 'Coordinates are invalid' });
      const sources = indices(url.searchParams.get('sources'), points.length);
      const destinations = indices(url.searchParams.get('destinations'), points.length);
      if (!sources || !destinations)
        return reply(400, { code: 'InvalidOptions', message: 'sources or destinations out of range' });
      if (sources.length * destinations.length > maxTable * maxTable)
        return reply(400, { code: 'TooBig', message: 'Too many table coordinates' });
      const off = points.findIndex(
        ([lng, lat]) => lat < MAP.south || lat > MAP.north || lng < MAP.west || lng > MAP.east,
      );
      if (off >= 0)
        return reply(400, {
          code: 'NoSegment',
          message: `Could not find a matching segment for coordinate ${off}`,
        });
      const annotations = (url.searchParams.get('annotations') ?? 'duration').split(',');
      const speed = (SPEEDS_KMH[profile] ?? 25) / 3.6;
      const metres = sources.map((s) =>
        destinations.map((d) => Math.round(gridMetres(points[s]!, points[d]!) * 10) / 10),
      );
      const waypoint = (i: number) => ({
        hint: Buffer.from(`fake-${i}`).toString('base64'),
        distance: 0,
        name: '',
        location: points[i]!.map((x) => Math.round(x * 1e6) / 1e6),
      });
      reply(200, {
        code: 'Ok',
        ...(annotations.includes('duration')
          ? { durations: metres.map((row) => row.map((m) => Math.round((m / speed) * 10) / 10)) }
          : {}),
        ...(annotations.includes('distance') ? { distances: metres } : {}),
        sources: sources.map(waypoint),
        destinations: destinations.map(waypoint),
      });
    };
    if (mode.kind === 'slow') setTimeout(answer, mode.delayMs);
    else answer();
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
