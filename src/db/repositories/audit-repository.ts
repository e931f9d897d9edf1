import type { AuditAction, AuditObjectType } from '../../domain/audit/actions.ts';
import { type ActorKind, actorColumns } from '../../domain/audit/actor.ts';
import type { FieldChanges, JsonValue } from '../../domain/audit/changes.ts';
import type { AuditEntry, AuditFilter, AuditRecord, AuditStore } from '../../domain/audit/ports.ts';
import type { RowWithMove } from '../../domain/orders/ports.ts';
import type { Queryable } from '../pool.ts';

/** The columns an entry fills, in order, with their types (a RowWithMove casts each parameter). */
const COLUMNS = [
  { name: 'actor_kind', type: 'text' },
  { name: 'actor_id', type: 'text' },
  { name: 'actor_label', type: 'text' },
  { name: 'client_address', type: 'text' },
  { name: 'user_agent', type: 'text' },
  { name: 'request_id', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'object_type', type: 'text' },
  { name: 'object_id', type: 'text' },
  { name: 'brand_id', type: 'text' },
  // `_text` is text[] (a RowWithMove's type is one SQL name).
  { name: 'order_refs', type: '_text' },
  { name: 'changes', type: 'jsonb' },
  { name: 'details', type: 'jsonb' },
] as const;

const cut = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

function valuesOf(entry: AuditEntry): unknown[] {
  const actor = actorColumns(entry.by.actor);
  const origin = entry.by.origin;
  return [
    actor.kind,
    cut(actor.id, 200),
    cut(actor.label, 200),
    cut(origin?.clientAddress ?? null, 64),
    cut(origin?.userAgent ?? null, 512),
    cut(origin?.requestId ?? null, 100),
    entry.action,
    entry.object.type,
    cut(entry.object.id, 200),
    entry.brandId ?? null,
    [...(entry.orderRefs ?? [])],
    entry.changes ? JSON.stringify(entry.changes) : null,
    entry.details ? JSON.stringify(entry.details) : null,
  ];
}

// `id` goes out as text (a bigint beyond 2^53 stays exact); ORDER BY names the table's column, not it.
const SELECT = `SELECT id::text, at, actor_kind, actor_id, actor_label, client_address, user_agent, request_id,
  action, object_type, object_id, brand_id, order_refs, changes, details FROM audit_events`;

interface Row {
  id: string;
  at: Date;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_label: string;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  action: AuditAction;
  object_type: AuditObjectType;
  object_id: string;
  brand_id: string | null;
  order_refs: string[];
  changes: FieldChanges | null;
  details: Record<string, JsonValue> | null;
}

function recordOf(r: Row): AuditRecord {
  const fromRequest = r.client_address !== null || r.user_agent !== null || r.request_id !== null;
  return {
    id: r.id,
    at: r.at,
    actor: { kind: r.actor_kind, id: r.actor_id, label: r.actor_label },
    origin: fromRequest
      ? { clientAddress: r.client_address, userAgent: r.user_agent, requestId: r.request_id }
      : null,
    action: r.action,
    object: { type: r.object_type, id: r.object_id },
    brandId: r.brand_id,
    orderRefs: r.order_refs,
    changes: r.changes,
    details: r.details,
  };
}

/** The audit trail (migration 0049): appended to in the caller's transaction, never changed. */
export function auditRepository(db: Queryable): AuditStore {
  return {
    async record(...entries) {
      if (entries.length === 0) return;
      const values: unknown[] = [];
      const rows = entries.map((entry) => {
        const params = valuesOf(entry).map((v, i) => `$${values.push(v)}::${COLUMNS[i]!.type}`);
        return `(${params.join(', ')})`;
      });
      await db.query(
        `INSERT INTO audit_events (${COLUMNS.map((c) => c.name).join(', ')}) VALUES ${rows.join(', ')}`,
        values,
      );
    },

    withMove: (entry): RowWithMove => ({ table: 'audit_events', columns: COLUMNS, values: valuesOf(entry) }),

    async page(filter: AuditFilter, before: string | null, limit: number) {
      const values: unknown[] = [];
      const where: string[] = [];
      if (filter.actor !== null) {
        const p = `$${values.push(filter.actor)}`;
        where.push(`(actor_id = ${p} OR actor_label = ${p} OR actor_kind = ${p})`);
      }
      if (filter.orderRef !== null) where.push(`order_refs @> ARRAY[$${values.push(filter.orderRef)}::text]`);
      if (filter.actions !== null) where.push(`action = ANY($${values.push(filter.actions)}::text[])`);
      if (filter.brandId !== null) where.push(`brand_id = $${values.push(filter.brandId)}`);
      // The months outside the period are not read (partition pruning on `at`).
      if (filter.since !== null) where.push(`at >= $${values.push(filter.since)}`);
      if (filter.until !== null) where.push(`at < $${values.push(filter.until)}`);
      if (before !== null) where.push(`id < $${values.push(before)}::bigint`);
      const { rows } = await db.query<Row>(
        `${SELECT}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
          ORDER BY audit_events.id DESC LIMIT $${values.push(limit)}`,
        values,
      );
      return rows.map(recordOf);
    },

    async preparePartitions(monthsAhead) {
      const { rows } = await db.query<{ name: string }>(
        'SELECT audit_prepare_partitions AS name FROM audit_prepare_partitions($1)',
        [monthsAhead],
      );
      return rows.map((r) => r.name);
    },

    async dropPartitionsBefore(cutoff) {
      const { rows } = await db.query<{ partition: string; row_count: number }>(
        'SELECT partition, row_count FROM audit_drop_partitions_before($1)',
        [cutoff],
      );
      return rows.map((r) => ({ partition: r.partition, rows: r.row_count }));
    },
  };
}
