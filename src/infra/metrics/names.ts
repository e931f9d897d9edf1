/** Every metric of the service is named `dlv_…` (the default process metrics too). */
export const PREFIX = 'dlv_';

/** Seconds: from a fast API answer (5 ms) to a slow one (10 s). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
