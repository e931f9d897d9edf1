import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The fake geocoder's address base: the real addresses and points of test/fixtures/addresses, as
 * the Base Adresse Nationale holds them (a `housenumber` per numbered address, a `street` per street
 * at the mean of its numbers), with the members its GeoCodeJSON features carry.
 */
export interface BanFeature {
  type: 'housenumber' | 'street';
  lat: number;
  lng: number;
  housenumber: string | null;
  street: string;
  postcode: string;
  city: string;
  citycode: string;
  /** Paris: the arrondissement ("Paris 11e Arrondissement"). */
  district: string | null;
  context: string;
  id: string;
  /** The street's words, normalised (what a query is compared with). */
  words: Set<string>;
  /** The city's words, normalised (a query naming its city is not penalised for it). */
  cityWords: Set<string>;
}

const FIXTURES = new URL('../../fixtures/addresses/', import.meta.url);
const DEPARTEMENTS: Record<string, string> = {
  '75': 'Paris',
  '92': 'Hauts-de-Seine',
  '93': 'Seine-Saint-Denis',
  '94': 'Val-de-Marne',
};

/** Words as the engine compares them: lower case, without accents, apostrophes and hyphens split. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => ({ bd: 'boulevard', av: 'avenue', r: 'rue', st: 'saint', pl: 'place' })[w] ?? w);
}

function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** The fixtures' rows: `{ address, postcode, lat, lng }`. */
export function fixtureAddresses(): Array<{ address: string; postcode: string; lat: number; lng: number }> {
  const rows: Array<{ address: string; postcode: string; lat: number; lng: number }> = [];
  for (const file of ['paris.csv', 'petite-couronne.csv']) {
    const [, ...lines] = readFileSync(new URL(file, FIXTURES), 'utf8').trim().split('\n');
    for (const line of lines) {
      const [address, postcode, lat, lng] = parseCsvLine(line) as [string, string, string, string];
      rows.push({ address, postcode, lat: Number(lat), lng: Number(lng) });
    }
  }
  return rows;
}

/** The INSEE code of a postcode's commune named `city` (La Poste's list, as the service reads it). */
function citycodeOf(postcode: string, city: string): string {
  if (postcode.startsWith('75')) return `751${postcode === '75116' ? '16' : postcode.slice(3)}`;
  const entries = createRequire(import.meta.url)('codes-postaux/codes-postaux.json') as Array<{
    codePostal: string;
    codeCommune: string;
    nomCommune: string;
  }>;
  const found = entries.find(
    (e) => e.codePostal === postcode && words(e.nomCommune).join(' ') === words(city).join(' '),
  );
  if (!found) throw new Error(`no commune ${city} for ${postcode}`);
  return found.codeCommune;
}

let base: BanFeature[] | undefined;

export function banFeatures(): BanFeature[] {
  if (base) return base;
  const features: BanFeature[] = [];
  const streets = new Map<string, { rows: Array<{ lat: number; lng: number }>; sample: BanFeature }>();
  for (const row of fixtureAddresses()) {
    const [line, rest] = row.address.split(/,\s*/) as [string, string | undefined];
    // One row of the source is a postcode and a city alone ("75003 Paris"): no street to find.
    if (rest === undefined) continue;
    const city = rest.replace(/^\d{5}\s+/, '');
    const number = /^(\d+\s?(?:bis|ter)?)\s+(.*)$/i.exec(line);
    const street = number ? number[2]! : line;
    const citycode = citycodeOf(row.postcode, city);
    const departement = row.postcode.slice(0, 2);
    const arrondissement = Number(row.postcode.slice(3));
    const feature: BanFeature = {
      type: number ? 'housenumber' : 'street',
      lat: row.lat,
      lng: row.lng,
      housenumber: number ? number[1]!.replace(/\s/g, '') : null,
      street,
      postcode: row.postcode,
      city,
      citycode,
      district:
        departement === '75'
          ? `Paris ${arrondissement === 116 ? 16 : arrondissement}${arrondissement === 1 ? 'er' : 'e'} Arrondissement`
          : null,
      context: `${departement}, ${DEPARTEMENTS[departement]}, Île-de-France`,
      id: '',
      words: new Set(words(street)),
      cityWords: new Set(words(city)),
    };
    const streetKey = `${citycode}|${street.toLowerCase()}`;
    const streetId = `${citycode}_${(streets.size + 1).toString(36).padStart(4, '0')}`;
    feature.id = number ? `${streetId}_${feature.housenumber!.padStart(5, '0')}` : streetId;
    if (number) features.push(feature);
    const known = streets.get(streetKey);
    if (known) known.rows.push(row);
    else
      streets.set(streetKey, {
        rows: [row],
        sample: { ...feature, type: 'street', housenumber: null, id: streetId },
      });
  }
  for (const { rows, sample } of streets.values()) {
    const lat = rows.reduce((s, r) => s + r.lat, 0) / rows.length;
    const lng = rows.reduce((s, r) => s + r.lng, 0) / rows.length;
    features.push({ ...sample, lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 });
  }
  base = features;
  return features;
}

/**
 * WGS 84 → Lambert-93 (the `x`, `y` of BAN's features: RGF93, the legal projection), IGN's
 * formulas for the Lambert conformal conic projection on GRS80.
 */
export function lambert93(lat: number, lng: number): { x: number; y: number } {
  const e = 0.0818191910428158;
  const n = 0.725607765053267;
  const c = 11754255.426096;
  const xs = 700000;
  const ys = 12655612.049876;
  const phi = (lat * Math.PI) / 180;
  const lambda = ((lng - 3) * Math.PI) / 180;
  const latiso = Math.log(
    Math.tan(Math.PI / 4 + phi / 2) * ((1 - e * Math.sin(phi)) / (1 + e * Math.sin(phi))) ** (e / 2),
  );
  const r = c * Math.exp(-n * latiso);
  return {
    x: Math.round((xs + r * Math.sin(n * lambda)) * 100) / 100,
    y: Math.round((ys - r * Math.cos(n * lambda)) * 100) / 100,
  };
}
