import type { DeliveryAttempt, FailureReason } from './ports.ts';
import type { ProofFileKind } from './proof-files.ts';

/** `proof_of_delivery` of an order's detail and its delivered webhook (decision 0006). */
interface ProofOfDeliveryJson {
  delivered_at: string;
  received_by: string | null;
  /** Signed and expiring; null when there is no such file, or once it is erased (after 90 days). */
  photo_url: string | null;
  signature_url: string | null;
  location: { latitude: number; longitude: number } | null;
}

/** `failed_attempt`: the last failed attempt and how many there were. */
interface FailedAttemptJson {
  at: string;
  reason: FailureReason;
  attempts: number;
}

export interface ProofMembers {
  proof_of_delivery: ProofOfDeliveryJson | null;
  failed_attempt: FailedAttemptJson | null;
}

export const NO_PROOF: ProofMembers = { proof_of_delivery: null, failed_attempt: null };

/**
 * The proof members from an order's attempts (oldest first): the delivery's facts and files, and
 * the last failed attempt with their count — kept after a later delivery, since the recipient's
 * absence the day before is part of the story. `url` signs a file's URL (it is never stored).
 */
export function proofMembers(
  attempts: readonly DeliveryAttempt[],
  url: (attemptId: string, kind: ProofFileKind) => string,
): ProofMembers {
  const delivered = attempts.findLast((a) => a.outcome === 'delivered');
  const failed = attempts.filter((a) => a.outcome === 'failed_attempt');
  const lastFailed = failed.at(-1);
  return {
    proof_of_delivery: delivered
      ? {
          delivered_at: delivered.happenedAt.toISOString(),
          received_by: delivered.receivedBy,
          photo_url: delivered.photoKey ? url(delivered.id, 'photo') : null,
          signature_url: delivered.signatureKey ? url(delivered.id, 'signature') : null,
          location:
            delivered.latitude !== null && delivered.longitude !== null
              ? { latitude: delivered.latitude, longitude: delivered.longitude }
              : null,
        }
      : null,
    failed_attempt: lastFailed
      ? { at: lastFailed.happenedAt.toISOString(), reason: lastFailed.reason!, attempts: failed.length }
      : null,
  };
}
