/**
 * What a log line may say of a job: graphile-worker hands its whole row to the logger with every
 * "Completed task" and "Failed task" line, payload included, and a payload can carry personal data
 * (the password-reset job's is an e-mail address). Logs are kept and shipped elsewhere for longer
 * than any job, so a line names the job and its attempt, never what it carries.
 */
export function jobLogMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!meta || typeof meta.job !== 'object' || meta.job === null) return meta;
  const job = meta.job as Record<string, unknown>;
  return {
    ...meta,
    job: {
      id: job.id,
      task: job.task_identifier,
      attempts: job.attempts,
      max_attempts: job.max_attempts,
      ...(job.job_queue_id != null && { queue_id: job.job_queue_id }),
    },
  };
}
