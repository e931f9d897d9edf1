import type { GeoPoint, LocationPrecision } from '../../domain/places/location.ts';
import type { KnownPlace, PlaceStore } from '../../domain/places/ports.ts';
import { coalescedStatements } from '../coalesced-statements.ts';
import type { Pool } from '../pool.ts';

interface PointRow {
  address_key: string;
  source: 'geocoder' | 'delivery';
  lat: number | null;
  lng: number | null;
  precision: LocationPrecision | null;
  score: number | null;
  postcode: string | null;
  citycode: string | null;
  city: string | null;
  label: string | null;
}

const toPlace = (r: PointRow): KnownPlace => ({
  source: r.source,
  point: r.lat !== null && r.lng !== null ? { lat: r.lat, lng: r.lng } : null,
  precision: r.precision,
  score: r.score,
  postcode: r.postcode,
  citycode: r.citycode,
  city: r.city,
  label: r.label,
});

/** The shared cache of places (address_points, migration 0046), by normalised address. */
export function addressPointsRepository(pool: Pool): PlaceStore {
  async function findMany(keys: readonly string[], now: Date): Promise<Map<string, KnownPlace[]>> {
    const { rows } = await pool.query<PointRow>({
      name: 'addressPoints.find',
      text: `SELECT address_key, source, lat, lng, precision, score, postcode, citycode, city, label
        FROM address_points WHERE address_key = ANY($1::text[]) AND expires_at > $2`,
      values: [keys, now],
    });
    const found = new Map<string, KnownPlace[]>();
    for (const row of rows) found.set(row.address_key, [...(found.get(row.address_key) ?? []), toPlace(row)]);
    return found;
  }
  // Orders created in one turn of the event loop look their addresses up in one statement.
  const lookups = coalescedStatements<{ key: string; now: Date }, KnownPlace[]>({
    one: async ({ key, now }) => (await findMany([key], now)).get(key) ?? [],
    many: async (items) => {
      const found = await findMany(
        items.map((i) => i.key),
        items[0]!.now,
      );
      return items.map((i) => found.get(i.key) ?? []);
    },
    maxBatch: 50,
  });

  return {
    async find(keys, now) {
      if (keys.length !== 1) return findMany(keys, now);
      return new Map([[keys[0]!, await lookups.run({ key: keys[0]!, now })]]);
    },

    async saveGeocoded(key, place, at, expiresAt) {
      await pool.query(
        `INSERT INTO address_points (address_key, source, lat, lng, precision, score, postcode, citycode, city, label,
            created_at, expires_at)
          VALUES ($1, 'geocoder', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
          ON CONFLICT (address_key, source) DO UPDATE SET lat = EXCLUDED.lat, lng = EXCLUDED.lng,
            precision = EXCLUDED.precision, score = EXCLUDED.score, postcode = EXCLUDED.postcode,
            citycode = EXCLUDED.citycode, city = EXCLUDED.city, label = EXCLUDED.label,
            created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
        [
          key,
          place.point?.lat ?? null,
          place.point?.lng ?? null,
          place.precision,
          place.score,
          place.postcode,
          place.citycode,
          place.city,
          place.label?.slice(0, 500) ?? null,
          at,
          expiresAt,
        ],
      );
    },

    async learn(key: string, point: GeoPoint, precision: LocationPrecision, at: Date, expiresAt: Date) {
      await pool.query(
        `INSERT INTO address_points (address_key, source, lat, lng, precision, created_at, expires_at)
          VALUES ($1, 'delivery', $2, $3, $4, $5, $6)
          ON CONFLICT (address_key, source) DO UPDATE SET lat = EXCLUDED.lat, lng = EXCLUDED.lng,
            precision = EXCLUDED.precision, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
        [key, point.lat, point.lng, precision, at, expiresAt],
      );
    },

    async keysAfter(afterSeq, limit) {
      const { rows } = await pool.query<{ address_key: string; seq: string }>(
        'SELECT address_key, seq FROM address_points WHERE seq > $1 ORDER BY seq LIMIT $2',
        [afterSeq, limit],
      );
      return {
        keys: rows.map((r) => r.address_key),
        last: rows.length ? Number(rows.at(-1)!.seq) : afterSeq,
      };
    },

    async purgeExpired(now, limit) {
      const { rowCount } = await pool.query(
        `DELETE FROM address_points WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM address_points WHERE expires_at <= $1 LIMIT $2))`,
        [now, limit],
      );
      return rowCount ?? 0;
    },
  };
}
