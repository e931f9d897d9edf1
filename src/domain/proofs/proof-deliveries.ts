import { randomBytes } from 'node:crypto';
import { AppError, type ErrorDetail } from '../../errors.ts';
import type { ScanActor, ScanResult } from '../scans/ports.ts';
import { checkScans } from '../scans/scan-input.ts';
import type { ScanService } from '../scans/scan-service.ts';
import type { ImageCodec } from './ports.ts';
import { type ProofFileKind, prepareProofFiles } from './proof-files.ts';
import type { ProofService } from './proof-service.ts';

/** The sent files, as bytes. */
export type ProofUploads = Partial<Record<ProofFileKind, Buffer>>;

/**
 * A door scan with its proof's files (decision 0006), for the courier app's
 * `POST /courier/api/v1/deliveries` and the operator's `POST /ops/v1/orders/{ref}/proof`.
 */
export interface ProofDeliveries {
  /**
   * Checks the scan (400 naming `scan.field`) and the files (413, 415, 422 naming `photo` or
   * `signature`), re-encodes the files, then stores them, then applies the scan through the scan
   * service (the attempt row in the status change's transaction). Whatever did not end up in an
   * attempt — a refused scan, a replayed scan id, an error — has its files deleted: nothing
   * half-written stays. The answer is the scan's result.
   */
  deliver(actor: ScanActor, scan: unknown, files: ProofUploads): Promise<ScanResult>;
}

export interface ProofDeliveriesDeps {
  scans: Pick<ScanService, 'apply'>;
  proofs: Pick<ProofService, 'storeFiles' | 'discardFiles' | 'attemptKeys'>;
  images: ImageCodec;
}

/** `scans[0].happened_at` (the scan service's names) → `scan.happened_at` (this request's field). */
function renamed(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== 'invalid_request') return err;
  const rename = (text: string) => text.replaceAll('scans[0]', 'scan');
  const details: ErrorDetail[] | undefined = err.details?.map((d) => ({
    field: rename(d.field),
    message: d.message,
  }));
  return new AppError('invalid_request', rename(err.message), details);
}

export function proofDeliveries(deps: ProofDeliveriesDeps): ProofDeliveries {
  return {
    async deliver(actor, scan, files) {
      if (typeof scan !== 'object' || scan === null || Array.isArray(scan))
        throw new AppError('invalid_request', 'scan: must be the scan as a JSON object', [
          { field: 'scan', message: 'must be the scan as a JSON object' },
        ]);
      // Keys are ours to give, never the sender's: a key from the wire could name another order's photo.
      const { photo_key: _p, signature_key: _s, ...wire } = scan as Record<string, unknown>;
      try {
        const [checked] = checkScans([wire]);
        if (checked!.context !== 'door')
          throw new AppError('invalid_request', 'scan.context: a delivery is a door scan', [
            { field: 'scan.context', message: 'must be door' },
          ]);
      } catch (err) {
        throw renamed(err);
      }
      const prepared = await prepareProofFiles(files, deps.images);
      if (prepared.length === 0) return applyOne(actor, wire);
      // A folder of its own per upload: two uploads of the same scan never share (or delete) a key.
      const keys = await deps.proofs.storeFiles(randomBytes(8).toString('hex'), prepared);
      const ours = [keys.photoKey, keys.signatureKey];
      let result: ScanResult;
      try {
        result = await applyOne(actor, {
          ...wire,
          ...(keys.photoKey ? { photo_key: keys.photoKey } : {}),
          ...(keys.signatureKey ? { signature_key: keys.signatureKey } : {}),
        });
      } catch (err) {
        await deps.proofs.discardFiles(ours);
        throw err;
      }
      const kept = await deps.proofs.attemptKeys(String(wire.id).toLowerCase());
      const used =
        kept !== null && kept.photoKey === keys.photoKey && kept.signatureKey === keys.signatureKey;
      if (!used) await deps.proofs.discardFiles(ours);
      return result;
    },
  };

  async function applyOne(actor: ScanActor, scan: Record<string, unknown>): Promise<ScanResult> {
    try {
      const [result] = await deps.scans.apply(actor, [scan]);
      return result!;
    } catch (err) {
      throw renamed(err);
    }
  }
}
