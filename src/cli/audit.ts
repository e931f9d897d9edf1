import { once } from 'node:events';
import type { AuditQuery } from '../domain/audit/audit-log.ts';
import type { FieldChanges } from '../domain/audit/changes.ts';
import type { AuditRecord } from '../domain/audit/ports.ts';
import { type CommandSpec, command, optionalFlag, table, UsageError } from './context.ts';

const FORMATS = ['table', 'csv', 'jsonl'] as const;

/** `status: pending→picked_up, delivery_phone: changed`: what the table shows of the changes. */
function changesText(changes: FieldChanges | null): string {
  if (!changes) return '';
  return Object.entries(changes)
    .map(([field, c]) =>
      c === 'changed'
        ? `${field}: changed`
        : `${field}: ${JSON.stringify(c.before)}→${JSON.stringify(c.after)}`,
    )
    .join(', ')
    .slice(0, 120);
}

const refsText = (refs: readonly string[]) =>
  refs.length <= 3 ? refs.join(' ') : `${refs.slice(0, 3).join(' ')} +${refs.length - 3}`;

/** Writes an export's chunks to stdout as they come, waiting when the pipe is full. */
async function stream(chunks: AsyncIterable<string>): Promise<void> {
  for await (const chunk of chunks) {
    if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
  }
}

export const auditCommands: CommandSpec[] = [
  command({
    path: 'audit',
    writesNoLinks: true,
    description:
      'the audit trail, newest first: who changed what and who read whose data; --format csv|jsonl exports every matching row',
    flags: {
      actor: {
        value: 'WHO',
        description: 'an actor kind (cli, courier, bootstrap…), an id (cou_…) or a label (alice@depot-1)',
      },
      order: { value: 'REF', description: 'rows about this order (DLV-…)' },
      action: { value: 'ACTION', description: 'one action (order.status_changed) or a group (round.*)' },
      brand: { value: 'ID', description: 'rows about this brand' },
      since: { value: 'TIME', description: 'from this date or ISO 8601 time, included' },
      until: { value: 'TIME', description: 'to this date or ISO 8601 time, excluded' },
      limit: {
        value: 'N',
        description: 'at most N rows (default 50 for the table and --json; all for exports)',
      },
      format: {
        value: 'table|csv|jsonl',
        description: 'table (default), csv or jsonl (JSON Lines), streamed',
      },
    },
    async run(ctx) {
      // Loaded when the command runs: `dlv --help` loads this module, and the CSV writer is not its.
      const { auditCsv, auditJson, auditJsonLines } = await import('../domain/audit/audit-export.ts');
      const format = optionalFlag(ctx, 'format') ?? 'table';
      if (!(FORMATS as readonly string[]).includes(format))
        throw new UsageError('--format must be table, csv or jsonl');
      if (format !== 'table' && ctx.json) throw new UsageError('give --json or --format, not both');
      const limitFlag = optionalFlag(ctx, 'limit');
      const limit =
        limitFlag === null ? undefined : /^\d{1,7}$/.test(limitFlag) ? Number(limitFlag) : Number.NaN;
      const query: AuditQuery = {
        ...(optionalFlag(ctx, 'actor') !== null && { actor: optionalFlag(ctx, 'actor')! }),
        ...(optionalFlag(ctx, 'order') !== null && { order: optionalFlag(ctx, 'order')! }),
        ...(optionalFlag(ctx, 'action') !== null && { action: optionalFlag(ctx, 'action')! }),
        ...(optionalFlag(ctx, 'brand') !== null && { brand: optionalFlag(ctx, 'brand')! }),
        ...(optionalFlag(ctx, 'since') !== null && { since: optionalFlag(ctx, 'since')! }),
        ...(optionalFlag(ctx, 'until') !== null && { until: optionalFlag(ctx, 'until')! }),
        ...(limit !== undefined && { limit }),
      };
      if (format === 'csv' || format === 'jsonl') {
        const rows = await ctx.deps.audit.export(query);
        await stream(format === 'csv' ? auditCsv(rows) : auditJsonLines(rows));
        return;
      }
      const events: AuditRecord[] = [];
      for await (const row of await ctx.deps.audit.export({ ...query, limit: query.limit ?? 50 }))
        events.push(row);
      const text =
        events.length === 0
          ? 'Nothing in the audit trail matches.'
          : table([
              ['AT', 'ACTOR', 'ACTION', 'OBJECT', 'ORDERS', 'CHANGES'],
              ...events.map((e) => [
                e.at.toISOString(),
                `${e.actor.kind} ${e.actor.label}`,
                e.action,
                `${e.object.type} ${e.object.id}`,
                refsText(e.orderRefs),
                changesText(e.changes),
              ]),
            ]);
      ctx.out(text, { events: events.map(auditJson) });
    },
  }),
];
