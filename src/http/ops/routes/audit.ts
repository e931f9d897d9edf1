import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { auditCsv, auditJson, auditJsonLines } from '../../../domain/audit/audit-export.ts';
import type { AuditLog } from '../../../domain/audit/audit-log.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { type AUDIT_FORMATS, AuditPage, AuditQuery } from '../../shared/schemas/audit.ts';
import { errorResponses } from '../../shared/schemas/shared.ts';

type Format = (typeof AUDIT_FORMATS)[number];

const CSV_TYPE = 'text/csv';
const JSONL_TYPE = 'application/x-ndjson';

/** `format` when given, else what Accept names first of CSV and JSON Lines, else JSON. */
function formatOf(request: FastifyRequest, asked: Format | undefined): Format {
  if (asked) return asked;
  const accept = (request.headers.accept ?? '').toLowerCase();
  const csv = accept.indexOf(CSV_TYPE);
  const jsonl = Math.max(accept.indexOf(JSONL_TYPE), accept.indexOf('application/jsonl'));
  if (csv >= 0 && (jsonl < 0 || csv < jsonl)) return 'csv';
  return jsonl >= 0 ? 'jsonl' : 'json';
}

/** The audit trail for the operator's tools: filtered, paged, exported (CSV, JSON Lines). */
export function opsAuditRoutes(app: TypedApp, deps: { audit: AuditLog }): void {
  app.get(
    '/audit',
    {
      config: { auth: { ops: 'audit:read' } },
      schema: {
        operationId: 'opsListAudit',
        summary: 'The audit trail: who changed what, and who read whose data',
        description:
          'Newest first, filtered by actor, order, action, brand and period. JSON pages follow `next_cursor` as the public lists do. ' +
          '`format=csv` (or `Accept: text/csv`) and `format=jsonl` (or `Accept: application/x-ndjson`) export every matching row, ' +
          'streamed as it is read (a header line first in CSV; a cell that would start a spreadsheet formula gets a leading apostrophe). ' +
          'See docs/operator-guide.md, "Audit trail".',
        tags: ['Audit trail'],
        querystring: AuditQuery,
        response: {
          200: {
            description: 'A page of the trail, or its export.',
            content: {
              'application/json': { schema: AuditPage },
              [CSV_TYPE]: { schema: { type: 'string', maxLength: 2_000_000_000 } },
              [JSONL_TYPE]: { schema: { type: 'string', maxLength: 2_000_000_000 } },
            },
          },
          ...errorResponses([400, 401]),
        },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const chosen = formatOf(request, format);
      if (chosen === 'json') {
        const page = await deps.audit.list(query);
        return { ok: true as const, events: page.events.map(auditJson), next_cursor: page.nextCursor };
      }
      // Checked before the first byte: a bad filter is still a 400 with the error envelope.
      const rows = await deps.audit.export(query);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      return reply
        .type(chosen === 'csv' ? `${CSV_TYPE}; charset=utf-8` : `${JSONL_TYPE}; charset=utf-8`)
        .header(
          'content-disposition',
          `attachment; filename="audit-${stamp}.${chosen === 'csv' ? 'csv' : 'jsonl'}"`,
        )
        .send(Readable.from(chosen === 'csv' ? auditCsv(rows) : auditJsonLines(rows)));
    },
  );
}
