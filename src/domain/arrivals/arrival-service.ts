import { AppError, type ErrorDetail } from '../../errors.ts';
import type { Outbox, OutboxEvent } from '../../events/outbox.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { PROFILE_OF_KIND } from '../fleet/fleet.ts';
import { type OrderLinks, orderJson } from '../orders/order-json.ts';
import type { OrderStore } from '../orders/ports.ts';
import { distanceMetres, type GeoPoint, roundCoordinate } from '../places/location.ts';
import type { TravelTimes } from '../places/ports.ts';
import type { VehicleProfile } from '../places/vehicles.ts';
import type { Clock } from '../shared/clock.ts';
import { nextWindow } from './arrival-window.ts';
import type { ArrivalStore, RoundFacts, StoredArrival } from './ports.ts';
import { estimateArrivals, type Leg } from './schedule.ts';

/** How often a courier's phone may give its position, and how long positions are kept. */
const POSITION_EVERY_MS = 60 * 1000;
const POSITIONS_KEPT_MS = 48 * 60 * 60 * 1000;
/** A position dated more than this from the server's clock is refused (a phone's clock gone wrong). */
const POSITION_CLOCK_SKEW_MS = 10 * 60 * 1000;

/** An order's arrival as the recipient's page and messages give it. */
interface ArrivalJson {
  eta: string;
  window_start: string;
  window_end: string;
  stops_before: number;
}

/** Why a position was not kept (the app stops sending for a while, nothing is wrong). */
type PositionRefusal = 'not_sharing' | 'no_round_in_progress' | 'too_soon';

/**
 * Arrival times (SPEC §11, docs/arrival-times.md): each delivery of a round that has left gets an
 * estimated arrival and a two-hour window, re-estimated at each loading and door scan of the round
 * and at each position the courier shares. A window moved by 30 minutes or more is told as
 * `order.eta_changed`.
 */
export interface ArrivalTimes {
  /** Re-estimates the rounds of the orders whose loading or door scans were applied (ids, when). */
  afterScans(scans: ReadonlyArray<{ orderId: string; at: Date }>): Promise<void>;
  /** Estimates the round's deliveries still to do; returns how many were estimated. */
  estimateRound(roundId: string): Promise<number>;
  /**
   * The order's arrival on today's round (Paris), estimated now if its round has left and it has
   * none yet (`estimate: false`: read only); null when it is on no round today or its round has not left.
   */
  arrivalOf(orderId: string | number, options?: { estimate?: boolean }): Promise<StoredArrival | null>;
  /** The estimated arrivals (RFC 3339) of these orders still out for delivery on today's rounds. */
  etasOf(trackingRefs: readonly string[]): Promise<Map<string, string>>;
  /** Metres between the points for `profile` (default: ARRIVAL_VEHICLE); by road with a router, else estimated. */
  distances(points: readonly GeoPoint[], profile?: VehicleProfile): Promise<number[][]>;
  /** Whether the courier shares their position during rounds, since when. */
  sharing(courierId: string): Promise<{ sharing: boolean; since: string | null }>;
  setSharing(courierId: string, sharing: boolean): Promise<{ sharing: boolean; since: string | null }>;
  /**
   * A position from the courier's phone (`{latitude, longitude, accuracy?, recorded_at?}`): kept
   * only while they share it and a round of theirs is in progress, at most one a minute; their round
   * is then re-estimated. A malformed one is a 400 naming the field.
   */
  recordPosition(
    courierId: string,
    input: unknown,
  ): Promise<{ accepted: true } | { accepted: false; reason: PositionRefusal }>;
  /** Drops the positions older than 48 hours (the purge job); returns how many. */
  purgePositions(): Promise<number>;
}

export interface ArrivalTimesDeps {
  store: ArrivalStore;
  orders: Pick<OrderStore, 'findByRefs'>;
  travelTimes: TravelTimes;
  outbox: Pick<Outbox, 'event'>;
  links: OrderLinks;
  clock: Clock;
  settings: {
    /** Seconds at each stop (ARRIVAL_SERVICE_SECONDS). */
    serviceSeconds: number;
    /** Where rounds leave from (ARRIVAL_HUB), null: unknown. */
    hub: GeoPoint | null;
    /** The vehicle rounds are estimated for (ARRIVAL_VEHICLE). */
    vehicle: VehicleProfile;
  };
  /** An estimate that failed (logged by the caller's logger): a scan never fails for it. */
  onError?: (err: unknown, roundId: string) => void;
}

const iso = (d: Date) => d.toISOString();

function parsePosition(input: unknown): { point: GeoPoint; accuracyM: number | null; at: Date | null } {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  const coordinate = (field: string, bound: number) => {
    const v = body[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < -bound || v > bound) {
      details.push({
        field,
        message: `must be a number from -${bound} to ${bound} (WGS 84 decimal degrees)`,
      });
      return 0;
    }
    return roundCoordinate(v);
  };
  const lat = coordinate('latitude', 90);
  const lng = coordinate('longitude', 180);
  let accuracyM: number | null = null;
  if (body.accuracy !== undefined && body.accuracy !== null) {
    if (typeof body.accuracy !== 'number' || !Number.isFinite(body.accuracy) || body.accuracy < 0)
      details.push({ field: 'accuracy', message: 'must be a number of metres, 0 or more' });
    else accuracyM = Math.min(1_000_000, Math.round(body.accuracy));
  }
  let at: Date | null = null;
  if (body.recorded_at !== undefined) {
    const parsed = typeof body.recorded_at === 'string' ? new Date(body.recorded_at) : null;
    if (!parsed || Number.isNaN(parsed.getTime()))
      details.push({ field: 'recorded_at', message: 'must be a date-time (RFC 3339)' });
    else at = parsed;
  }
  for (const key of Object.keys(body))
    if (!['latitude', 'longitude', 'accuracy', 'recorded_at'].includes(key))
      details.push({ field: key, message: 'is not a member of a position' });
  if (details.length > 0)
    throw new AppError('invalid_request', `${details[0]!.field}: ${details[0]!.message}`, details);
  return { point: { lat, lng }, accuracyM, at };
}

export function arrivalTimes(deps: ArrivalTimesDeps): ArrivalTimes {
  const { store, settings } = deps;

  /**
   * Where the round starts and how it moves: a planned round's own hub and vehicle (a cargo bike is
   * timed as a cargo bike, from the hub it loads at), else the settings' (ARRIVAL_HUB,
   * ARRIVAL_VEHICLE) for a round made by sort code or by hand.
   */
  const originOf = (facts: RoundFacts): { hub: GeoPoint | null; profile: VehicleProfile } => ({
    hub: facts.hub ?? settings.hub,
    profile: facts.vehicleKind ? PROFILE_OF_KIND[facts.vehicleKind] : settings.vehicle,
  });

  /** The round's legs: one matrix over its points (hub, stops, position), read by point. */
  async function legOf(facts: RoundFacts): Promise<Leg> {
    const { hub, profile } = originOf(facts);
    const points: GeoPoint[] = [];
    const index = new Map<string, number>();
    const add = (p: GeoPoint | null) => {
      if (!p) return;
      const key = `${p.lat},${p.lng}`;
      if (!index.has(key)) {
        index.set(key, points.length);
        points.push(p);
      }
    };
    add(hub);
    for (const s of facts.stops) add(s.point);
    add(facts.position?.point ?? null);
    const matrix = points.length > 1 ? await deps.travelTimes.matrix(points, profile) : null;
    return (from, to) => {
      const i = index.get(`${from.lat},${from.lng}`);
      const j = index.get(`${to.lat},${to.lng}`);
      const seconds = i !== undefined && j !== undefined ? matrix?.durations[i]?.[j] : undefined;
      // A point outside the matrix (none): the crow's distance at a walker's pace, never nothing.
      return seconds ?? distanceMetres(from, to) / 1.25;
    };
  }

  async function estimate(roundId: string): Promise<number> {
    const facts = await store.roundFacts(roundId);
    if (!facts?.departure) return 0;
    const departure = facts.departure;
    const stops = facts.stops.map((s) => ({
      orderId: s.orderId,
      point: s.point,
      // A stop finished otherwise (cancelled, returned) is not to do either.
      doneAt: s.doneAt ?? (s.finished ? departure : null),
    }));
    const leg = await legOf(facts);
    const estimates = estimateArrivals(
      {
        departure,
        hub: originOf(facts).hub,
        stops,
        position: facts.position,
        serviceSeconds: settings.serviceSeconds,
      },
      leg,
    );
    if (estimates.length === 0) return 0;
    const now = deps.clock();
    const stored = await store.find(estimates.map((e) => e.orderId));
    const byId = new Map(facts.stops.map((s) => [s.orderId, s]));
    const rows: StoredArrival[] = [];
    const moved: Array<{ row: StoredArrival; before: StoredArrival }> = [];
    for (const e of estimates) {
      const before = stored.get(e.orderId);
      // A stored arrival of another round (the order moved rounds) is told afresh.
      const told =
        before && before.roundId === roundId ? { start: before.windowStart, end: before.windowEnd } : null;
      const next = nextWindow(told, e.eta, departure);
      const row: StoredArrival = {
        orderId: e.orderId,
        roundId,
        eta: e.eta,
        windowStart: next.window.start,
        windowEnd: next.window.end,
        stopsBefore: e.stopsBefore,
        announcedAt: next.moved || !told || !before ? now : before.announcedAt,
        estimatedAt: now,
      };
      rows.push(row);
      if (next.moved && before) moved.push({ row, before });
    }
    const events: Array<{ key: string; event: OutboxEvent }> = [];
    if (moved.length > 0) {
      const orders = await deps.orders.findByRefs(moved.map((m) => byId.get(m.row.orderId)!.trackingRef));
      for (const { row, before } of moved) {
        const stop = byId.get(row.orderId)!;
        const order = orders.get(stop.trackingRef);
        if (!order) continue;
        const event = await deps.outbox.event(stop.brandId, 'order.eta_changed', now, () => ({
          order: orderJson(order, deps.links),
          arrival: arrivalJson(row),
          previous_window: { start: iso(before.windowStart), end: iso(before.windowEnd) },
        }));
        if (event) events.push({ key: row.orderId, event });
      }
    }
    await store.save(rows, events);
    return rows.length;
  }

  async function estimateSafely(roundId: string): Promise<void> {
    try {
      await estimate(roundId);
    } catch (err) {
      deps.onError?.(err, roundId);
    }
  }

  const sharingJson = (since: Date | null) => ({ sharing: since !== null, since: since ? iso(since) : null });

  return {
    async afterScans(scans) {
      const byDay = new Map<string, Set<string>>();
      for (const { orderId, at } of scans) {
        const day = parisToday(at);
        byDay.set(day, (byDay.get(day) ?? new Set()).add(orderId));
      }
      for (const [day, ids] of byDay) {
        let rounds: string[];
        try {
          rounds = await store.roundsOfOrders([...ids], day);
        } catch (err) {
          deps.onError?.(err, `(rounds of ${day})`);
          continue;
        }
        for (const roundId of rounds) await estimateSafely(roundId);
      }
    },

    estimateRound: estimate,

    async arrivalOf(orderId, options = {}) {
      const id = String(orderId);
      // Only today's round counts: yesterday's arrival of a parcel that failed is no promise today.
      const rounds = await store.roundsOfOrders([id], parisToday(deps.clock()));
      if (rounds.length === 0) return null;
      const current = async () => {
        const found = (await store.find([id])).get(id);
        return found && rounds.includes(found.roundId) ? found : null;
      };
      const found = await current();
      if (found || options.estimate === false) return found;
      for (const roundId of rounds) await estimate(roundId);
      return current();
    },

    async etasOf(trackingRefs) {
      const etas = await store.etasOfRefs(trackingRefs, parisToday(deps.clock()));
      return new Map([...etas].map(([ref, eta]) => [ref, iso(eta)]));
    },

    async distances(points, profile) {
      return (await deps.travelTimes.matrix(points, profile ?? settings.vehicle)).distances;
    },

    async sharing(courierId) {
      return sharingJson(await store.sharingSince(courierId));
    },

    async setSharing(courierId, sharing) {
      const current = await store.sharingSince(courierId);
      if (sharing && current) return sharingJson(current);
      const since = sharing ? deps.clock() : null;
      await store.setSharing(courierId, since);
      // Stopping takes back what was shared: the positions go at once, not in 48 hours.
      if (!sharing) await store.forgetPositions(courierId);
      return sharingJson(since);
    },

    async recordPosition(courierId, input) {
      const { point, accuracyM, at: given } = parsePosition(input);
      const now = deps.clock();
      const at = given ?? now;
      if (Math.abs(at.getTime() - now.getTime()) > POSITION_CLOCK_SKEW_MS)
        throw new AppError('invalid_request', 'recorded_at: must be within 10 minutes of now', [
          { field: 'recorded_at', message: 'must be within 10 minutes of now' },
        ]);
      if (!(await store.sharingSince(courierId))) return { accepted: false, reason: 'not_sharing' };
      const roundId = await store.roundInProgress(courierId, parisToday(at));
      if (!roundId) return { accepted: false, reason: 'no_round_in_progress' };
      const last = await store.lastPositionAt(courierId);
      if (last && Math.abs(at.getTime() - last.getTime()) < POSITION_EVERY_MS)
        return { accepted: false, reason: 'too_soon' };
      if (!(await store.recordPosition({ courierId, roundId, point, accuracyM, at })))
        return { accepted: false, reason: 'too_soon' };
      await estimateSafely(roundId);
      return { accepted: true };
    },

    async purgePositions() {
      return store.purgePositions(new Date(deps.clock().getTime() - POSITIONS_KEPT_MS), 10_000);
    },
  };
}

/** What the recipient and the brand see of an arrival: never a position, never another stop. */
function arrivalJson(a: StoredArrival): ArrivalJson {
  return {
    eta: iso(a.eta),
    window_start: iso(a.windowStart),
    window_end: iso(a.windowEnd),
    stops_before: a.stopsBefore,
  };
}
