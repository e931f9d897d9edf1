import type { Locale } from '../../i18n/locales.ts';
import type { Author } from '../audit/actor.ts';
import type { RowWithMove } from '../orders/ports.ts';
import type { OrderStatus } from '../orders/state-machine.ts';

export const SCAN_CONTEXTS = ['pickup', 'hub', 'loading', 'door'] as const;
export type ScanContext = (typeof SCAN_CONTEXTS)[number];

export const DOOR_OUTCOMES = ['delivered', 'failed_attempt'] as const;
export type DoorOutcome = (typeof DOOR_OUTCOMES)[number];

export const FAILURE_REASONS = ['absent', 'refused', 'address_not_found', 'no_access', 'damaged'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Why a scan was refused (decision 0006), codes the courier app translates; `too_old` is ours (docs/scans.md). */
export const SCAN_PROBLEMS = [
  'unknown_code',
  'wrong_round',
  'already_delivered',
  'order_cancelled',
  'invalid_transition',
  'proof_required',
  'too_old',
  // A test mode order (docs/test-mode.md): its SPECIMEN label must never move a real parcel.
  'test_order',
] as const;
export type ScanProblem = (typeof SCAN_PROBLEMS)[number];

/** A scan as the phone sends it (decision 0006), field names as on the wire. */
export interface ScanInput {
  id: string;
  context: string;
  code: string;
  happened_at: string;
  outcome?: string;
  reason?: string;
  received_by?: string;
  location?: { latitude: number; longitude: number };
}

/**
 * Object keys of a delivery's files, stored by domain/proofs before its scan is applied. Never read
 * from the wire: a key a sender chose could name another order's photo (and have it erased).
 */
export interface ProofKeys {
  photoKey: string | null;
  signatureKey: string | null;
}

/** A scan checked: what the service applies. */
export interface Scan {
  id: string;
  context: ScanContext;
  code: string;
  happenedAt: Date;
  outcome: DoorOutcome | null;
  reason: FailureReason | null;
  receivedBy: string | null;
  location: { latitude: number; longitude: number } | null;
  photoKey: string | null;
  signatureKey: string | null;
}

/** One scan's answer (decision 0006), in the order the scans were given. */
export interface ScanResult {
  id: string;
  result: 'applied' | 'refused';
  tracking_ref: string | null;
  status: OrderStatus | null;
  problem: { code: ScanProblem; message: string } | null;
}

/** Who scans: a signed-in courier, or the operator's tools (ops API) for a courier or nobody named. */
export interface ScanActor {
  courierId: string | null;
  /** The language of the refusals' messages. */
  locale: Locale;
  /** Who the audit trail names for the scans applied (the courier, or the operator's credential). */
  by: Author;
}

/** A scan's row (migration 0033) as written. */
export interface ScanRow {
  id: string;
  courierId: string | null;
  roundId: string | null;
  context: ScanContext;
  code: string;
  orderId: number | null;
  outcome: DoorOutcome | null;
  reason: FailureReason | null;
  happenedAt: Date;
  result: 'applied' | 'refused';
  statusAfter: OrderStatus | null;
  problem: ScanProblem | null;
  message: string | null;
}

/** A door's outcome (migration 0034): the facts, and the keys of the proof's files. */
/** A door attempt as the door scan writes it (domain/proofs keeps it as a DeliveryAttempt). */
export interface DoorAttempt {
  id: string;
  outcome: DoorOutcome;
  /** Set for a failed attempt only. */
  reason: FailureReason | null;
  happenedAt: Date;
  receivedBy: string | null;
  /** Rounded to 3 decimals (about 100 m) before it is stored; both or neither. */
  latitude: number | null;
  longitude: number | null;
  photoKey: string | null;
  signatureKey: string | null;
}

export interface NewAttempt {
  id: string;
  orderId: number;
  /** Null for a simulated attempt (test mode), made by no scan. */
  scanId: string | null;
  courierId: string | null;
  outcome: DoorOutcome;
  reason: FailureReason | null;
  happenedAt: Date;
  receivedBy: string | null;
  /** Already rounded to 3 decimals (about 100 m). */
  location: { latitude: number; longitude: number } | null;
  photoKey: string | null;
  signatureKey: string | null;
}

/** The round an order or a pickup is on, that day. */
export interface RoundOf {
  roundId: string;
  courierId: string | null;
}

export interface ScanStore {
  /** The stored answers of these scan ids (those known). */
  results(ids: readonly string[]): Promise<ScanResult[]>;
  /**
   * Writes the scan's row; false when its id is already there (a replay, or the same scan sent
   * twice at once: then the caller answers the stored result).
   */
  record(row: ScanRow): Promise<boolean>;
  /** The scan's row, to be written by the statement of the order's move it made (RowWithMove). */
  scanWithMove(row: ScanRow): RowWithMove;
  /** The door attempt's row, written with the move as well. */
  attemptWithMove(attempt: NewAttempt): RowWithMove;
  /**
   * For each (tracking ref, day YYYY-MM-DD) asked, the round of that day that has the order as a
   * delivery stop or its pickup as a pickup stop, keyed `ref|day` (one query for a whole request).
   */
  roundsOf(asked: readonly { ref: string; day: string }[]): Promise<Map<string, RoundOf>>;
  /** Whether the courier is on a round that has this pickup as a stop (any day). */
  courierHasPickup(courierId: string, pickupId: string): Promise<boolean>;
  /** The tracking refs of the pickup's orders scanned at a pickup (applied scans). */
  pickupScannedRefs(pickupId: string): Promise<string[]>;
  courierExists(courierId: string): Promise<boolean>;
}

/** What the metrics watch (`dlv_scans_total{context,result}`). */
export interface ScanObserver {
  scanned(context: ScanContext, result: 'applied' | 'refused'): void;
}
