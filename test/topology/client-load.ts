import { type Attempt, getJson, postOrder } from '../chaos/harness.ts';
import type { TopologyBrand } from '../support/topology.ts';

/**
 * Clients through the load balancer: `concurrency` loops, each creating an order (its
 * Idempotency-Key is its reference) and reading it back, until told to stop. Every answer is kept.
 */

export interface Outcome {
  what: 'create' | 'read';
  key: string;
  attempt: Attempt;
  at: number;
}

export interface ClientLoad {
  outcomes: Outcome[];
  /** Creations answered 200, by key: the tracking reference given. */
  acknowledged: Map<string, string>;
  /** Anything but a 200: a status, or no answer at all. */
  failures(): Outcome[];
  /** Resolves once `count` requests have been answered in all. */
  answered(count: number): Promise<void>;
  /** Resolves once every loop has ended (all of `maxOrders` created, or stopped). */
  done: Promise<void>;
  stop(): Promise<void>;
}

export function startClientLoad(
  base: string,
  brand: TopologyBrand,
  options: { concurrency: number; prefix: string; maxOrders?: number; retryUntilAnswered?: boolean },
): ClientLoad {
  const outcomes: Outcome[] = [];
  const acknowledged = new Map<string, string>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let stopped = false;
  let next = 0;
  const record = (outcome: Outcome) => {
    outcomes.push(outcome);
    for (const w of waiters.filter((w) => outcomes.length >= w.count)) w.resolve();
  };
  const ok = (a: Attempt) => a.kind === 'response' && a.status === 200;

  const loop = async () => {
    while (!stopped && (options.maxOrders === undefined || next < options.maxOrders)) {
      const key = `${options.prefix}-${next++}`;
      let created: Attempt;
      // A client that gets no answer (or a 5xx) sends the same request again, with the same key.
      for (;;) {
        created = await postOrder(base, brand, key);
        record({ what: 'create', key, attempt: created, at: Date.now() });
        if (ok(created) || !options.retryUntilAnswered) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!ok(created) || created.kind !== 'response') continue;
      const ref = created.body.trackingRef as string;
      acknowledged.set(key, ref);
      const read = await getJson(base, brand, `/orders/${ref}`);
      record({ what: 'read', key, attempt: read, at: Date.now() });
    }
  };
  const loops = Promise.all(Array.from({ length: options.concurrency }, loop)).then(() => {});

  return {
    outcomes,
    acknowledged,
    failures: () => outcomes.filter((o) => !ok(o.attempt)),
    answered(count) {
      if (outcomes.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    done: loops,
    async stop() {
      stopped = true;
      await loops;
    },
  };
}

/** One line per failure, for an assertion's message. */
export function describeFailures(failures: Outcome[]): string {
  return failures
    .slice(0, 20)
    .map((f) =>
      f.attempt.kind === 'response'
        ? `${f.what} ${f.key}: ${f.attempt.status} ${JSON.stringify(f.attempt.body).slice(0, 200)}`
        : `${f.what} ${f.key}: no answer (${f.attempt.error})`,
    )
    .join('\n');
}
