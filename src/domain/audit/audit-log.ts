import { invalidField, validateAll } from '../../errors.ts';
import { BRAND_ID_PATTERN } from '../brands/brand.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { CursorCodec, CursorScope } from '../pagination/cursor.ts';
import { retentionCutoff } from '../privacy/retention-periods.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { AUDIT_ACTIONS, type AuditAction, isAuditAction } from './actions.ts';
import { systemAuthor } from './actor.ts';
import type { AuditFilter, AuditRecord, AuditStore } from './ports.ts';

/** The listing's query as a surface gives it (the ops API's query string, `dlv audit`'s flags). */
export interface AuditQuery {
  actor?: string;
  order?: string;
  action?: string;
  brand?: string;
  since?: string;
  until?: string;
  limit?: number;
  cursor?: string;
}

/** A page of JSON: at most this many rows. */
const MAX_PAGE = 200;
/** An export (CSV, JSON Lines) streams every matching row unless given a limit, at most this one. */
export const MAX_EXPORT = 1_000_000;
/** An export reads this many rows at a time, newest first, each read its own short statement. */
const EXPORT_BATCH = 1000;
/** Months kept ready ahead of the current one. */
const MONTHS_AHEAD = 3;

export interface AuditLog {
  /** A page, newest first; each bad filter named in one 400. */
  list(query: AuditQuery): Promise<{ events: AuditRecord[]; nextCursor: string | null }>;
  /**
   * Every row matching (or the first `limit`), newest first, read a batch at a time as the caller
   * consumes them: an export of a year never sits in memory. The filters are checked before this
   * resolves, so a bad one is a 400 before anything is sent.
   */
  export(query: AuditQuery): Promise<AsyncIterable<AuditRecord>>;
  /**
   * The daily upkeep (`audit_partitions` job): the months ahead created, and the months older than
   * AUDIT_RETENTION_DAYS dropped whole, each drop recorded in the trail by `system`.
   */
  upkeep(): Promise<{ created: string[]; dropped: { partition: string; rows: number }[] }>;
}

/** `2026-03-01` (midnight UTC) or an ISO 8601 time with its offset (`2026-03-01T09:00:00+01:00`). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

function instant(field: string, value: string | undefined): Date | null {
  if (value === undefined) return null;
  const at = ISO_TIME.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw invalidField(field, 'must be a date (2026-03-01) or an ISO 8601 time with its offset');
  return at;
}

/** One action, or every action of a group: `round.*` (or `round`). */
function actionsOf(value: string | undefined): AuditAction[] | null {
  if (value === undefined) return null;
  if (isAuditAction(value)) return [value];
  const group = value.replace(/\.\*$/, '');
  const members = AUDIT_ACTIONS.filter((a) => a.startsWith(`${group}.`));
  if (members.length === 0)
    throw invalidField(
      'action',
      `must be an action of the catalogue (${AUDIT_ACTIONS.join(', ')}) or a group (round.*)`,
    );
  return members;
}

export function auditLog(deps: {
  store: AuditStore;
  transact: UnitOfWork<{ audit: AuditStore }>;
  cursors: { ready(): Promise<CursorCodec> };
  clock: () => Date;
  /** AUDIT_RETENTION_DAYS. */
  retentionDays: number;
}): AuditLog {
  const { store } = deps;

  async function checked(query: AuditQuery, maxLimit: number, defaultLimit: number | null) {
    const cursors = await deps.cursors.ready();
    const parsed = validateAll({
      actor: () => {
        const actor = query.actor?.trim();
        if (actor === undefined) return null;
        if (actor.length === 0 || actor.length > 200)
          throw invalidField('actor', 'must be 1 to 200 characters');
        return actor;
      },
      orderRef: () => {
        if (query.order === undefined) return null;
        const ref = normaliseTrackingRef(query.order);
        if (ref === null) throw invalidField('order', 'must be a tracking reference (DLV-…)');
        return ref;
      },
      actions: () => actionsOf(query.action),
      brandId: () => {
        if (query.brand === undefined) return null;
        if (!BRAND_ID_PATTERN.test(query.brand)) throw invalidField('brand', 'must be a brand id (brd_…)');
        return query.brand;
      },
      since: () => instant('since', query.since),
      until: () => instant('until', query.until),
      limit: () => {
        const limit = query.limit ?? defaultLimit;
        if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > maxLimit))
          throw invalidField('limit', `must be an integer from 1 to ${maxLimit}`);
        return limit;
      },
    });
    const filter: AuditFilter = {
      actor: parsed.actor,
      orderRef: parsed.orderRef,
      actions: parsed.actions,
      brandId: parsed.brandId,
      since: parsed.since,
      until: parsed.until,
    };
    // A cursor names its filters: replayed with others, it is refused.
    const scope: CursorScope = {
      list: 'audit',
      brandId: '',
      filter: JSON.stringify([
        filter.actor,
        filter.orderRef,
        filter.actions,
        filter.brandId,
        filter.since?.toISOString() ?? null,
        filter.until?.toISOString() ?? null,
      ]),
    };
    const before = query.cursor === undefined ? null : cursors.decode(scope, query.cursor);
    if (before !== null && !/^[1-9][0-9]{0,18}$/.test(before))
      throw invalidField('cursor', 'is not a cursor');
    return { filter, limit: parsed.limit, before, scope, cursors };
  }

  return {
    async list(query) {
      const { filter, limit, before, scope, cursors } = await checked(query, MAX_PAGE, 50);
      const rows = await store.page(filter, before, limit! + 1);
      const more = rows.length > limit!;
      const events = more ? rows.slice(0, limit!) : rows;
      return { events, nextCursor: more ? cursors.encode(scope, events.at(-1)!.id) : null };
    },

    async export(query) {
      const { filter, limit, before } = await checked(query, MAX_EXPORT, null);
      return {
        async *[Symbol.asyncIterator]() {
          let after = before;
          let left = limit ?? Number.POSITIVE_INFINITY;
          while (left > 0) {
            const batch = await store.page(filter, after, Math.min(EXPORT_BATCH, left));
            for (const row of batch) yield row;
            left -= batch.length;
            if (batch.length < EXPORT_BATCH) return;
            after = batch.at(-1)!.id;
          }
        },
      };
    },

    async upkeep() {
      const created = await store.preparePartitions(MONTHS_AHEAD);
      const cutoff = retentionCutoff(deps.clock(), deps.retentionDays);
      const by = systemAuthor('audit_partitions');
      // Each drop and its record commit together: a month is never gone without a trace.
      const dropped = await deps.transact(async (stores) => {
        const gone = await stores.audit.dropPartitionsBefore(cutoff);
        await stores.audit.record(
          ...gone.map((g) => ({
            action: 'audit.partition_dropped' as const,
            by,
            object: { type: 'audit_partition' as const, id: g.partition },
            details: { rows: g.rows, retention_days: deps.retentionDays, cutoff: cutoff.toISOString() },
          })),
        );
        return gone;
      });
      return { created, dropped };
    },
  };
}
