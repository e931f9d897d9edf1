import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { ProofFileKind } from './proof-files.ts';

/** How long a signed URL lives: API answers and pages 15 minutes, webhook payloads 7 days. */
const PROOF_URL_TTL_SECONDS = { page: 15 * 60, webhook: 7 * 24 * 3600 } as const;
export type ProofUrlUse = keyof typeof PROOF_URL_TTL_SECONDS;

export const PROOFS_PATH = '/proofs';
const ATTEMPT_ID = /^att_[0-9a-f]{16}$/;
const EXPIRES = /^[0-9]{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export interface ProofUrlSigner {
  /** Loads the key (from server_secrets) once; `path` needs it loaded. */
  ready(): Promise<void>;
  /** `/proofs/{attemptId}/{kind}?expires=…&sig=…`, valid for the use's lifetime from now. */
  path(attemptId: string, kind: ProofFileKind, use: ProofUrlUse): string;
  /**
   * Whether a request's `expires` and `sig` were made by `path` for this attempt and kind and have
   * not expired; the number of seconds left when they are valid, else null. Any malformed part is
   * simply invalid (no hint which).
   */
  check(attemptId: string, kind: string, expires: unknown, sig: unknown): Promise<number | null>;
}

/**
 * Signed proof URLs (decision 0006): HMAC-SHA-256 of the attempt, the file's kind and the expiry
 * under a key of server_secrets. An attempt id is not a secret (it may appear in logs); the
 * signature is what grants access, and only until `expires`. Compared in constant time.
 */
export function proofUrlSigner(loadKey: () => Promise<Buffer>, clock: Clock): ProofUrlSigner {
  let key: Buffer | null = null;
  let loading: Promise<void> | null = null;
  const ready = () => {
    if (key) return Promise.resolve();
    loading ??= loadKey().then(
      (k) => {
        key = k;
      },
      (err) => {
        loading = null; // the database may answer next time
        throw err;
      },
    );
    return loading;
  };
  const mac = (attemptId: string, kind: string, expires: number) =>
    createHmac('sha256', key!).update(`proof\n${attemptId}\n${kind}\n${expires}`).digest();
  const nowSeconds = () => Math.floor(clock().getTime() / 1000);
  return {
    ready,
    path(attemptId, kind, use) {
      if (!key) throw new Error('proof URL key not loaded: await ready() first');
      const expires = nowSeconds() + PROOF_URL_TTL_SECONDS[use];
      const sig = mac(attemptId, kind, expires).toString('base64url');
      return `${PROOFS_PATH}/${attemptId}/${kind}?expires=${expires}&sig=${sig}`;
    },
    async check(attemptId, kind, expires, sig) {
      if (!ATTEMPT_ID.test(attemptId) || (kind !== 'photo' && kind !== 'signature')) return null;
      if (typeof expires !== 'string' || typeof sig !== 'string') return null;
      if (!EXPIRES.test(expires) || !SIGNATURE.test(sig)) return null;
      const at = Number(expires);
      const left = at - nowSeconds();
      if (left <= 0 || left > PROOF_URL_TTL_SECONDS.webhook) return null;
      await ready();
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(attemptId, kind, at);
      return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
    },
  };
}
