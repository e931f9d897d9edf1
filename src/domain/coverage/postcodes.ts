import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type PricingZone, zoneForDepartement } from './zones.ts';

export interface PostcodeInfo {
  postcode: string;
  /** INSEE département code: "75", "2A", "974". */
  departement: string;
  /**
   * The commune's official name ("Boulogne-Billancourt"; "Paris", "Lyon", "Marseille" for an
   * arrondissement). A postcode serving several communes gives the first by INSEE code; an address
   * naming one of them refines it (see `communeInAddress`).
   */
  city: string;
  /** null outside Île-de-France. */
  zone: PricingZone | null;
}

/** One entry of the La Poste list as shipped by `codes-postaux`: one per (postcode, commune). */
interface PostcodeEntry {
  codePostal: string;
  codeCommune: string;
  nomCommune: string;
  libelleAcheminement: string;
}

interface IndexedPostcode {
  info: PostcodeInfo;
  /** Every commune the postcode serves in its département, by official name. */
  communes: readonly string[];
}

let index: Map<string, IndexedPostcode> | undefined;

/**
 * Validates against the official list (SPEC §7), so 75099 or 00000 are unknown even though they
 * look like Paris or a plausible prefix. The table is read once, on first use, so commands that
 * never look up an address don't pay for it.
 */
export function lookupPostcode(postcode: string): PostcodeInfo | null {
  return getIndex().get(postcode)?.info ?? null;
}

/**
 * The commune an address names among those its postcode serves ("… 77000 Vaux-le-Pénil"), or null
 * when it names none of them. The longest name wins so "Saint-Denis-lès-Bourg" beats "Saint-Denis".
 */
export function communeInAddress(postcode: string, address: string): string | null {
  const communes = getIndex().get(postcode)?.communes ?? [];
  const text = ` ${simplify(address)} `;
  let best: string | null = null;
  for (const name of communes) {
    if (text.includes(` ${simplify(name)} `) && (best === null || name.length > best.length)) best = name;
  }
  return best;
}

/**
 * Each postcode's département then the communes it serves (the first is its city): what the index
 * needs of the La Poste list. The build writes it beside the compiled module (scripts/build.js), so a
 * production process parses ~0.6 MB instead of the 4 MB list, whose parse kept ~25 MB of its RSS.
 */
type PostcodeTable = Record<string, [departement: string, ...communes: string[]]>;

const TABLE_FILE = new URL('./postcodes-table.json', import.meta.url);

function getIndex(): Map<string, IndexedPostcode> {
  index ??= indexOf(
    existsSync(TABLE_FILE)
      ? (JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as PostcodeTable)
      : postcodeTable(),
  );
  return index;
}

function loadEntries(): PostcodeEntry[] {
  // The package's own `find` is CommonJS over the same file. Parsed here rather than required: the
  // list is dropped once the table is made, not kept in require's cache. A devDependency: only the
  // build and the sources read it; a production install (the image) has the table alone.
  const require = createRequire(import.meta.url);
  const file = require.resolve('codes-postaux/codes-postaux.json');
  return JSON.parse(readFileSync(file, 'utf8')) as PostcodeEntry[];
}

/** The table from the La Poste list (codes-postaux): what the build writes, and what runs from src/. */
export function postcodeTable(entries: readonly PostcodeEntry[] = loadEntries()): PostcodeTable {
  const byPostcode = new Map<string, PostcodeEntry[]>();
  for (const entry of entries) {
    const list = byPostcode.get(entry.codePostal);
    if (list) list.push(entry);
    else byPostcode.set(entry.codePostal, [entry]);
  }
  const table: PostcodeTable = {};
  for (const [postcode, entries] of byPostcode) {
    const local = entries.filter((e) => postcode.startsWith(departementOf(e.codeCommune)));
    // 75015 and 75016 also serve communes of the Hauts-de-Seine: the postcode's own département
    // decides the zone, so the city is chosen among its communes too.
    const communes = local.length > 0 ? local : entries;
    const main = communes[0] as PostcodeEntry;
    table[postcode] = [
      departementOf(main.codeCommune),
      ...new Set(communes.map((c) => cityName(c.nomCommune))),
    ];
  }
  return table;
}

function indexOf(table: PostcodeTable): Map<string, IndexedPostcode> {
  const result = new Map<string, IndexedPostcode>();
  for (const [postcode, [departement, ...communes]] of Object.entries(table)) {
    result.set(postcode, {
      info: { postcode, departement, city: communes[0] as string, zone: zoneForDepartement(departement) },
      communes,
    });
  }
  return result;
}

/** Overseas départements have 3-digit codes (974); Corsica's are 2A and 2B. */
function departementOf(codeCommune: string): string {
  return /^9[78]/.test(codeCommune) ? codeCommune.slice(0, 3) : codeCommune.slice(0, 2);
}

/** "Paris 1er Arrondissement" → "Paris": customers write the city, not the arrondissement. */
function cityName(nomCommune: string): string {
  return nomCommune.replace(/\s+\d+(?:er|e)\s+Arrondissement$/i, '');
}

/** Addresses are typed with or without accents, hyphens and capitals: compare without them. */
function simplify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}
