import { AppError, invalidField } from '../../errors.ts';
import { scanProblemText } from '../../i18n/scans.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import { addDays } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { prefixedId } from '../ids.ts';
import type { OrderWithEvents } from '../orders/order.ts';
import type { OrderService } from '../orders/order-service.ts';
import { AlreadyWritten, type OrderStore } from '../orders/ports.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { PickupService } from '../pickups/pickup-service.ts';
import type { Pickup, PickupStore } from '../pickups/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type {
  DoorAttempt,
  ProofKeys,
  RoundOf,
  Scan,
  ScanActor,
  ScanContext,
  ScanObserver,
  ScanProblem,
  ScanResult,
  ScanRow,
  ScanStore,
} from './ports.ts';
import { checkScans, trackingRefOfCode } from './scan-input.ts';

/** A scan older than this is not applied (refused `too_old`): a queue that old needs a person. */
const MAX_SCAN_AGE_MS = 7 * 24 * 3600 * 1000;

/** What each context moves the order to (SPEC §10); the door's is its outcome. */
const MEANING: Record<Exclude<ScanContext, 'door'>, OrderStatus> = {
  pickup: 'picked_up',
  hub: 'in_transit',
  loading: 'out_for_delivery',
};

const NOTES: Record<ScanContext, string> = {
  pickup: 'Scanned at the pickup',
  hub: 'Scanned at the hub',
  loading: 'Loaded for delivery',
  door: 'Scanned at the door',
};

/** The courier's scans applied to the orders (SPEC §10, decision 0006). No HTTP here. */
export interface ScanService {
  /**
   * Applies the scans in the order they happened (by `happened_at`, then as given), each once: a
   * known scan id answers its stored result. One result per scan, in the order given. A malformed
   * request (400 naming `scans[i].field`) writes nothing. `proofKeys`: the stored files of a
   * delivery (domain/proofs), given with that one scan only.
   */
  apply(actor: ScanActor, scans: unknown, proofKeys?: ProofKeys): Promise<ScanResult[]>;
  /**
   * Closes the pickup with the parcels scanned there (`pickupService.close`): a courier only one
   * on a round that has the pickup as a stop.
   */
  closePickup(actor: ScanActor, pickupId: string): Promise<Pickup>;
}

/** The day of the scan in Paris (a phone ahead of the server's clock: today). */
const scanDay = (scan: Scan, now: Date): string =>
  parisToday(scan.happenedAt.getTime() > now.getTime() ? now : scan.happenedAt);

/**
 * The days (Paris) whose rounds a scan is checked against: from the day it happened to today. A
 * scan dated in the past is refused whatever a scan dated now would be (the parcel on another
 * courier's round today), and whatever it would have been then; and the history's time, clamped
 * to the order's last event, falls within these days. Empty for a scan too old to be applied.
 */
function roundDays(scan: Scan, now: Date): string[] {
  if (now.getTime() - scan.happenedAt.getTime() > MAX_SCAN_AGE_MS) return [];
  const today = parisToday(now);
  const days = [scanDay(scan, now)];
  while (days.at(-1)! < today) days.push(addDays(days.at(-1)!, 1));
  return days;
}

/** Parcels of one request applied side by side (each holds a pooled connection while it moves). */
const PARCELS_AT_ONCE = 8;

export function scanService(deps: {
  stores: {
    scans: ScanStore;
    audit: Pick<AuditStore, 'withMove'>;
    orders: Pick<OrderStore, 'findByRef' | 'findByRefs'>;
    pickups: Pick<PickupStore, 'orders'>;
  };
  orders: Pick<OrderService, 'moveByCourier'>;
  pickups: Pick<PickupService, 'close'>;
  clock: Clock;
  observer?: ScanObserver;
  /**
   * The proof members (`proof_of_delivery`, `failed_attempt`) a door scan's webhook carries, from
   * the order's earlier attempts and this one (domain/proofs signs their 7-day URLs).
   */
  doorEventMembers?: (orderId: number, attempt: DoorAttempt) => Promise<Record<string, unknown>>;
  /**
   * A parcel delivered where the phone was (its proof's location): its address learns the point
   * (domain/places), for the next orders to it. Its failure never fails the scan.
   */
  learnPlace?: (order: OrderWithEvents, point: { latitude: number; longitude: number }) => Promise<unknown>;
  /**
   * The loading and door scans applied by a request (the order's row id, when), once they all are:
   * their rounds' arrival times are estimated again (domain/arrivals). Its failure never fails a scan.
   */
  progressed?: (scans: ReadonlyArray<{ orderId: string; at: Date }>) => Promise<unknown>;
}): ScanService {
  const { scans, orders } = deps.stores;

  async function stored(id: string): Promise<ScanResult> {
    const [result] = await scans.results([id]);
    if (!result) throw new Error(`scan ${id} was recorded but cannot be read back`);
    return result;
  }

  /** Refuses the scan: its own row, nothing else. */
  async function refuse(
    actor: ScanActor,
    scan: Scan,
    order: OrderWithEvents | null,
    roundId: string | null,
    code: ScanProblem,
  ): Promise<ScanResult> {
    const message = scanProblemText(actor.locale, code, {
      code: scan.code.slice(0, 40),
      ref: order?.trackingRef ?? '',
      status: order?.status ?? '',
      at: scan.happenedAt.toISOString(),
    });
    const row: ScanRow = {
      ...rowOf(actor, scan, order, roundId),
      result: 'refused',
      statusAfter: order?.status ?? null,
      problem: code,
      message,
    };
    if (!(await scans.record(row))) return stored(scan.id);
    return {
      id: scan.id,
      result: 'refused',
      tracking_ref: order?.trackingRef ?? null,
      status: order?.status ?? null,
      problem: { code, message },
    };
  }

  function rowOf(actor: ScanActor, scan: Scan, order: OrderWithEvents | null, roundId: string | null) {
    return {
      id: scan.id,
      courierId: actor.courierId,
      roundId,
      context: scan.context,
      code: scan.code,
      orderId: order?.id ?? null,
      outcome: scan.outcome,
      reason: scan.reason,
      happenedAt: scan.happenedAt,
    };
  }

  async function applyOne(
    actor: ScanActor,
    scan: Scan,
    rounds: Map<string, RoundOf>,
    pickups: Set<string>,
    /** The order as the request's one lookup read it (its first scan only: the others read it afresh). */
    prefetched: OrderWithEvents | undefined,
    /** The request's time: the days whose rounds were read for it. */
    now: Date,
    /** The loading and door scans applied (a round's progress), collected for `progressed`. */
    progress: Array<{ orderId: string; at: Date }>,
  ): Promise<ScanResult> {
    const ref = trackingRefOfCode(scan.code);
    let order = prefetched ?? (ref ? await orders.findByRef(ref, null) : null);
    if (!order) return refuse(actor, scan, null, null, 'unknown_code');
    // A test order's label is a specimen: scanning it moves nothing, wherever it is scanned.
    if (!order.livemode) return refuse(actor, scan, order, null, 'test_order');
    if (now.getTime() - scan.happenedAt.getTime() > MAX_SCAN_AGE_MS)
      return refuse(actor, scan, order, null, 'too_old');
    // The parcel's rounds from the day the scan happened to today (Paris): another courier's on any
    // of them is refused, but at the hub, where every round's parcels are sorted. The scan is
    // recorded on the courier's own round, the earliest of those days.
    const { trackingRef } = order;
    const onRounds = actor.courierId
      ? roundDays(scan, now).flatMap((day) => rounds.get(`${trackingRef}|${day}`) ?? [])
      : [];
    const roundId = onRounds.find((r) => r.courierId === actor.courierId)?.roundId ?? null;
    if (onRounds.some((r) => r.courierId && r.courierId !== actor.courierId) && scan.context !== 'hub')
      return refuse(actor, scan, order, null, 'wrong_round');
    const target: OrderStatus = scan.context === 'door' ? scan.outcome! : MEANING[scan.context];
    if (scan.outcome === 'delivered' && !scan.photoKey && !scan.signatureKey && !scan.receivedBy)
      return refuse(actor, scan, order, roundId, 'proof_required');

    for (let attempt = 0; attempt < 3; attempt++) {
      if (order.status === 'cancelled') return refuse(actor, scan, order, roundId, 'order_cancelled');
      if (order.status === 'delivered') return refuse(actor, scan, order, roundId, 'already_delivered');
      // The same parcel scanned again where it already is (a double read): applied, nothing moves.
      if (order.status === target && scan.context !== 'door') {
        const row = {
          ...rowOf(actor, scan, order, roundId),
          result: 'applied' as const,
          statusAfter: target,
        };
        if (!(await scans.record({ ...row, problem: null, message: null }))) return stored(scan.id);
        return {
          id: scan.id,
          result: 'applied',
          tracking_ref: order.trackingRef,
          status: target,
          problem: null,
        };
      }
      const moves: OrderStatus[] = [target];
      const failed = order.events.filter((e) => e.status === 'failed_attempt').length;
      if (target === 'failed_attempt' && failed + 1 >= 3) moves.push('returned');
      const current: OrderWithEvents = order;
      let moved: OrderWithEvents | null;
      const attemptId = prefixedId('att');
      const doorEventMembers = deps.doorEventMembers;
      try {
        moved = await deps.orders.moveByCourier(current, moves, {
          statusEventMembers:
            scan.context === 'door' && doorEventMembers
              ? async (to, at) =>
                  to === target
                    ? doorEventMembers(current.id, {
                        id: attemptId,
                        outcome: scan.outcome!,
                        reason: scan.reason,
                        happenedAt: at,
                        receivedBy: scan.receivedBy,
                        latitude: scan.location?.latitude ?? null,
                        longitude: scan.location?.longitude ?? null,
                        photoKey: scan.photoKey,
                        signatureKey: scan.signatureKey,
                      })
                    : {}
              : undefined,
          at: scan.happenedAt,
          note: scan.reason ? `${NOTES[scan.context]}: ${scan.reason}` : NOTES[scan.context],
          // The scan's row (and the door's attempt, and the audit trail's entry) written by the
          // move's own statement: a replay racing this one finds the order moved, or the scan's id
          // taken (AlreadyWritten).
          withMove: (at) => [
            deps.stores.audit.withMove({
              action: 'scan.recorded',
              by: actor.by,
              object: { type: 'scan', id: scan.id },
              brandId: current.brandId,
              orderRefs: [current.trackingRef],
              changes: { status: { before: current.status, after: moves.at(-1)! } },
              details: {
                context: scan.context,
                outcome: scan.outcome,
                reason: scan.reason,
                courier_id: actor.courierId,
                round_id: roundId,
                happened_at: scan.happenedAt.toISOString(),
              },
            }),
            scans.scanWithMove({
              ...rowOf(actor, scan, current, roundId),
              result: 'applied',
              statusAfter: moves.at(-1)!,
              problem: null,
              message: null,
            }),
            ...(scan.context === 'door'
              ? [
                  scans.attemptWithMove({
                    id: attemptId,
                    orderId: current.id,
                    scanId: scan.id,
                    courierId: actor.courierId,
                    outcome: scan.outcome!,
                    reason: scan.reason,
                    // The history's time: the phone's, clamped as the order's event was.
                    happenedAt: at,
                    receivedBy: scan.receivedBy,
                    location: scan.location,
                    photoKey: scan.photoKey,
                    signatureKey: scan.signatureKey,
                  }),
                ]
              : []),
          ],
        });
      } catch (err) {
        if (err instanceof AlreadyWritten) return stored(scan.id);
        if (err instanceof AppError && err.code === 'invalid_transition')
          return refuse(actor, scan, current, roundId, 'invalid_transition');
        throw err;
      }
      if (moved) {
        if (scan.context === 'pickup' && moved.pickupId) pickups.add(moved.pickupId);
        if (scan.context === 'loading' || scan.context === 'door')
          progress.push({ orderId: String(moved.id), at: scan.happenedAt });
        if (moved.status === 'delivered' && scan.location && deps.learnPlace)
          await deps.learnPlace(moved, scan.location).catch(() => {});
        return {
          id: scan.id,
          result: 'applied',
          tracking_ref: moved.trackingRef,
          status: moved.status,
          problem: null,
        };
      }
      // Another change came first: decide again on the order as it is now.
      order = (await orders.findByRef(current.trackingRef, null)) ?? current;
    }
    return refuse(actor, scan, order, roundId, 'invalid_transition');
  }

  /** Closes each pickup whose parcels are all scanned now; one not due yet stays planned (closed later). */
  async function closeCompletedPickups(pickupIds: Iterable<string>, by: Author): Promise<void> {
    for (const id of pickupIds) {
      const inPickup = await deps.stores.pickups.orders(id);
      if (inPickup.length === 0 || inPickup.some((o) => o.status === 'pending')) continue;
      try {
        await deps.pickups.close(id, await scans.pickupScannedRefs(id), by);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // pickup_not_due (before 12:00 that day), pickup_closed (closed meanwhile): as it is.
      }
    }
  }

  return {
    async apply(actor, input, proofKeys) {
      const checked = checkScans(input, proofKeys ?? null);
      if (actor.courierId && !(await scans.courierExists(actor.courierId)))
        throw invalidField('courier_id', 'names no courier');
      const results = new Map<string, ScanResult>();
      for (const known of await scans.results(checked.map((s) => s.id))) results.set(known.id, known);
      // In the order they happened; the sort is stable, so equal times keep the request's order.
      const order = checked
        .map((scan, i) => ({ scan, i }))
        .sort((a, b) => a.scan.happenedAt.getTime() - b.scan.happenedAt.getTime() || a.i - b.i);
      const now = deps.clock();
      const asked = checked.flatMap((scan) => {
        const ref = results.has(scan.id) ? null : trackingRefOfCode(scan.code);
        return ref ? [{ ref, days: roundDays(scan, now) }] : [];
      });
      const rounds = actor.courierId
        ? await scans.roundsOf([
            ...new Map(
              asked.flatMap(({ ref, days }) => days.map((day) => [`${ref}|${day}`, { ref, day }] as const)),
            ).values(),
          ])
        : new Map<string, RoundOf>();
      // Every parcel of the request read at once; a parcel scanned twice in it reads its order
      // afresh for the second (moved by the first).
      const prefetched = await orders.findByRefs([...new Set(asked.map((a) => a.ref))]);
      const pickups = new Set<string>();
      // Each parcel's scans in the order they happened; different parcels side by side (a few at a
      // time): their changes touch different rows, and a batch is mostly many parcels scanned once.
      const byParcel = new Map<string, Scan[]>();
      for (const { scan } of order) {
        if (results.has(scan.id)) continue;
        const key = trackingRefOfCode(scan.code) ?? `?${scan.id}`;
        const list = byParcel.get(key);
        if (list) list.push(scan);
        else byParcel.set(key, [scan]);
      }
      const queue = [...byParcel.values()];
      const progress: Array<{ orderId: string; at: Date }> = [];
      const lane = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          for (const scan of next) {
            const ref = trackingRefOfCode(scan.code);
            const known = ref ? prefetched.get(ref) : undefined;
            if (ref) prefetched.delete(ref);
            const result = await applyOne(actor, scan, rounds, pickups, known, now, progress);
            results.set(scan.id, result);
            deps.observer?.scanned(scan.context, result.result);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARCELS_AT_ONCE, queue.length) }, lane));
      await closeCompletedPickups(pickups, actor.by);
      if (progress.length > 0 && deps.progressed) await deps.progressed(progress).catch(() => {});
      return checked.map((scan) => results.get(scan.id)!);
    },

    async closePickup(actor, pickupId) {
      if (!/^pck_[0-9a-f]{16}$/.test(pickupId))
        throw new AppError('not_found', `No pickup with id "${pickupId}".`);
      // A courier closes only a pickup of its own rounds; to another, it does not exist.
      if (actor.courierId && !(await scans.courierHasPickup(actor.courierId, pickupId)))
        throw new AppError('not_found', `No pickup with id "${pickupId}".`);
      return deps.pickups.close(pickupId, await scans.pickupScannedRefs(pickupId), actor.by);
    },
  };
}
