import { stringify } from 'csv-stringify/sync';
import type { FieldChanges, JsonValue } from './changes.ts';
import type { AuditRecord } from './ports.ts';

/** An entry of the trail as the ops API and `dlv audit --json` give it. */
export interface AuditEventJson {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; label: string };
  origin: { client_address: string | null; user_agent: string | null; request_id: string | null } | null;
  action: string;
  object: { type: string; id: string };
  brand_id: string | null;
  order_refs: string[];
  changes: FieldChanges | null;
  details: Record<string, JsonValue> | null;
}

export function auditJson(r: AuditRecord): AuditEventJson {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: r.actor,
    origin: r.origin && {
      client_address: r.origin.clientAddress,
      user_agent: r.origin.userAgent,
      request_id: r.origin.requestId,
    },
    action: r.action,
    object: r.object,
    brand_id: r.brandId,
    order_refs: r.orderRefs,
    changes: r.changes,
    details: r.details,
  };
}

/** The CSV export's columns, in order (docs/operator-guide.md, "Audit trail"). */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_label',
  'client_address',
  'user_agent',
  'request_id',
  'action',
  'object_type',
  'object_id',
  'brand_id',
  'order_refs',
  'changes',
  'details',
] as const;

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
 * first: OWASP's CSV injection) gets a leading apostrophe; a user agent is the client's to choose.
 */
const inert = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

function csvCells(r: AuditRecord): string[] {
  return [
    r.id,
    r.at.toISOString(),
    r.actor.kind,
    r.actor.id ?? '',
    r.actor.label,
    r.origin?.clientAddress ?? '',
    r.origin?.userAgent ?? '',
    r.origin?.requestId ?? '',
    r.action,
    r.object.type,
    r.object.id,
    r.brandId ?? '',
    r.orderRefs.join(' '),
    r.changes ? JSON.stringify(r.changes) : '',
    r.details ? JSON.stringify(r.details) : '',
  ].map(inert);
}

/** Lines sent together: a chunk of some tens of kilobytes, not one write per row. */
const CHUNK_ROWS = 500;

async function* chunked(records: AsyncIterable<AuditRecord>, line: (r: AuditRecord) => string) {
  let lines: string[] = [];
  for await (const r of records) {
    lines.push(line(r));
    if (lines.length === CHUNK_ROWS) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join('');
}

const CSV = { record_delimiter: 'windows' } as const;

/** The export as CSV (RFC 4180, a header line first), written as the rows are read. */
export async function* auditCsv(records: AsyncIterable<AuditRecord>): AsyncGenerator<string> {
  yield stringify([[...AUDIT_CSV_COLUMNS]], CSV);
  yield* chunked(records, (r) => stringify([csvCells(r)], CSV));
}

/** The export as JSON Lines: one entry's JSON (`auditJson`) a line, written as the rows are read. */
export function auditJsonLines(records: AsyncIterable<AuditRecord>): AsyncGenerator<string> {
  return chunked(records, (r) => `${JSON.stringify(auditJson(r))}\n`);
}
