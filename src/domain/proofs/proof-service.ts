import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { Clock } from '../shared/clock.ts';
import type { DeliveryAttempt, DeliveryAttemptsStore, ObjectStore, StoredObject } from './ports.ts';
import type { PreparedProofFile, ProofFileKind } from './proof-files.ts';
import { NO_PROOF, type ProofMembers, proofMembers } from './proof-json.ts';
import type { ProofUrlSigner, ProofUrlUse } from './proof-urls.ts';

/** Files are kept this long after the attempt, then erased; the facts stay with the order for good. */
const PROOF_RETENTION_DAYS = 90;
const RETENTION_BATCH = 100;

/** What the tracking page shows of the delivery. */
interface TrackingProof {
  deliveredAt: Date | null;
  /** A signed path (15 minutes) when the brand shows the photo and it is still kept; else null. */
  photoPath: string | null;
}

export interface ProofService {
  /** A file behind a signed URL, with the seconds its URL has left; null for anything invalid. */
  openFile(
    attemptId: string,
    kind: string,
    expires: unknown,
    sig: unknown,
  ): Promise<{ file: StoredObject; secondsLeft: number } | null>;
  /** An order's proof members with URLs signed now, absolute (API answers: 15 min; webhooks: 7 days). */
  membersOf(attempts: readonly DeliveryAttempt[], use: ProofUrlUse): Promise<ProofMembers>;
  /** The brand's order's proof members for its detail (15-minute URLs). */
  forOrder(brandId: string, trackingRef: string): Promise<ProofMembers>;
  /** An order's attempts by its internal id (the account area, webhooks). */
  attemptsOf(orderId: number): Promise<DeliveryAttempt[]>;
  /** Relative signed path of a file (pages of this site, 15 minutes). */
  pagePath(attemptId: string, kind: ProofFileKind): Promise<string>;
  forTracking(orderId: number): Promise<TrackingProof>;
  /**
   * Stores prepared files under keys of their own (`proofs/YYYY/MM/{folder}/photo.jpg`: the month
   * first, so a bucket's lifecycle rule can back the retention job up); all or none.
   */
  storeFiles(
    folder: string,
    files: readonly PreparedProofFile[],
  ): Promise<{ photoKey: string | null; signatureKey: string | null }>;
  /** The file keys of the attempt a scan made, or null when it made none. */
  attemptKeys(scanId: string): Promise<{ photoKey: string | null; signatureKey: string | null } | null>;
  /** Removes stored files (a refused scan's): nothing half-written stays. */
  discardFiles(keys: readonly (string | null)[]): Promise<void>;
  /** Whether the brand shows the delivery photo on its tracking pages (off by default). */
  showsPhotoOnTracking(brandId: string): Promise<boolean>;
  setShowsPhotoOnTracking(brandId: string, shown: boolean): Promise<void>;
  /** Erases the files of attempts older than the retention, in batches; idempotent. */
  eraseExpiredFiles(): Promise<{ attempts: number; files: number }>;
}

export interface ProofServiceDeps {
  attempts: DeliveryAttemptsStore;
  objects: ObjectStore;
  urls: ProofUrlSigner;
  clock: Clock;
  /** PUBLIC_BASE_URL (or the listen address): API answers and webhooks carry absolute URLs. */
  baseUrl: string;
}

export function proofService(deps: ProofServiceDeps): ProofService {
  const { attempts, objects, urls, clock } = deps;
  const base = deps.baseUrl.replace(/\/+$/, '');
  const membersOf = async (list: readonly DeliveryAttempt[], use: ProofUrlUse) => {
    if (list.length === 0) return NO_PROOF;
    await urls.ready();
    return proofMembers(list, (id, kind) => base + urls.path(id, kind, use));
  };
  const discard = async (keys: readonly (string | null)[]) => {
    for (const key of keys) if (key !== null) await objects.delete(key);
  };
  return {
    async openFile(attemptId, kind, expires, sig) {
      const secondsLeft = await urls.check(attemptId, kind, expires, sig);
      if (secondsLeft === null) return null;
      const key = await attempts.fileKey(attemptId, kind as ProofFileKind);
      const file = key ? await objects.get(key) : null;
      return file ? { file, secondsLeft } : null;
    },
    membersOf,
    async forOrder(brandId, trackingRef) {
      const ref = normaliseTrackingRef(trackingRef);
      return ref ? membersOf(await attempts.ofOrder(ref, brandId), 'page') : NO_PROOF;
    },
    async attemptsOf(orderId) {
      return (await attempts.ofOrderId(orderId)).attempts;
    },
    async pagePath(attemptId, kind) {
      await urls.ready();
      return urls.path(attemptId, kind, 'page');
    },
    async forTracking(orderId) {
      const { attempts: list, brandShowsPhoto } = await attempts.ofOrderId(orderId);
      const delivered = list.findLast((a) => a.outcome === 'delivered');
      if (!delivered) return { deliveredAt: null, photoPath: null };
      if (!brandShowsPhoto || !delivered.photoKey)
        return { deliveredAt: delivered.happenedAt, photoPath: null };
      await urls.ready();
      return { deliveredAt: delivered.happenedAt, photoPath: urls.path(delivered.id, 'photo', 'page') };
    },
    async storeFiles(folder, files) {
      const month = clock().toISOString().slice(0, 7).replace('-', '/');
      const keys = { photoKey: null as string | null, signatureKey: null as string | null };
      try {
        for (const file of files) {
          const key = `proofs/${month}/${folder}/${file.kind}.${file.contentType === 'image/png' ? 'png' : 'jpg'}`;
          await objects.put(key, file.bytes, file.contentType);
          if (file.kind === 'photo') keys.photoKey = key;
          else keys.signatureKey = key;
        }
      } catch (err) {
        await discard([keys.photoKey, keys.signatureKey]);
        throw err;
      }
      return keys;
    },
    discardFiles: (keys) => discard(keys),
    attemptKeys: (scanId) => attempts.keysOfScan(scanId),
    showsPhotoOnTracking: (brandId) => attempts.showsPhotoOnTracking(brandId),
    setShowsPhotoOnTracking: (brandId, shown) => attempts.setShowsPhotoOnTracking(brandId, shown),
    async eraseExpiredFiles() {
      const cutoff = new Date(clock().getTime() - PROOF_RETENTION_DAYS * 24 * 3600 * 1000);
      let erased = 0;
      let files = 0;
      for (;;) {
        const batch = await attempts.filesBefore(cutoff, RETENTION_BATCH);
        if (batch.length === 0) break;
        // The objects first, then the keys: a crash in between leaves keys whose objects are gone,
        // which the next run erases again (deleting nothing is no error) and clears.
        for (const attempt of batch) {
          for (const key of [attempt.photoKey, attempt.signatureKey]) {
            if (key === null) continue;
            await objects.delete(key);
            files++;
          }
        }
        erased += await attempts.markErased(
          batch.map((a) => a.id),
          clock(),
        );
        if (batch.length < RETENTION_BATCH) break;
      }
      return { attempts: erased, files };
    },
  };
}
