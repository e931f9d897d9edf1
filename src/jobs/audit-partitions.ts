import type { AuditLog } from '../domain/audit/audit-log.ts';
import { defineJob } from './job.ts';
import { AUDIT_PARTITIONS_SPEC } from './job-names.ts';

/**
 * Daily: the audit trail's next months are created ahead, and the months older than
 * AUDIT_RETENTION_DAYS are dropped whole, each drop recorded in the trail (decision 0009). A day
 * missed is caught up by the next: three months are kept ready.
 */
export const AUDIT_PARTITIONS = defineJob({
  ...AUDIT_PARTITIONS_SPEC,
  schedule: '25 4 * * * ?max=3',
  async run(deps: { audit: Pick<AuditLog, 'upkeep'> }, _payload, helpers) {
    const { created, dropped } = await deps.audit.upkeep();
    if (created.length > 0) helpers.logger.info(`audit trail: created ${created.join(', ')}`);
    for (const month of dropped)
      helpers.logger.info(`audit trail: dropped ${month.partition} (${month.rows} rows) past its retention`);
  },
});
