/**
 * A retention job's batches, one after the other with a rest after each as long as the batch took
 * (times `ratio`): the job keeps the database busy half the time at most (with the default of 1),
 * so the hot path keeps the rest of its CPU and disk. Measured on 300,000 events (bench/retention.ts,
 * docs/operations.md "Retention").
 */
export function pacedBatches(ratio = 1): <R>(batch: () => Promise<R>) => Promise<R> {
  return async (batch) => {
    const started = performance.now();
    const result = await batch();
    const rest = (performance.now() - started) * ratio;
    if (rest >= 1) await new Promise((resolve) => setTimeout(resolve, rest));
    return result;
  };
}
