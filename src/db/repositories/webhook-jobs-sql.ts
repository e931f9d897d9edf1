import { WEBHOOKS_DELIVER } from '../../jobs/webhooks-deliver.ts';

/**
 * Enqueues the delivery job for each row of CTE `d` (columns id, next_attempt_at) in the same
 * statement that wrote the rows. The job key makes a second enqueue of a waiting delivery replace
 * its job instead of adding one, so a delivery never has two jobs queued at once.
 */
export const ENQUEUE_DELIVERIES = `SELECT graphile_worker.add_job('${WEBHOOKS_DELIVER.name}',
    json_build_object('v', ${WEBHOOKS_DELIVER.payloadVersion}, 'delivery_id', d.id),
    run_at := d.next_attempt_at,
    job_key := 'delivery:' || d.id,
    max_attempts := ${WEBHOOKS_DELIVER.maxAttempts})
  FROM d`;
