import { afterEach, describe, expect, it } from 'vitest';
import { banGeocoder, banQuery, candidatesOf } from '../src/infra/geo/ban-geocoder.ts';
import { type FakeBan, startFakeBan } from './support/fake-ban.ts';

/**
 * The Base Adresse Nationale's adapter against its fake (test/support/fake-ban.ts): answers, errors,
 * the 50-a-second limit's 429 and Retry-After, 5xx, a slow and a dead engine. Never a throw.
 */
let ban: FakeBan;
afterEach(async () => {
  await ban?.close();
});

const LEON_BLUM = '12 Place Léon Blum, 75011 Paris';
const inSeconds = (s: number) => Date.now() + s * 1000;

/**
 * The API's published sample answer (adresse.data.gouv.fr's API page, `/search/?q=8+bd+du+port`):
 * the fake must answer in its shape, and the adapter read it.
 */
const PUBLISHED_SAMPLE = {
  type: 'FeatureCollection',
  version: 'draft',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.290084, 49.897443] },
      properties: {
        label: '8 Boulevard du Port 80000 Amiens',
        score: 0.49159121588068583,
        housenumber: '8',
        id: '80021_6590_00008',
        type: 'housenumber',
        name: '8 Boulevard du Port',
        postcode: '80000',
        citycode: '80021',
        x: 648952.58,
        y: 6977867.25,
        city: 'Amiens',
        context: '80, Somme, Hauts-de-France',
        importance: 0.6706612694243868,
        street: 'Boulevard du Port',
      },
    },
  ],
  attribution: 'BAN',
  licence: 'ODbL 1.0',
  query: '8 bd du port',
  limit: 1,
};

const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shape(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return typeOf(value);
}

describe('the fake Base Adresse Nationale', () => {
  it('answers in the shape of the API’s published sample, its points from the fixture', async () => {
    ban = await startFakeBan();
    const search = async (q: string) => {
      const response = await fetch(`${ban.url}/search/?q=${encodeURIComponent(q)}&limit=1`);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      return (await response.json()) as typeof PUBLISHED_SAMPLE;
    };
    const body = await search("1 Rue de la Légion d'Honneur, 93200 Saint-Denis");
    // Same members, same types, in the sample's order (the licence's text aside).
    const { licence: _, ...sample } = shape(PUBLISHED_SAMPLE) as Record<string, unknown>;
    const { licence: __, ...answer } = shape(body) as Record<string, unknown>;
    expect(answer).toEqual(sample);
    expect(Object.keys(body.features[0]!.properties)).toEqual(
      Object.keys(PUBLISHED_SAMPLE.features[0]!.properties),
    );
    expect(body.features[0]!.properties).toMatchObject({
      citycode: '93066',
      context: '93, Seine-Saint-Denis, Île-de-France',
    });
    // In Paris, the arrondissement too (`district`, documented for Paris, Lyon and Marseille).
    const paris = await search(LEON_BLUM);
    expect(paris.features[0]!.geometry.coordinates).toEqual([2.379506, 48.858828]);
    expect(paris.features[0]!.properties).toMatchObject({
      label: '12 Place Léon Blum 75011 Paris',
      type: 'housenumber',
      citycode: '75111',
      district: 'Paris 11e Arrondissement',
      context: '75, Paris, Île-de-France',
    });
  });

  it("refuses what the API refuses, with the API's error bodies", async () => {
    ban = await startFakeBan();
    const short = await fetch(`${ban.url}/search/?q=ab`);
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({
      code: 400,
      message: 'Failed parsing query',
      detail: ['q: must contain between 3 and 200 chars and start with a number or a letter'],
    });
    await ban.close();
    ban = await startFakeBan({ flavour: 'addok' });
    expect(await (await fetch(`${ban.url}/search/?q=`)).json()).toEqual({
      title: 'Missing parameter',
      description: 'The "q" parameter is required.',
    });
    const long = await fetch(`${ban.url}/search/?q=${'a'.repeat(201)}`);
    expect([long.status, await long.json()]).toEqual([
      413,
      { title: 'Query too long, 201 chars, limit is 200' },
    ]);
  });
});

describe('the geocoder adapter (BAN / addok)', () => {
  it('reads the published sample answer as a rooftop candidate', () => {
    expect(candidatesOf(PUBLISHED_SAMPLE)).toEqual([
      {
        point: { lat: 49.897443, lng: 2.290084 },
        score: 0.49159121588068583,
        type: 'housenumber',
        label: '8 Boulevard du Port 80000 Amiens',
        postcode: '80000',
        citycode: '80021',
        city: 'Amiens',
      },
    ]);
    expect(candidatesOf({ type: 'Feature' })).toBeNull();
  });

  it.each(['ban', 'addok'] as const)('geocodes a real address against %s', async (flavour) => {
    ban = await startFakeBan({ flavour });
    const geocoder = banGeocoder({ baseUrl: `${ban.url}/`, timeoutMs: 5000, ratePerSecond: 40 });
    const answer = await geocoder.search(LEON_BLUM, inSeconds(10));
    expect(answer.status).toBe('found');
    const [best] = answer.status === 'found' ? answer.candidates : [];
    expect(best).toMatchObject({
      point: { lat: 48.858828, lng: 2.379506 },
      type: 'housenumber',
      postcode: '75011',
    });
    expect(best!.score).toBeGreaterThan(0.9);
    expect(ban.requests[0]!.params).toMatchObject({
      q: '12 Place Léon Blum, 75011 Paris',
      limit: '5',
      autocomplete: '0',
    });
  });

  it('keeps a query within what the API accepts, and sends none it would refuse', async () => {
    ban = await startFakeBan();
    expect(banQuery('  , 12   rue  X ')).toBe('12 rue X');
    expect(banQuery(`12 ${'rue très longue '.repeat(20)}`)!.length).toBeLessThanOrEqual(200);
    const geocoder = banGeocoder({ baseUrl: ban.url, timeoutMs: 5000, ratePerSecond: 40 });
    expect(await geocoder.search('- a', inSeconds(5))).toEqual({ status: 'rejected' });
    expect(ban.requests).toHaveLength(0);
    // Long addresses are cut at a word under 200 characters: answered, not refused.
    const long = await geocoder.search(`${LEON_BLUM} ${'bâtiment B escalier 3 '.repeat(12)}`, inSeconds(5));
    expect(long.status).toBe('found');
  });

  it('waits as long as a 429 says (Retry-After) before asking again, then is answered', async () => {
    ban = await startFakeBan({ ratePerSecond: 2, blockSeconds: 1 });
    // The client's own pace is above the engine's limit on purpose: the engine's 429 must be honoured.
    const geocoder = banGeocoder({ baseUrl: ban.url, timeoutMs: 5000, ratePerSecond: 100 });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => geocoder.search(LEON_BLUM, inSeconds(20))));
    expect(answers.map((a) => a.status)).toEqual(['found', 'found', 'found']);
    const throttled = ban.requests.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    // Nothing was sent between the 429 and the end of its Retry-After (1 s).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(ban.requests.at(-1)!.status).toBe(200);
  });

  it('answers "throttled" at once when the Retry-After ends after its deadline', async () => {
    ban = await startFakeBan({ ratePerSecond: 1, blockSeconds: 30 });
    const geocoder = banGeocoder({ baseUrl: ban.url, timeoutMs: 5000, ratePerSecond: 100 });
    await geocoder.search(LEON_BLUM, inSeconds(5));
    const second = await geocoder.search(LEON_BLUM, inSeconds(5));
    expect(second).toEqual({ status: 'throttled' });
    // The pause is the whole process's: the next caller does not even ask.
    const asked = ban.requests.length;
    expect(await geocoder.search(LEON_BLUM, inSeconds(5))).toEqual({ status: 'throttled' });
    expect(ban.requests).toHaveLength(asked);
  });

  it('paces its own requests under its rate, spaced evenly for the whole process', async () => {
    ban = await startFakeBan();
    const geocoder = banGeocoder({ baseUrl: ban.url, timeoutMs: 5000, ratePerSecond: 2 });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3, 4].map(() => geocoder.search(LEON_BLUM, inSeconds(30))));
    expect(answers.every((a) => a.status === 'found')).toBe(true);
    // Four turns half a second apart: the last one at least 1.5 s after the first (a busy machine
    // only makes it later).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1450);
    // Past its deadline, a turn is not waited for: "throttled" at once, nothing sent.
    const asked = ban.requests.length;
    const hurried = await Promise.all([1, 2, 3].map(() => geocoder.search(LEON_BLUM, Date.now() + 700)));
    expect(hurried.map((a) => a.status)).toContain('throttled');
    expect(ban.requests.length - asked).toBeLessThan(3);
  });

  it('retries a 5xx with backoff, honouring its Retry-After', async () => {
    ban = await startFakeBan();
    ban.setMode({ kind: 'failing', status: 502, times: 2 });
    const geocoder = banGeocoder({ baseUrl: ban.url, timeoutMs: 5000, ratePerSecond: 40 });
    expect((await geocoder.search(LEON_BLUM, inSeconds(20))).status).toBe('found');
    expect(ban.requests.map((r) => r.status)).toEqual([502, 502, 200]);

    ban.setMode({ kind: 'failing', status: 503, retryAfterSeconds: 60 });
    // A Retry-After past the deadline: no second request, an error at once.
    expect(await geocoder.search(LEON_BLUM, inSeconds(5))).toEqual({ status: 'error' });
    expect(ban.requests.slice(3).map((r) => r.status)).toEqual([503]);
  });

  it('gives up at its deadline on a slow engine', async () => {
    ban = await startFakeBan();
    ban.setMode({ kind: 'slow', delayMs: 3000 });
    const geocoder = banGeocoder({ baseUrl: ban.url, timeoutMs: 5000, ratePerSecond: 40 });
    expect(await geocoder.search(LEON_BLUM, Date.now() + 200)).toEqual({ status: 'timeout' });
  });

  it('answers "down" when the engine cuts connections, then stops asking (breaker) and says so once', async () => {
    ban = await startFakeBan();
    ban.setMode({ kind: 'down' });
    const logs: string[] = [];
    const geocoder = banGeocoder({
      baseUrl: ban.url,
      timeoutMs: 5000,
      ratePerSecond: 100,
      log: (m) => logs.push(m),
    });
    for (let i = 0; i < 4; i++) expect((await geocoder.search(LEON_BLUM, inSeconds(5))).status).toBe('down');
    const sent = ban.requests.length;
    expect(sent).toBeGreaterThanOrEqual(5);
    expect(await geocoder.search(LEON_BLUM, inSeconds(5))).toEqual({ status: 'down' });
    expect(ban.requests).toHaveLength(sent);
    expect(logs.filter((l) => l.includes('unavailable'))).toHaveLength(1);
  });

  it('answers "down" when nothing listens', async () => {
    ban = await startFakeBan();
    const url = ban.url;
    await ban.close();
    const geocoder = banGeocoder({ baseUrl: url, timeoutMs: 5000, ratePerSecond: 40 });
    expect(await geocoder.search(LEON_BLUM, inSeconds(5))).toEqual({ status: 'down' });
    ban = await startFakeBan();
  });
});
