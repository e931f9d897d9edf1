import pg from './pg.ts';
import { isConnectionError } from './pool.ts';

export interface CoalescedStatements<I, O> {
  /** Queues `item` for this turn's shared statement; resolves to its own outcome. */
  run(item: I): Promise<O>;
}

export interface CoalescingOptions<I, O> {
  /** One item alone, as it would run without coalescing. */
  one(item: I): Promise<O>;
  /** Several items in one statement (so one transaction): their outcomes, in their order. */
  many(items: I[]): Promise<O[]>;
  /** At most this many items per statement; more are split. */
  maxBatch: number;
  /** Items of different groups never share a statement (e.g. pages with different filters). */
  groupOf?(item: I): string;
}

interface Pending<I, O> {
  item: I;
  resolve(outcome: O): void;
  reject(err: unknown): void;
}

/**
 * Statements of one kind that arrive in the same turn of the event loop, run as one. Under load many
 * requests reach their query between two turns, and for one narrow row the statement's execution
 * (plan and constraint set-up, locks on the table and each index, a snapshot, for a write the commit
 * and its WAL flush, the round trip) costs PostgreSQL and the driver more than the row does; one
 * statement for all of them pays it once. An item alone runs as it would without this, at the end
 * of the current turn (setImmediate: no timer, nothing waits for company).
 *
 * If PostgreSQL refuses the shared statement, nothing of it was written (one statement is one
 * transaction), and each item runs again alone, so each caller gets its own outcome: one bad row
 * does not fail its neighbours. Any other failure (a lost connection above all) is not retried: a
 * write may have committed before its answer was lost, and every caller gets the error, as a
 * statement of its own would.
 */
export function coalescedStatements<I, O>(options: CoalescingOptions<I, O>): CoalescedStatements<I, O> {
  let queue = new Map<string, Pending<I, O>[]>();

  const settleAlone = (p: Pending<I, O>) => options.one(p.item).then(p.resolve, p.reject);

  async function settle(batch: Pending<I, O>[]): Promise<void> {
    if (batch.length === 1) return settleAlone(batch[0]!);
    let outcomes: O[];
    try {
      outcomes = await options.many(batch.map((p) => p.item));
    } catch (err) {
      if (refusedByServer(err)) await Promise.all(batch.map(settleAlone));
      else for (const p of batch) p.reject(err);
      return;
    }
    for (const [i, p] of batch.entries()) p.resolve(outcomes[i]!);
  }

  function flush(): void {
    const due = queue;
    queue = new Map();
    for (const group of due.values()) {
      for (let from = 0; from < group.length; from += options.maxBatch) {
        void settle(group.slice(from, from + options.maxBatch));
      }
    }
  }

  return {
    run(item) {
      return new Promise<O>((resolve, reject) => {
        if (queue.size === 0) setImmediate(flush);
        const key = options.groupOf?.(item) ?? '';
        const group = queue.get(key);
        if (group) group.push({ item, resolve, reject });
        else queue.set(key, [{ item, resolve, reject }]);
      });
    },
  };
}

/** An error PostgreSQL answered for a statement it then rolled back (not the connection's end). */
function refusedByServer(err: unknown): boolean {
  return err instanceof pg.DatabaseError && !isConnectionError(err);
}
