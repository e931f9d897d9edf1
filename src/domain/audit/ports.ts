import type { RowWithMove } from '../orders/ports.ts';
import type { AuditAction, AuditObjectType } from './actions.ts';
import type { ActorKind, Author, RequestOrigin } from './actor.ts';
import type { FieldChanges, JsonValue } from './changes.ts';

/** One thing to record: who did what to which object, and the fields it changed. */
export interface AuditEntry {
  action: AuditAction;
  by: Author;
  object: { type: AuditObjectType; id: string };
  brandId?: string | null;
  /** The orders it was about, by tracking reference (a read of several lists them all). */
  orderRefs?: readonly string[];
  /** The changed fields only (changes.ts: a person's data as "changed"). */
  changes?: FieldChanges | null;
  /** Counts, a scan's context, a file's name: never a person's data. */
  details?: Record<string, JsonValue> | null;
}

/** A recorded entry, as the listing gives it. */
export interface AuditRecord {
  /** Its sequence number (a bigint, as text). */
  id: string;
  at: Date;
  actor: { kind: ActorKind; id: string | null; label: string };
  origin: RequestOrigin | null;
  action: AuditAction;
  object: { type: AuditObjectType; id: string };
  brandId: string | null;
  orderRefs: string[];
  changes: FieldChanges | null;
  details: Record<string, JsonValue> | null;
}

/** The listing's filters, checked (audit-log.ts); null: not filtered on. */
export interface AuditFilter {
  /** An actor kind (`courier`), or an actor's id or label (`cou_…`, `alice@depot`, an e-mail). */
  actor: string | null;
  orderRef: string | null;
  /** Exact actions: one, or every action of a group (`round.*`). */
  actions: readonly AuditAction[] | null;
  brandId: string | null;
  /** From this instant, included… */
  since: Date | null;
  /** …to this one, excluded. */
  until: Date | null;
}

/** The trail (`audit_events`, migration 0049): appended to, read, and its expired months dropped. */
export interface AuditStore {
  /** Appends the entries, on this store's connection (the change's transaction when it has one). */
  record(...entries: readonly AuditEntry[]): Promise<void>;
  /** The entry as a row of an order's move, written by the move's own statement only if it is made. */
  withMove(entry: AuditEntry): RowWithMove;
  /** Newest first: at most `limit` rows before the row `before` (its id; null: from the newest). */
  page(filter: AuditFilter, before: string | null, limit: number): Promise<AuditRecord[]>;
  /** Creates the months from the current one to `monthsAhead` after it that are missing; their names. */
  preparePartitions(monthsAhead: number): Promise<string[]>;
  /**
   * Drops the months that ended before `cutoff` (never one of the last 90 days: the database
   * refuses): each partition dropped with the rows it held.
   */
  dropPartitionsBefore(cutoff: Date): Promise<{ partition: string; rows: number }[]>;
}
