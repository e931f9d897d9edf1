import type { DoorAttempt, FailureReason } from '../scans/ports.ts';

/**
 * What proof of delivery needs from the outside: a place for its files (decision 0006). The
 * photos of doorsteps do not belong in PostgreSQL; the filesystem adapter is the embedded default
 * and the S3 adapter the deployments' (src/infra/object-store/).
 */

/** An object as stored: its bytes and the content type it was stored with. */
export interface StoredObject {
  bytes: Buffer;
  contentType: string;
}

/**
 * Keys are relative paths of `[a-z0-9_-]` segments joined by `/` (e.g. `proofs/2026/11/att_…/photo.jpg`);
 * an adapter refuses any other key (`..`, absolute paths, empty segments) with an error before
 * touching its storage.
 */
export interface ObjectStore {
  /** Writes the object whole or not at all (a reader never sees half a file); replaces one with that key. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none under that key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; no error when there is none (erasing twice is erasing once). */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

const KEY_SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;

/** Whether `key` is one an ObjectStore accepts: relative, no `..`, no empty or hidden segment. */
function isValidObjectKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => KEY_SEGMENT.test(segment) && !segment.includes('..'));
}

/** Throws unless `key` is valid: adapters call it first, so no key can reach outside their root. */
export function checkObjectKey(key: string): string {
  if (!isValidObjectKey(key)) throw new Error(`invalid object key ${JSON.stringify(key)}`);
  return key;
}

/** What an image is re-encoded to: the format and the longest side in pixels (never enlarged). */
interface ImageTarget {
  format: 'jpeg' | 'png';
  maxSide: number;
}

/**
 * Decodes an image, turns it upright by its EXIF orientation, fits it within `maxSide` and
 * re-encodes it with no metadata. `ok: false` when the bytes cannot be decoded (corrupt,
 * truncated, too many pixels); other failures throw.
 */
export interface ImageCodec {
  reencode(
    bytes: Buffer,
    target: ImageTarget,
  ): Promise<{ ok: true; bytes: Buffer } | { ok: false; reason: string }>;
}

/**
 * One door outcome as `delivery_attempts` keeps it (migration 0034): the facts and its files' keys
 * as the door scan wrote them (domain/scans' DoorAttempt), and what the retention did since.
 */
export interface DeliveryAttempt extends DoorAttempt {
  /** When the retention job erased its files (the keys are then null); the facts stay. */
  filesErasedAt: Date | null;
}

/** An attempt whose files are due for erasure. */
export interface AttemptFiles {
  id: string;
  photoKey: string | null;
  signatureKey: string | null;
}

export type { FailureReason };

/** The attempts' storage (src/db/repositories/delivery-attempts-repository.ts). */
export interface DeliveryAttemptsStore {
  /** The key of an attempt's file, or null (no such attempt, no such file, or erased). */
  fileKey(attemptId: string, kind: 'photo' | 'signature'): Promise<string | null>;
  /** An order's attempts, oldest first, found by its tracking ref within the brand. */
  ofOrder(trackingRef: string, brandId: string): Promise<DeliveryAttempt[]>;
  /** An order's attempts by its internal id, oldest first, and whether its brand shows the photo. */
  ofOrderId(orderId: number): Promise<{ attempts: DeliveryAttempt[]; brandShowsPhoto: boolean }>;
  /** Attempts that happened before `cutoff` and still hold files, oldest first, at most `limit`. */
  filesBefore(cutoff: Date, limit: number): Promise<AttemptFiles[]>;
  /** Clears the keys and sets files_erased_at on those attempts (no-op for ones already erased). */
  markErased(ids: readonly string[], at: Date): Promise<number>;
  /** The file keys of the attempt a scan made, or null when it made none. */
  keysOfScan(scanId: string): Promise<{ photoKey: string | null; signatureKey: string | null } | null>;
  /** The brand's `tracking_shows_proof_photo` (migration 0034); false for an unknown brand. */
  showsPhotoOnTracking(brandId: string): Promise<boolean>;
  setShowsPhotoOnTracking(brandId: string, shown: boolean): Promise<void>;
}
