import { AppError, type ErrorDetail } from '../../errors.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import {
  DOOR_OUTCOMES,
  type DoorOutcome,
  FAILURE_REASONS,
  type FailureReason,
  type ProofKeys,
  SCAN_CONTEXTS,
  type Scan,
  type ScanContext,
  type ScanInput,
} from './ports.ts';

export const MAX_SCANS = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The phone's own clock with its offset: a time without one could be any of 24 hours.
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

const oneOf = <T extends string>(values: readonly T[], v: unknown): v is T =>
  typeof v === 'string' && (values as readonly string[]).includes(v);

/**
 * The tracking reference a scanner read: the Code 128 (the reference), the DataMatrix text
 * `REF|SORT|n/N` (any unit of a multi-unit parcel names the order), or the reference typed (any
 * case, with or without its dash). Null when it cannot be one of ours.
 */
export function trackingRefOfCode(code: string): string | null {
  const ref = code.includes('|') ? code.split('|', 1)[0]! : code;
  return normaliseTrackingRef(ref.replace(/[\s-]/g, '').replace(/^DLV/i, 'DLV-'));
}

/**
 * Checks every scan of a request; a malformed one refuses the whole request (400 naming
 * `scans[i].field`, every problem at once): that is the app's bug, not the courier's situation.
 */
export function checkScans(input: unknown, keys: ProofKeys | null = null): Scan[] {
  if (!Array.isArray(input)) throw invalidScans([{ field: 'scans', message: 'must be a list of scans' }]);
  if (input.length < 1 || input.length > MAX_SCANS) {
    throw invalidScans([{ field: 'scans', message: `must hold 1 to ${MAX_SCANS} scans` }]);
  }
  const details: ErrorDetail[] = [];
  const scans = input.map((raw, i) => checkScan(raw as ScanInput, `scans[${i}]`, details, keys));
  // Files' keys belong to one delivery: the one scan domain/proofs applies with its files.
  if (keys && input.length !== 1) throw new Error('proof keys go with exactly one scan');
  if (details.length > 0) throw invalidScans(details);
  return scans as Scan[];
}

function invalidScans(details: ErrorDetail[]): AppError {
  const message =
    details.length === 1
      ? `${details[0]!.field}: ${details[0]!.message}`
      : `Invalid request: ${details
          .slice(0, 10)
          .map((d) => `${d.field} ${d.message}`)
          .join('; ')}${details.length > 10 ? '…' : ''}.`;
  return new AppError('invalid_request', message, details.slice(0, 50));
}

function checkScan(raw: ScanInput, at: string, details: ErrorDetail[], keys: ProofKeys | null): Scan | null {
  const problem = (field: string, message: string) => {
    details.push({ field: `${at}.${field}`, message });
    return null;
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    details.push({ field: at, message: 'must be a scan object' });
    return null;
  }
  const before = details.length;
  const id =
    typeof raw.id === 'string' && UUID.test(raw.id) ? raw.id.toLowerCase() : problem('id', 'must be a UUID');
  const context: ScanContext | null = oneOf(SCAN_CONTEXTS, raw.context)
    ? raw.context
    : problem('context', `must be one of ${SCAN_CONTEXTS.join(', ')}`);
  const code =
    typeof raw.code === 'string' && raw.code.trim().length >= 1 && raw.code.length <= 200
      ? raw.code.trim()
      : problem('code', 'must be the text the scanner read (1 to 200 characters)');
  const happenedAt =
    typeof raw.happened_at === 'string' &&
    ISO_WITH_OFFSET.test(raw.happened_at) &&
    !Number.isNaN(Date.parse(raw.happened_at))
      ? new Date(raw.happened_at)
      : problem('happened_at', 'must be an ISO 8601 date-time with its offset (2026-11-24T15:30:00+01:00)');
  let outcome: DoorOutcome | null = null;
  if (context === 'door') {
    outcome = oneOf(DOOR_OUTCOMES, raw.outcome)
      ? raw.outcome
      : problem('outcome', `a door scan says ${DOOR_OUTCOMES.join(' or ')}`);
  } else if (raw.outcome !== undefined) {
    problem('outcome', 'only a door scan has an outcome');
  }
  let reason: FailureReason | null = null;
  if (outcome === 'failed_attempt') {
    reason = oneOf(FAILURE_REASONS, raw.reason)
      ? raw.reason
      : problem('reason', `a failed attempt says why: ${FAILURE_REASONS.join(', ')}`);
  } else if (raw.reason !== undefined) {
    problem('reason', 'only a failed attempt has a reason');
  }
  let receivedBy: string | null = null;
  if (raw.received_by !== undefined) {
    const text = typeof raw.received_by === 'string' ? raw.received_by.trim() : '';
    if (text.length < 1 || text.length > 100) problem('received_by', 'must be 1 to 100 characters');
    else if (outcome !== 'delivered') problem('received_by', 'only a delivery has who received it');
    else receivedBy = text;
  }
  let location: Scan['location'] = null;
  if (raw.location !== undefined) {
    const l = raw.location;
    const lat = typeof l === 'object' && l !== null ? l.latitude : undefined;
    const lon = typeof l === 'object' && l !== null ? l.longitude : undefined;
    if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90)
      problem('location.latitude', 'must be a number from -90 to 90');
    else if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180)
      problem('location.longitude', 'must be a number from -180 to 180');
    // About 100 m: where the courier was, not which door (SPEC §10).
    else location = { latitude: Math.round(lat * 1000) / 1000, longitude: Math.round(lon * 1000) / 1000 };
  }
  for (const field of ['photo_key', 'signature_key'])
    if (field in raw) problem(field, "is not accepted: a delivery's files are sent with it to …/deliveries");
  if (details.length > before) return null;
  return {
    id: id!,
    context: context!,
    code: code!,
    happenedAt: happenedAt!,
    outcome,
    reason,
    receivedBy,
    location,
    photoKey: keys?.photoKey ?? null,
    signatureKey: keys?.signatureKey ?? null,
  };
}
