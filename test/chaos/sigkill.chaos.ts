import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type Attempt,
  checkDatabase,
  freePort,
  killApi,
  postOrder,
  type RunningApi,
  retryUntilAnswered,
  startApi,
  useOwnedCluster,
} from './harness.ts';

const TOTAL = 200;
/** The API is killed as soon as this many creations have been acknowledged. */
const KILL_AFTER_ACKS = 50;

const { state, cleanup } = useOwnedCluster();

describe('crash safety: the API killed with SIGKILL during 200 concurrent creations', () => {
  it('loses no acknowledged order and creates no duplicate once every unanswered request is retried', async () => {
    const port = await freePort();
    let api: RunningApi = await startApi(state.cluster.url, port);
    cleanup.push(() => killApi(api));
    const run = randomBytes(4).toString('hex');
    const keys = Array.from({ length: TOTAL }, (_, i) => `chaos-kill-${run}-${String(i).padStart(3, '0')}`);

    // 200 creations at once; the process dies with SIGKILL once 50 have come back.
    const first = api;
    let acks = 0;
    let killedAt: number | null = null;
    let acksBeforeKill = 0;
    const outcomes = await Promise.all(
      keys.map(async (key): Promise<Attempt> => {
        const result = await postOrder(first.base, state.brand, key);
        if (result.kind === 'response' && result.status === 200 && killedAt === null) {
          acks++;
          if (acks >= KILL_AFTER_ACKS) {
            killedAt = Date.now();
            acksBeforeKill = acks;
            first.child.kill('SIGKILL');
          }
        }
        return result;
      }),
    );
    await first.exited;
    expect(killedAt, 'the API was killed mid-load').not.toBeNull();
    expect(first.child.signalCode).toBe('SIGKILL');

    const acknowledged = new Map<string, string>();
    const unanswered: string[] = [];
    outcomes.forEach((result, i) => {
      const key = keys[i]!;
      if (result.kind === 'response') {
        // Nothing but a creation may come back before the kill: no 500, no 409 (keys are distinct).
        expect(result.status, JSON.stringify(result.body)).toBe(200);
        expect(result.replayed).toBe(false);
        acknowledged.set(key, result.body.trackingRef);
      } else {
        unanswered.push(key);
      }
    });
    expect(acknowledged.size + unanswered.length).toBe(TOTAL);
    expect(unanswered.length, 'the kill left requests unanswered').toBeGreaterThan(0);

    // Restart and retry every unanswered request, same key and body, until it is answered.
    api = await startApi(state.cluster.url, port);
    const deadline = Date.now() + 30_000;
    const retried = await Promise.all(
      unanswered.map(async (key) => ({
        key,
        ...(await retryUntilAnswered(api.base, state.brand, key, deadline)),
      })),
    );
    const final = new Map(acknowledged);
    for (const r of retried) final.set(r.key, r.trackingRef);
    // Committed before the kill but never acknowledged: the retry gets the stored response back.
    const replayedOnRetry = retried.filter((r) => r.replayed).length;

    // Every acknowledged order is still the same order on replay.
    const replays = await Promise.all(
      [...acknowledged].map(async ([key, ref]) => ({
        key,
        ref,
        result: await postOrder(api.base, state.brand, key),
      })),
    );
    for (const { ref, result } of replays) {
      expect(result.kind === 'response' && result.status).toBe(200);
      if (result.kind !== 'response') continue;
      expect(result.replayed).toBe(true);
      expect(result.body.trackingRef).toBe(ref);
    }

    const db = await checkDatabase(state.cluster.url, state.brand.brandId);
    const lost = [...acknowledged].filter(([key, ref]) => db.refByReference.get(key) !== ref).length;
    console.log(
      `[chaos] SIGKILL: ${TOTAL} concurrent creations, killed after ${acksBeforeKill} acks; ` +
        `acknowledged=${acknowledged.size} unanswered=${unanswered.length} retried=${retried.length} ` +
        `(replayed=${replayedOnRetry}, created=${retried.length - replayedOnRetry}, ` +
        `max attempts=${Math.max(0, ...retried.map((r) => r.attempts))}) ` +
        `orders in db=${db.orders} lost=${lost} duplicates=${db.duplicates}`,
    );

    expect(lost).toBe(0);
    expect(db.duplicates).toBe(0);
    expect(db.orders).toBe(TOTAL);
    expect(db.refByReference.size).toBe(TOTAL);
    expect(db.storedKeys).toBe(TOTAL);
    expect(db.mismatchedKeys).toBe(0);
    for (const key of keys) expect(db.refByReference.get(key)).toBe(final.get(key));

    await killApi(api, 'SIGTERM');
  });
});
