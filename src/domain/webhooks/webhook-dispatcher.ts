import type { Clock } from '../shared/clock.ts';
import {
  applyEndpointChanges,
  type FinishedAttempt,
  finishAttempt,
  sendAttempt,
} from './delivery-attempt.ts';
import { type BreakerPolicy, endpointBreakers } from './endpoint-breaker.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from './outbound.ts';
import type { ClaimedDelivery, WebhookDeliveryStore } from './ports.ts';

export interface DispatcherOptions {
  /** Attempts in flight to one endpoint from this process (WEBHOOKS_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Attempts in flight from this process in all (WEBHOOKS_MAX_IN_FLIGHT). */
  maxInFlight: number;
  breaker: BreakerPolicy;
  /** How often an idle dispatcher looks for due deliveries (retries, replays, expired leases). */
  pollMs?: number;
  /** Per attempt; SPEC §8's 15 s unless a test wants less. */
  timeoutMs?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
}

/** Sends due webhook deliveries from this process; started with the job runner. */
export interface WebhookDispatcher {
  start(): void;
  /** Look for due deliveries now (fan-out made some). */
  wake(): void;
  /** Stops claiming; waits (up to `graceMs`) for the attempts in flight and their records. */
  stop(graceMs?: number): Promise<void>;
  /** Attempts in flight now, by endpoint (for tests and metrics). */
  inFlight(): ReadonlyMap<string, number>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Most outcomes written by one statement. */
const SETTLE_BATCH = 500;

/**
 * The delivery loop. It claims due deliveries in one short statement (a lease each, no transaction
 * left open), starts their HTTP attempts at once — never more than `perEndpoint` to one endpoint nor
 * `maxInFlight` in all, none to an endpoint whose circuit is open — and writes the outcomes in
 * batches. A slow or failing receiver thus fills only its own few slots: its other deliveries wait
 * in the table, claimed by nobody, and every other endpoint's go on. A finished attempt makes room
 * and triggers the next claim; an idle dispatcher polls every `pollMs`.
 *
 * The lease is the attempt's timeout plus a margin: a process killed mid-send leaves leases that
 * run out, and any worker claims those deliveries again (with the same webhook-id): at least once.
 */
export function webhookDispatcher(deps: {
  store: WebhookDeliveryStore;
  clock: Clock;
  send: (input: SendWebhookInput) => Promise<DeliveryAttemptResult>;
  options: DispatcherOptions;
}): WebhookDispatcher {
  const { store, clock, options } = deps;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = leaseFor(timeoutMs);
  const log = options.log ?? (() => {});
  const breakers = endpointBreakers(options.breaker);
  const perEndpoint = new Map<string, number>();
  let inFlight = 0;
  let running = false;
  let claiming = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const attempts = new Set<Promise<void>>();

  /** Endpoints with less room than the default: busy here, or their circuit not closed. */
  function rooms(now: number) {
    const ids = new Set([...perEndpoint.keys(), ...breakers.tracked()]);
    return [...ids].flatMap((endpointId) => {
      const allowed = Math.min(
        options.perEndpoint,
        breakers.allowance(endpointId, now) ?? options.perEndpoint,
      );
      const room = Math.max(0, allowed - (perEndpoint.get(endpointId) ?? 0));
      return room === options.perEndpoint ? [] : [{ endpointId, room }];
    });
  }

  async function claimDue(): Promise<void> {
    if (!running) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        const limit = options.maxInFlight - inFlight;
        if (limit <= 0) break;
        const at = clock();
        const claimed = await store.claim({
          at,
          leaseMs,
          perEndpoint: options.perEndpoint,
          rooms: rooms(Date.now()),
          limit,
        });
        for (const delivery of claimed) start(delivery);
      } while (again && running);
    } catch (err) {
      log('warn', `could not claim webhook deliveries: ${(err as Error).message}`);
    } finally {
      claiming = false;
    }
  }

  function start(delivery: ClaimedDelivery): void {
    const endpointId = delivery.endpoint.id;
    inFlight += 1;
    perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    const attempt = (async () => {
      const startedAt = clock();
      const result =
        delivery.endpoint.status === 'active'
          ? await sendAttempt(delivery, startedAt, deps.send, timeoutMs)
          : null;
      const finished = finishAttempt(delivery, result, startedAt, clock());
      if (result) {
        const change = breakers.record(endpointId, result.ok, Date.now());
        if (change === 'opened')
          log(
            'warn',
            `endpoint ${endpointId}: circuit open for ${options.breaker.pauseMs} ms after failures`,
          );
        if (change === 'closed') log('info', `endpoint ${endpointId}: circuit closed`);
      }
      settler.add(finished);
    })()
      .catch((err: Error) => log('warn', `webhook delivery ${delivery.id}: ${err.message}`))
      .finally(() => {
        inFlight -= 1;
        const left = (perEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) perEndpoint.set(endpointId, left);
        else perEndpoint.delete(endpointId);
        attempts.delete(attempt);
        void claimDue();
      });
    attempts.add(attempt);
  }

  const settler = batchedSettle(store, log);

  return {
    start() {
      if (running) return;
      running = true;
      timer = setInterval(() => void claimDue(), options.pollMs ?? 1000);
      timer.unref();
      void claimDue();
    },
    wake: () => void claimDue(),
    async stop(graceMs = 5000) {
      running = false;
      if (timer) clearInterval(timer);
      timer = null;
      // Attempts still in flight past the grace keep their leases, which run out: sent again later.
      await Promise.race([Promise.allSettled([...attempts]), sleep(graceMs)]);
      await settler.drained();
    },
    inFlight: () => perEndpoint,
  };
}

/** Outcomes written in batches: one statement for every attempt finished meanwhile. */
function batchedSettle(store: WebhookDeliveryStore, log: NonNullable<DispatcherOptions['log']>) {
  let pending: FinishedAttempt[] = [];
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.slice(0, SETTLE_BATCH);
      pending = pending.slice(batch.length);
      try {
        await store.settle(batch.map((f) => f.record));
        await applyEndpointChanges(store, batch);
      } catch (err) {
        // Their leases run out and they are sent again: at least once.
        log('warn', `could not record ${batch.length} webhook attempts: ${(err as Error).message}`);
      }
    }
  }

  function schedule(): void {
    flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(flush).finally(() => {
      flushing = null;
      if (pending.length > 0) schedule();
    });
  }

  return {
    add(finished: FinishedAttempt): void {
      pending.push(finished);
      schedule();
    },
    async drained(): Promise<void> {
      while (flushing) await flushing;
    },
  };
}

/** Long enough for the attempt and its record; short enough that a dead worker's deliveries come back soon. */
export function leaseFor(timeoutMs: number): number {
  return timeoutMs + 15_000;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
