import { addJobSql } from '../../infra/queue/queue-sql.ts';
import { WEBHOOKS_DELIVER_SPEC } from '../../jobs/job-names.ts';

/**
 * Enqueues the delivery job for each row of CTE `d` (columns id, next_attempt_at) in the same
 * statement that wrote the rows. The job key makes a second enqueue of a waiting delivery replace
 * its job instead of adding one, so a delivery never has two jobs queued at once.
 */
export const ENQUEUE_DELIVERIES = `SELECT ${addJobSql({
  task: `'${WEBHOOKS_DELIVER_SPEC.name}'`,
  payload: `json_build_object('v', ${WEBHOOKS_DELIVER_SPEC.payloadVersion}, 'delivery_id', d.id)`,
  runAt: 'd.next_attempt_at',
  jobKey: deliveryJobKey('d.id'),
  maxAttempts: WEBHOOKS_DELIVER_SPEC.maxAttempts,
})}
  FROM d`;

/** The job key of a delivery's job (SQL, from the expression of its id). */
export function deliveryJobKey(id: string): string {
  return `'delivery:' || ${id}`;
}
