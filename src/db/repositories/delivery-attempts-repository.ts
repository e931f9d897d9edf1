import type {
  AttemptFiles,
  DeliveryAttempt,
  DeliveryAttemptsStore,
  FailureReason,
} from '../../domain/proofs/ports.ts';
import type { Queryable } from '../pool.ts';

const COLUMNS = `a.id, a.outcome, a.reason, a.happened_at, a.received_by, a.latitude::float8 AS latitude,
  a.longitude::float8 AS longitude, a.photo_key, a.signature_key, a.files_erased_at`;

interface Row {
  id: string;
  outcome: DeliveryAttempt['outcome'];
  reason: FailureReason | null;
  happened_at: Date;
  received_by: string | null;
  latitude: number | null;
  longitude: number | null;
  photo_key: string | null;
  signature_key: string | null;
  files_erased_at: Date | null;
}

const toAttempt = (r: Row): DeliveryAttempt => ({
  id: r.id,
  outcome: r.outcome,
  reason: r.reason,
  happenedAt: r.happened_at,
  receivedBy: r.received_by,
  latitude: r.latitude,
  longitude: r.longitude,
  photoKey: r.photo_key,
  signatureKey: r.signature_key,
  filesErasedAt: r.files_erased_at,
});

/** Door outcomes and their files' keys (migration 0034), as proof of delivery reads and erases them. */
export function deliveryAttemptsRepository(db: Queryable): DeliveryAttemptsStore {
  return {
    async fileKey(attemptId, kind) {
      const column = kind === 'photo' ? 'photo_key' : 'signature_key';
      const { rows } = await db.query<{ key: string | null }>(
        `SELECT ${column} AS key FROM delivery_attempts WHERE id = $1`,
        [attemptId],
      );
      return rows[0]?.key ?? null;
    },

    async ofOrder(trackingRef, brandId) {
      const { rows } = await db.query<Row>({
        name: 'attempts.ofOrder',
        text: `SELECT ${COLUMNS} FROM orders o JOIN delivery_attempts a ON a.order_id = o.id
          WHERE o.tracking_ref = $1 AND o.brand_id = $2 ORDER BY a.happened_at, a.created_at`,
        values: [trackingRef, brandId],
      });
      return rows.map(toAttempt);
    },

    async ofOrderId(orderId) {
      const { rows } = await db.query<Row & { shows_photo: boolean }>(
        `SELECT ${COLUMNS}, b.tracking_shows_proof_photo AS shows_photo
           FROM orders o JOIN brands b ON b.id = o.brand_id JOIN delivery_attempts a ON a.order_id = o.id
          WHERE o.id = $1 ORDER BY a.happened_at, a.created_at`,
        [orderId],
      );
      return { attempts: rows.map(toAttempt), brandShowsPhoto: rows[0]?.shows_photo ?? false };
    },

    async filesBefore(cutoff, limit): Promise<AttemptFiles[]> {
      // delivery_attempts_files_idx: only the rows still holding files, by time.
      const { rows } = await db.query<{ id: string; photo_key: string | null; signature_key: string | null }>(
        `SELECT id, photo_key, signature_key FROM delivery_attempts
          WHERE happened_at < $1 AND (photo_key IS NOT NULL OR signature_key IS NOT NULL)
          ORDER BY happened_at LIMIT $2`,
        [cutoff, limit],
      );
      return rows.map((r) => ({ id: r.id, photoKey: r.photo_key, signatureKey: r.signature_key }));
    },

    async markErased(ids, at) {
      if (ids.length === 0) return 0;
      const { rowCount } = await db.query(
        `UPDATE delivery_attempts SET photo_key = NULL, signature_key = NULL, files_erased_at = $2
          WHERE id = ANY($1::text[]) AND files_erased_at IS NULL`,
        [ids, at],
      );
      return rowCount ?? 0;
    },

    async keysOfScan(scanId) {
      const { rows } = await db.query<{ photo_key: string | null; signature_key: string | null }>(
        'SELECT photo_key, signature_key FROM delivery_attempts WHERE scan_id = $1',
        [scanId],
      );
      const row = rows[0];
      return row ? { photoKey: row.photo_key, signatureKey: row.signature_key } : null;
    },

    async showsPhotoOnTracking(brandId) {
      const { rows } = await db.query<{ shown: boolean }>(
        'SELECT tracking_shows_proof_photo AS shown FROM brands WHERE id = $1',
        [brandId],
      );
      return rows[0]?.shown ?? false;
    },

    async setShowsPhotoOnTracking(brandId, shown) {
      await db.query('UPDATE brands SET tracking_shows_proof_photo = $2 WHERE id = $1', [brandId, shown]);
    },
  };
}
