import type { Clock } from '../shared/clock.ts';
import {
  applyEndpointChanges,
  eventBodyOf,
  type FinishedAttempt,
  finishAttempt,
  sendAttempt,
} from './delivery-attempt.ts';
import { reportFinished } from './delivery-observer.ts';
import { type BreakerPolicy, endpointBreakers } from './endpoint-breaker.ts';
import type { DeliveryAttemptResult, SendWebhookInput } from './outbound.ts';
import type { ClaimedDelivery, DeliveryObserver, WebhookDeliveryStore } from './ports.ts';

export interface DispatcherOptions {
  /** Attempts in flight to one endpoint from this process (WEBHOOKS_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Deliveries claimed by this process at once, queued or in flight, all endpoints (WEBHOOKS_MAX_IN_FLIGHT). */
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
/** An endpoint answering faster than this on average gets PREFETCH times its limit claimed ahead. */
const FAST_ENDPOINT_MS = 100;
/**
 * 8: fewer, larger claims (eight fast endpoints fill WEBHOOKS_MAX_IN_FLIGHT's 256). Against 4, a
 * backlog drained 4–14 % faster in five interleaved pairs of six, with less CPU per delivery in
 * the worker and in PostgreSQL; 16 was slower than 4.
 */
const PREFETCH = 8;

/** One endpoint's deliveries in this process: claimed and waiting for room, and being sent. */
interface Lane {
  /** `body`: the event's bytes, built once for all its deliveries claimed together. */
  queued: { delivery: ClaimedDelivery; claimedAt: number; body: string }[];
  sending: number;
}

/** Endpoints whose answer times are remembered (a moving average each); beyond, forgotten and learnt again. */
const REMEMBERED_ENDPOINTS = 10_000;
/** Most outcomes written by one statement. */
const SETTLE_BATCH = 500;

/**
 * The delivery loop. It claims due deliveries in one short statement (a lease each, no transaction
 * left open) and sends them — never more than `perEndpoint` at once to one endpoint, none to an
 * endpoint whose circuit is open — and writes the outcomes in batches. For an endpoint that answers
 * fast (under 100 ms on average) it claims a few times its limit ahead, so the next claim's round
 * trip overlaps with the sends; a delivery that waited here too long for its lease to cover a send
 * is given back. An open circuit gives back what waits. A slow or failing receiver thus fills only its own few slots: its other deliveries wait
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
  /** Told each attempt's outcome (the metrics); none by default. */
  observer?: DeliveryObserver;
}): WebhookDispatcher {
  const { store, clock, options } = deps;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = leaseFor(timeoutMs);
  const log = options.log ?? (() => {});
  const breakers = endpointBreakers(options.breaker);
  /** A claimed delivery may still start this long after its claim; later, its lease could lapse mid-send. */
  const startWithinMs = leaseMs - timeoutMs - 5000;
  const lanes = new Map<string, Lane>();
  /** Moving average of each endpoint's attempt durations (ms). */
  const speeds = new Map<string, number>();
  /** Claimed and not finished (queued or sending), all endpoints. */
  let held = 0;
  let running = false;
  let claiming = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let lastClaimWarning = 0;
  const attempts = new Set<Promise<void>>();

  const laneOf = (endpointId: string): Lane => {
    let lane = lanes.get(endpointId);
    if (!lane) {
      lane = { queued: [], sending: 0 };
      lanes.set(endpointId, lane);
    }
    return lane;
  };

  /**
   * How many deliveries an endpoint may hold here (queued + sending): its limit; a few times that
   * for an endpoint that answers fast, so that the next claim overlaps with the sends instead of
   * following them; 0 while its circuit is open, 1 for the probe after the pause.
   */
  function depth(endpointId: string, now: number): number {
    const allowance = breakers.allowance(endpointId, now);
    if (allowance !== null) return Math.min(allowance, options.perEndpoint);
    const fast = (speeds.get(endpointId) ?? Number.POSITIVE_INFINITY) < FAST_ENDPOINT_MS;
    return fast ? options.perEndpoint * PREFETCH : options.perEndpoint;
  }

  /** Endpoints with another room than the claim's default: busy or fast here, or their circuit not closed. */
  function rooms(now: number) {
    const ids = new Set([...lanes.keys(), ...speeds.keys(), ...breakers.tracked()]);
    return [...ids].flatMap((endpointId) => {
      const lane = lanes.get(endpointId);
      const room = Math.max(0, depth(endpointId, now) - (lane ? lane.queued.length + lane.sending : 0));
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
        const limit = options.maxInFlight - held;
        if (limit <= 0) break;
        const claimed = await store.claim({
          at: clock(),
          leaseMs,
          perEndpoint: options.perEndpoint,
          rooms: rooms(Date.now()),
          limit,
        });
        const claimedAt = Date.now();
        const bodies = new Map<string, string>();
        for (const delivery of claimed) {
          held += 1;
          let body = bodies.get(delivery.event.id);
          if (body === undefined) {
            body = eventBodyOf(delivery);
            bodies.set(delivery.event.id, body);
          }
          laneOf(delivery.endpoint.id).queued.push({ delivery, claimedAt, body });
        }
        for (const endpointId of new Set(claimed.map((d) => d.endpoint.id))) pump(endpointId);
      } while (again && running);
    } catch (err) {
      // Polled every second: while the database is away, said once a minute, not every second.
      if (Date.now() - lastClaimWarning >= 60_000) {
        lastClaimWarning = Date.now();
        log('warn', `could not claim webhook deliveries: ${(err as Error).message}`);
      }
    } finally {
      claiming = false;
    }
  }

  /** Starts the endpoint's queued deliveries while it has room. */
  function pump(endpointId: string): void {
    const lane = lanes.get(endpointId);
    if (!lane) return;
    const now = Date.now();
    const allowance = breakers.allowance(endpointId, now);
    const limit = Math.min(options.perEndpoint, allowance ?? options.perEndpoint);
    while (lane.queued.length > 0 && lane.sending < limit) {
      const { delivery, claimedAt, body } = lane.queued.shift()!;
      if (now - claimedAt > startWithinMs) {
        giveBack(delivery);
        continue;
      }
      send(lane, delivery, body);
    }
    // An open circuit: what waits here goes back to the table, for any worker once it closes.
    if (allowance === 0) for (const { delivery } of lane.queued.splice(0)) giveBack(delivery);
    if (lane.queued.length === 0 && lane.sending === 0 && breakers.allowance(endpointId, now) === null)
      lanes.delete(endpointId);
  }

  function giveBack(delivery: ClaimedDelivery): void {
    held -= 1;
    void store
      .release(delivery.id, delivery.leaseToken)
      .catch((err: Error) =>
        log('warn', `could not give back webhook delivery ${delivery.id}: ${err.message}`),
      );
  }

  function send(lane: Lane, delivery: ClaimedDelivery, body: string): void {
    const endpointId = delivery.endpoint.id;
    lane.sending += 1;
    const attempt = (async () => {
      const startedAt = clock();
      const result =
        delivery.endpoint.status === 'active'
          ? await sendAttempt(delivery, startedAt, deps.send, timeoutMs, body)
          : null;
      const finished = finishAttempt(delivery, result, startedAt, clock());
      reportFinished(deps.observer, delivery.event.createdAt, finished);
      if (result) {
        const average = speeds.get(endpointId);
        if (average === undefined && speeds.size >= REMEMBERED_ENDPOINTS) speeds.clear();
        speeds.set(
          endpointId,
          average === undefined ? result.durationMs : average * 0.8 + result.durationMs * 0.2,
        );
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
        lane.sending -= 1;
        held -= 1;
        attempts.delete(attempt);
        pump(endpointId);
        // Another claim only once this endpoint's queue here runs low (or this process holds little):
        // claiming after every attempt cost a statement and a walk of the endpoints for a few rows.
        if (lane.queued.length < options.perEndpoint || held < options.maxInFlight / 4) void claimDue();
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
    inFlight: () =>
      new Map([...lanes].flatMap(([id, lane]) => (lane.sending > 0 ? [[id, lane.sending] as const] : []))),
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
