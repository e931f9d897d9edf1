import { AppError, type ErrorDetail, invalidField } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import { changedFields } from '../audit/changes.ts';
import type { AuditEntry } from '../audit/ports.ts';
import { isIsoDate } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { extractPostcode } from '../coverage/extract-postcode.ts';
import { lookupPostcode } from '../coverage/postcodes.ts';
import type { PricingZone } from '../coverage/zones.ts';
import { minutesOf, PROFILE_OF_KIND, type Vehicle } from '../fleet/fleet.ts';
import { prefixedId } from '../ids.ts';
import { type SortCodeTable, sortCodeTable } from '../labels/sort-codes.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { DeliveryLocation, GeoPoint } from '../places/location.ts';
import { type NavigationLinks, navigationLinks } from '../places/navigation.ts';
import type { TravelTimes } from '../places/ports.ts';
import { postcodePoint } from '../places/region.ts';
import type { VehicleProfile } from '../places/vehicles.ts';
import type { RecipientChoices } from '../recipients/ports.ts';
import type { RoundOptimiser, SolveOptions } from '../routing/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import {
  buildProblem,
  type OptimisedRound,
  type PlanningPair,
  type PlanningStop,
  type PlanningVehicle,
  parisInstant,
  readSolution,
  tieSplitPickups,
  type UnplacedReason,
} from './optimised-plan.ts';
import type { StopDetail } from './ports.ts';
import {
  assignRoundRobin,
  bareStop,
  type Candidate,
  NO_PLAN,
  planDay,
  type Round,
  type StopRef,
  stopKey,
} from './round.ts';

/** Orders with nothing left to deliver (or no address to deliver to): never a new stop. */
const NOT_TO_DELIVER: ReadonlySet<OrderStatus> = new Set([
  'awaiting_address',
  'delivered',
  'returned',
  'cancelled',
]);

/** What the optimiser planned of a stop (null: not optimised) and the operator's pin. */
interface StopPlanJson {
  pinned: boolean;
  planned_arrival: string | null;
  leg_distance_m: number | null;
}

/** A stop as decision 0006 gives it (the courier's day, the operator's rounds). */
type StopJson =
  | ({
      position: number;
      kind: 'pickup';
      pickup: {
        id: string;
        brand_name: string;
        pickup_address: string;
        window: { start: string; end: string };
        status: string;
        parcels: string[];
      };
    } & StopPlanJson)
  | ({
      position: number;
      kind: 'delivery';
      order: {
        tracking_ref: string;
        status: string;
        recipient: string | null;
        address: string | null;
        postcode: string | null;
        city: string | null;
        /** Where the address is (SPEC §11): the courier's navigation, the operator's map. */
        delivery_location: DeliveryLocation | null;
        phone: string | null;
        sort_code: string;
        quantity: number;
        failed_attempts: number;
        instructions: string | null;
        safe_place: RecipientChoices['safePlace'];
      };
    } & StopPlanJson);

export interface RoundJson {
  id: string;
  date: string;
  name: string;
  courier_id: string | null;
  sort_codes: string[];
  /** Each change adds one; an edit naming an older one is refused (`round_conflict`). */
  version: number;
  vehicle_id: string | null;
  planned_distance_m: number | null;
  planned_duration_s: number | null;
  planned_by: string | null;
  driven_distance_m: number | null;
  stops: StopJson[];
}

/**
 * A delivery stop as the courier's app shows it: with the way there ("Navigate": the point, or the
 * address when only its postcode is known), the distance to the next stop, and the estimated arrival.
 */
type CourierStopJson =
  | Extract<StopJson, { kind: 'pickup' }>
  | (Extract<StopJson, { kind: 'delivery' }> & {
      navigation: NavigationLinks | null;
      /** Metres to the next delivery stop of the round (by road, or estimated); null for the last. */
      next_stop_distance_m: number | null;
      /** The estimated arrival once the round has left (docs/arrival-times.md), else null. */
      eta: string | null;
    });

/** A round as the courier's day gives it (decision 0006): theirs, so no courier nor date. */
type CourierRoundJson = Pick<RoundJson, 'id' | 'name' | 'sort_codes'> & { stops: CourierStopJson[] };

/** A stop the optimiser could not place, and why (docs/planning.md). */
interface UnplacedJson {
  kind: 'pickup' | 'delivery';
  /** The order's, for a delivery; the pickup's id, for a pickup. */
  tracking_ref?: string;
  pickup_id?: string;
  reason: UnplacedReason;
}

/**
 * A stop due on the day and on no round, as read later: the optimiser's reason is not kept, so it
 * is `no_location` (nowhere to drive), `no_vehicle` (no courier has a shift that day) or
 * `not_planned` (new since the day was planned, or left out by the optimiser: plan again to see why).
 */
interface OffRoundJson {
  kind: 'pickup' | 'delivery';
  tracking_ref?: string;
  pickup_id?: string;
  /** The delivery's postcode, the pickup's address: enough to place it by eye. */
  where: string | null;
  reason: 'no_location' | 'no_vehicle' | 'not_planned';
}

/** An optimised day: its rounds, the stops left out, the totals. */
interface OptimisedDayJson {
  date: string;
  engine: string;
  rounds: RoundJson[];
  unplaced: UnplacedJson[];
  summary: { rounds: number; stops: number; unplaced: number; distance_m: number; duration_s: number };
}

/** A stop as the operator names it: an order by tracking reference, or a pickup by id. */
export type StopInput = { tracking_ref: string } | { pickup_id: string };

export interface RoundServiceDeps {
  transact: Transact;
  stores: Stores;
  clock: Clock;
  /**
   * What recipients chose for their deliveries, in clear, by order row id (domain/recipients): in
   * the courier's day (their stops only) and the operator's rounds (docs/recipients.md, who sees them).
   */
  recipientChoices?: (orderIds: readonly string[]) => Promise<ReadonlyMap<string, RecipientChoices>>;
  /**
   * Metres between the points of a round (domain/places' TravelTimes), for the courier's day: by the
   * round's own vehicle when it has one, else the arrivals' vehicle (ARRIVAL_VEHICLE).
   */
  distances?: (points: readonly GeoPoint[], profile?: VehicleProfile) => Promise<number[][]>;
  /** The estimated arrivals of these orders (tracking refs → RFC 3339), for the courier's day. */
  etas?: (trackingRefs: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** The optimiser of `planOptimised` (the in-process solver by default, VROOM when configured). */
  optimiser?: RoundOptimiser;
  /** Travel times between the day's points (OSRM, else the estimate). */
  travelTimes?: TravelTimes;
  /** The optimiser's budget (ROUND_PLAN_TIME_LIMIT_MS) and seed. */
  solveOptions?: SolveOptions;
}

/**
 * The operator's rounds. Each change is recorded in the audit trail in its own transaction, with
 * the stops (tracking references and pickup ids) and the courier before and after; each read of
 * rounds with delivery stops, which show the recipients' names, addresses and phones, is recorded
 * as a `recipient.read` naming the orders.
 */
export interface RoundService {
  /** Plans (or re-plans) the day by sort code; `assign`: rounds without a courier get one, round-robin. */
  plan(input: { date: string; assign: boolean }, by: Author): Promise<RoundJson[]>;
  list(date: string, by: Author): Promise<RoundJson[]>;
  get(roundId: string, by: Author): Promise<RoundJson>;
  /** An external planner's round, checked whole: nothing is written unless every stop is good. */
  create(
    input: {
      date: string;
      name: string;
      courierId?: string | null;
      stops: StopInput[];
    },
    by: Author,
  ): Promise<RoundJson>;
  /**
   * Plans the day with the optimiser (docs/planning.md): the couriers' shifts and vehicles, the
   * stops' places, amounts and windows. Rounds already started stay whole; pinned stops stay on
   * their rounds; the stops that cannot be placed are listed with the optimiser's reason.
   */
  planOptimised(input: { date: string }, by: Author): Promise<OptimisedDayJson>;
  /**
   * Gives the round to a courier and/or a vehicle (at least one named). `version`: the round's
   * version the operator saw (an older one is a 409 `round_conflict`, nothing written).
   */
  assign(
    roundId: string,
    /** The courier (id or e-mail; null: none); absent: the round keeps its own. */
    courier: string | null | undefined,
    by: Author,
    version?: number,
    /** The vehicle (id or name; null: none); absent: the round keeps its own. */
    vehicle?: string | null,
  ): Promise<RoundJson>;
  /** The day's stops due and on no round, each with why (the planning page's "unplaced"). */
  offRounds(date: string): Promise<OffRoundJson[]>;
  /** The operator's order of the round's stops (the same set or another, checked whole); pins kept. */
  setStops(roundId: string, stops: StopInput[], by: Author, version?: number): Promise<RoundJson>;
  /** Pins (or unpins) a stop of the round: re-optimising keeps it there. */
  pin(
    roundId: string,
    input: { stop: StopInput; pinned: boolean; version: number },
    by: Author,
  ): Promise<RoundJson>;
  /**
   * Moves a stop to another round of the day, at `position` (1-based; default: last), both rounds'
   * versions checked. Answers both rounds.
   */
  move(
    roundId: string,
    input: { stop: StopInput; toRoundId: string; position?: number; version: number; toVersion: number },
    by: Author,
  ): Promise<{ from: RoundJson; to: RoundJson }>;
  /** The signed-in courier's rounds of the day (default: today in Paris), nobody else's. */
  courierDay(courierId: string, date?: string): Promise<{ date: string; rounds: CourierRoundJson[] }>;
  /** The round an order (its row id) is on that day, for the scans' `wrong_round`; null when none. */
  roundOfOrder(
    orderId: string | number,
    date: string,
  ): Promise<{ roundId: string; courierId: string | null } | null>;
}

const ROUND_ID = /^rnd_[0-9a-f]{16}$/;

/** An edit made on what the operator saw: an older version than the round's is refused, nothing written. */
function checkVersion(round: Round, expected: number | undefined, field = 'version'): void {
  if (expected === undefined || expected === round.version) return;
  throw new AppError(
    'round_conflict',
    `Round ${round.name} changed since version ${expected} (it is at version ${round.version}): read it again, then redo the change.`,
    [{ field, message: `is ${expected}; the round is at version ${round.version}` }],
  );
}

const refsOf = (stop: StopInput): string[] => ('tracking_ref' in stop ? [stop.tracking_ref] : []);
const MAX_STOPS = 1000;

function checkDate(date: string, field = 'date'): string {
  if (!isIsoDate(date)) throw invalidField(field, 'must be a date (YYYY-MM-DD)');
  return date;
}

const sortCodeOf = (table: SortCodeTable, postcode: string | null, zone: PricingZone | null) =>
  table.codeFor(postcode, zone) ?? 'IDF';

function pickupSortCode(table: SortCodeTable, address: string) {
  const postcode = extractPostcode(address);
  const zone = postcode ? (lookupPostcode(postcode)?.zone ?? null) : null;
  return { postcode: postcode ?? '', sortCode: sortCodeOf(table, postcode, zone) };
}

function stopJson(
  table: SortCodeTable,
  d: StopDetail,
  choices?: ReadonlyMap<string, RecipientChoices>,
): StopJson {
  const plan: StopPlanJson = {
    pinned: d.plan.pinned,
    planned_arrival: d.plan.plannedArrival?.toISOString() ?? null,
    leg_distance_m: d.plan.legDistanceM,
  };
  if (d.kind === 'pickup') {
    const p = d.pickup;
    return {
      position: d.position,
      ...plan,
      kind: 'pickup',
      pickup: {
        id: p.id,
        brand_name: p.brandName,
        pickup_address: p.pickupAddress,
        window: p.window,
        status: p.status,
        parcels: p.parcels,
      },
    };
  }
  const o = d.order;
  const chosen = choices?.get(o.id);
  return {
    position: d.position,
    ...plan,
    kind: 'delivery',
    order: {
      tracking_ref: o.trackingRef,
      status: o.status,
      recipient: o.recipient,
      address: o.address,
      postcode: o.postcode,
      city: o.city,
      delivery_location: o.location,
      phone: o.phone,
      sort_code: sortCodeOf(table, o.postcode, o.zone),
      quantity: o.quantity,
      failed_attempts: o.failedAttempts,
      // What the recipient asked on the tracking page (decision 0007): for the courier of the
      // delivery and the operator, never a brand nor another courier. Null: nothing asked.
      instructions: chosen?.instructions ?? null,
      safe_place: chosen?.safePlace ?? null,
    },
  };
}

async function roundsJson(
  stores: Stores,
  rounds: readonly Round[],
  recipientChoices?: RoundServiceDeps['recipientChoices'],
): Promise<RoundJson[]> {
  const table = sortCodeTable(await stores.rounds.sortCodes());
  const details = await stores.rounds.stopDetails(rounds.map((r) => r.id));
  const choices = recipientChoices
    ? await recipientChoices(details.flatMap((d) => (d.kind === 'delivery' ? [d.order.id] : [])))
    : undefined;
  return rounds.map((r) => ({
    id: r.id,
    date: r.date,
    name: r.name,
    courier_id: r.courierId,
    sort_codes: r.sortCodes,
    version: r.version,
    vehicle_id: r.plan.vehicleId,
    planned_distance_m: r.plan.plannedDistanceM,
    planned_duration_s: r.plan.plannedDurationS,
    planned_by: r.plan.plannedBy,
    driven_distance_m: r.drivenDistanceM ?? null,
    stops: details.filter((d) => d.roundId === r.id).map((d) => stopJson(table, d, choices)),
  }));
}

/** What the trail keeps of a round: its courier and its stops (references, never the recipients' data). */
const roundFields = (r: RoundJson) => {
  const pinned = r.stops.filter((s) => s.pinned).map(stopReference);
  // Pins only when there are some: a round never pinned records no empty list.
  return {
    courier_id: r.courier_id,
    vehicle_id: r.vehicle_id,
    stops: r.stops.map(stopReference),
    ...(pinned.length > 0 && { pinned }),
  };
};
const stopReference = (s: StopJson) => (s.kind === 'delivery' ? s.order.tracking_ref : s.pickup.id);
const deliveryRefs = (r: RoundJson) =>
  r.stops.flatMap((s) => (s.kind === 'delivery' ? [s.order.tracking_ref] : []));
/** The orders that joined or left a round. */
function movedRefs(before: RoundJson | null, after: RoundJson): string[] {
  const was = new Set(before ? deliveryRefs(before) : []);
  const is = new Set(deliveryRefs(after));
  return [...[...is].filter((r) => !was.has(r)), ...[...was].filter((r) => !is.has(r))];
}
/** No field of a round is a person's: its name is its own, its stops are references. */
const NOTHING_PERSONAL: ReadonlySet<string> = new Set();

function roundChange(
  action:
    | 'round.planned'
    | 'round.created'
    | 'round.stops_set'
    | 'round.assigned'
    | 'round.stop_pinned'
    | 'round.stop_moved',
  by: Author,
  before: RoundJson | null,
  after: RoundJson,
): AuditEntry | null {
  const fields = (r: RoundJson) =>
    action === 'round.created' ? { name: r.name, date: r.date, ...roundFields(r) } : roundFields(r);
  const changes = changedFields(before && fields(before), fields(after), NOTHING_PERSONAL);
  if (!changes) return null;
  return {
    action,
    by,
    object: { type: 'round', id: after.id },
    orderRefs: movedRefs(before, after),
    changes,
    details: { date: after.date, name: after.name },
  };
}

export function roundService(deps: RoundServiceDeps): RoundService {
  const { transact, clock } = deps;

  /** Records a change of rounds when it changed something. */
  async function recordChanges(stores: Stores, entries: readonly (AuditEntry | null)[]): Promise<void> {
    const changed = entries.filter((e): e is AuditEntry => e !== null);
    if (changed.length > 0) await stores.audit.record(...changed);
  }

  /** An operator's read of rounds: the delivery stops show the recipients' data. */
  async function recordRead(
    by: Author,
    rounds: readonly RoundJson[],
    object: { type: 'round' | 'day'; id: string },
  ): Promise<void> {
    const orderRefs = rounds.flatMap(deliveryRefs);
    if (orderRefs.length === 0) return;
    await deps.stores.audit.record({
      action: 'recipient.read',
      by,
      object,
      orderRefs,
      details: { view: 'rounds', rounds: rounds.length },
    });
  }

  async function findRound(stores: Stores, roundId: string): Promise<Round> {
    const round = ROUND_ID.test(roundId) ? await stores.rounds.find(roundId) : null;
    if (!round) throw new AppError('not_found', `No round ${roundId.slice(0, 100)}.`);
    return round;
  }

  async function enabledCourier(stores: Stores, courier: string, field: string): Promise<string> {
    const key = courier.trim();
    const found = /^cou_[0-9a-f]{16}$/.test(key)
      ? await stores.couriers.findById(key)
      : key.includes('@') && key.length <= 254
        ? await stores.couriers.findByEmail(key)
        : null;
    if (!found) throw invalidField(field, `no courier ${key.slice(0, 100)}`);
    if (found.disabledAt)
      throw new AppError('courier_disabled', `${field}: courier ${found.id} is disabled.`, [
        { field, message: 'is a disabled courier' },
      ]);
    return found.id;
  }

  async function enabledVehicle(stores: Stores, vehicle: string, field: string): Promise<string> {
    const key = vehicle.trim();
    const found = key.length >= 1 && key.length <= 100 ? await stores.fleet.findVehicle(key) : null;
    if (!found) throw invalidField(field, `no vehicle ${key.slice(0, 100)}`);
    if (found.disabledAt) throw invalidField(field, `vehicle ${found.name} is disabled`);
    return found.id;
  }

  /**
   * The stops named by the operator, checked whole: each names one order or one pickup of the
   * day, once; none is on another round that day. Every problem is listed in one answer.
   */
  async function resolveStops(
    stores: Stores,
    date: string,
    inputs: StopInput[],
    exceptRoundId: string | null,
    /** The orders already on the round being changed (their ids). */
    kept: ReadonlySet<string> = new Set(),
  ) {
    if (inputs.length > MAX_STOPS) throw invalidField('stops', `at most ${MAX_STOPS} stops`);
    const refs = inputs.flatMap((s) => ('tracking_ref' in s ? [s.tracking_ref] : []));
    const pickupIds = inputs.flatMap((s) => ('pickup_id' in s ? [s.pickup_id] : []));
    const orders = await stores.rounds.ordersByRef(refs);
    const pickups = await stores.rounds.pickupsOnDate(pickupIds, date);
    const unknown: ErrorDetail[] = [];
    const settled: ErrorDetail[] = [];
    const repeated: ErrorDetail[] = [];
    const stops: StopRef[] = [];
    const where = new Map<string, number>();
    inputs.forEach((input, i) => {
      let stop: StopRef | null = null;
      if ('tracking_ref' in input) {
        const order = orders.get(input.tracking_ref);
        if (!order)
          unknown.push({ field: `stops[${i}].tracking_ref`, message: `no order ${input.tracking_ref}` });
        // A stop already on the round stays whatever became of it (delivered this morning); a new
        // one must still be to deliver.
        else if (NOT_TO_DELIVER.has(order.status) && !kept.has(order.id))
          settled.push({
            field: `stops[${i}].tracking_ref`,
            message: `order ${input.tracking_ref} is ${order.status}; only an order still to deliver can be a stop`,
          });
        else stop = { kind: 'delivery', orderId: order.id };
      } else if (pickups.has(input.pickup_id)) stop = { kind: 'pickup', pickupId: input.pickup_id };
      else
        unknown.push({ field: `stops[${i}].pickup_id`, message: `no pickup ${input.pickup_id} on ${date}` });
      if (!stop) return;
      const key = stopKey(stop);
      if (where.has(key)) {
        repeated.push({ field: `stops[${i}]`, message: `repeats stops[${where.get(key)}]` });
        return;
      }
      where.set(key, i);
      stops.push(stop);
    });
    if (repeated.length > 0)
      throw new AppError('invalid_request', `${repeated[0]!.field}: ${repeated[0]!.message}`, repeated);
    if (unknown.length > 0)
      throw new AppError(
        'unknown_stops',
        `${unknown.length} stop(s) name no order or pickup of ${date}.`,
        unknown,
      );
    if (settled.length > 0)
      throw new AppError('invalid_stops', `${settled[0]!.field}: ${settled[0]!.message}.`, settled);
    const taken = await stores.rounds.onOtherRounds(date, stops, exceptRoundId);
    if (taken.size > 0) {
      const details = [...taken].map(([key, name]) => ({
        field: `stops[${where.get(key)}]`,
        message: `is already on round ${name} that day`,
      }));
      throw new AppError('already_on_round', `${details[0]!.field} ${details[0]!.message}.`, details);
    }
    return stops;
  }

  /** The sort codes a round's stops are grouped under (an external planner's round covers those). */
  async function sortCodesOf(stores: Stores, round: Round): Promise<string[]> {
    const json = (await roundsJson(stores, [round]))[0]!;
    const table = sortCodeTable(await stores.rounds.sortCodes());
    const codes = json.stops.map((s) =>
      s.kind === 'delivery' ? s.order.sort_code : pickupSortCode(table, s.pickup.pickup_address).sortCode,
    );
    return [...new Set([...round.sortCodes, ...codes])].sort();
  }

  /** The round as the operator reads it now. */
  async function roundJson(stores: Stores, roundId: string): Promise<RoundJson> {
    return (await roundsJson(stores, [(await stores.rounds.find(roundId))!], deps.recipientChoices))[0]!;
  }

  /** The key of the stop the operator named, which must be on `round`. */
  async function stopOnRound(stores: Stores, round: Round, input: StopInput): Promise<string> {
    let key: string | null = null;
    if ('tracking_ref' in input) {
      const order = (await stores.rounds.ordersByRef([input.tracking_ref])).get(input.tracking_ref);
      if (order) key = stopKey({ kind: 'delivery', orderId: order.id });
    } else key = stopKey({ kind: 'pickup', pickupId: input.pickup_id });
    if (!key || !round.stops.some((s) => stopKey(s) === key)) {
      const named = 'tracking_ref' in input ? input.tracking_ref : input.pickup_id;
      throw invalidField('stop', `${String(named).slice(0, 100)} is not a stop of round ${round.name}`);
    }
    return key;
  }

  /**
   * The optimised day, in the caller's transaction: gathers the shifts, the stops and the pins,
   * asks the optimiser, and writes its rounds (one per courier used), replacing the day's rounds
   * not started. Nothing is written if anything fails.
   */
  async function optimiseDay(
    stores: Stores,
    date: string,
    optimiser: RoundOptimiser,
    travelTimes: TravelTimes,
    by: Author,
  ): Promise<OptimisedDayJson> {
    await stores.rounds.lockDay(date);
    const existing = await stores.rounds.roundsOfDay(date);
    const started = await stores.rounds.startedRounds(date);
    const before = new Map((await roundsJson(stores, existing)).map((r) => [r.id, r]));
    const onStarted = new Set(existing.filter((r) => started.has(r.id)).flatMap((r) => r.stops.map(stopKey)));
    const busy = new Set(existing.filter((r) => started.has(r.id)).map((r) => r.courierId));
    const open = existing.filter((r) => !started.has(r.id));

    // Each enabled courier with a shift and an enabled vehicle, not out on a round already.
    const hubs = new Map((await stores.fleet.hubs()).map((h) => [h.id, h]));
    const vehicles = new Map((await stores.fleet.vehicles()).map((v) => [v.id, v]));
    const planners: PlanningVehicle[] = [];
    for (const shift of await stores.fleet.shiftsOfDay(date)) {
      const vehicle = vehicles.get(shift.vehicleId);
      const courier = await stores.couriers.findById(shift.courierId);
      if (!vehicle || vehicle.disabledAt || !courier || courier.disabledAt || busy.has(shift.courierId))
        continue;
      const pinned = open
        .filter((r) => r.courierId === shift.courierId)
        .flatMap((r) => r.stops.filter((s) => s.pinned));
      planners.push({
        courierId: shift.courierId,
        vehicle,
        hub: hubs.get(vehicle.hubId)!,
        shift: [minutesOf(shift.startsAt)! * 60, minutesOf(shift.endsAt)! * 60],
        pinned,
        ...(shift.break && {
          break: {
            window: [
              minutesOf(shift.break.from)! * 60,
              (minutesOf(shift.break.until)! - shift.break.minutes) * 60,
            ] as const,
            seconds: shift.break.minutes * 60,
          },
        }),
      });
    }
    const planning = new Set(planners.map((p) => p.courierId));
    // Pins on a round whose courier has no shift that day stay where they are, on that round.
    const heldPins = new Set(
      open
        .filter((r) => !r.courierId || !planning.has(r.courierId))
        .flatMap((r) => r.stops.filter((s) => s.pinned).map(stopKey)),
    );

    const due = await stores.rounds.planningStops(date);
    const stops: PlanningStop[] = [];
    const unplaced: UnplacedJson[] = [];
    for (const d of due.deliveries) {
      const stop: StopRef = { kind: 'delivery', orderId: d.orderId };
      if (onStarted.has(stopKey(stop)) || heldPins.has(stopKey(stop))) continue;
      const point = d.point ?? (d.postcode ? postcodePoint(d.postcode) : null);
      if (!point) unplaced.push({ kind: 'delivery', tracking_ref: d.trackingRef, reason: 'no_location' });
      else stops.push({ stop, label: d.trackingRef, point, parcels: d.parcels, grams: d.grams });
    }
    for (const p of due.pickups) {
      const stop: StopRef = { kind: 'pickup', pickupId: p.pickupId };
      if (onStarted.has(stopKey(stop)) || heldPins.has(stopKey(stop))) continue;
      const postcode = extractPostcode(p.address);
      const point = postcode ? postcodePoint(postcode) : null;
      const start = minutesOf(p.window.start);
      const end = minutesOf(p.window.end);
      if (!point) unplaced.push({ kind: 'pickup', pickup_id: p.pickupId, reason: 'no_location' });
      else
        stops.push({
          stop,
          label: p.pickupId,
          point,
          parcels: p.parcels,
          grams: p.grams,
          ...(start !== null && end !== null && { window: [start * 60, end * 60] as const }),
        });
    }

    // Same-day parcels still at the brand: collected at their pickup and delivered on the same
    // round. One whose pickup is already on a started round (or held by a pin) follows it there.
    const pickupStops = new Map(
      stops.filter((s) => s.stop.kind === 'pickup').map((s) => [stopKey(s.stop), s]),
    );
    const pairs: PlanningPair[] = [];
    for (const d of due.sameDay) {
      const stop: StopRef = { kind: 'delivery', orderId: d.orderId };
      const pickupKey = stopKey({ kind: 'pickup', pickupId: d.pickupId });
      if ([stopKey(stop), pickupKey].some((k) => onStarted.has(k) || heldPins.has(k))) continue;
      const at = pickupStops.get(pickupKey);
      const point = d.point ?? (d.postcode ? postcodePoint(d.postcode) : null);
      if (!at || !point) {
        unplaced.push({ kind: 'delivery', tracking_ref: d.trackingRef, reason: 'no_location' });
        continue;
      }
      pairs.push({
        pickup: { ...at, parcels: d.parcels, grams: d.grams },
        delivery: { stop, label: d.trackingRef, point, parcels: d.parcels, grams: d.grams },
      });
    }
    // A pickup whose every parcel is same-day is visited through its pairs alone.
    const paired = new Set(pairs.map((p) => stopKey(p.pickup.stop)));
    const jobs = stops.filter(
      (s) => !(s.stop.kind === 'pickup' && s.parcels === 0 && paired.has(stopKey(s.stop))),
    );

    const labelOf = (s: PlanningStop): UnplacedJson =>
      s.stop.kind === 'delivery'
        ? { kind: 'delivery', tracking_ref: s.label, reason: 'no_vehicle' }
        : { kind: 'pickup', pickup_id: s.label, reason: 'no_vehicle' };
    let engine = optimiser.engine;
    let planned: OptimisedRound[] = [];
    if (planners.length === 0 || jobs.length + pairs.length === 0) {
      unplaced.push(...jobs.map(labelOf), ...pairs.map((p) => labelOf(p.delivery)));
    } else {
      const meta = await buildProblem(
        jobs,
        planners,
        (points, profile) => travelTimes.matrix(points, profile),
        pairs,
      );
      let solution: Awaited<ReturnType<RoundOptimiser['solve']>>;
      try {
        solution = await optimiser.solve(meta.problem, deps.solveOptions);
        // A pickup is one stop on one round: an answer splitting its tasks is solved again with
        // them tied to one courier.
        const tied = tieSplitPickups(meta, solution);
        if (tied) {
          meta.problem = tied;
          solution = await optimiser.solve(tied, deps.solveOptions);
        }
      } catch (err) {
        if (err instanceof AppError && err.code === 'invalid_request')
          throw new AppError(
            'invalid_request',
            `The pinned stops cannot be kept: ${err.message} (vehicles[i] is the i-th courier with a shift that day).`,
            err.details,
          );
        throw err;
      }
      engine = solution.search.engine;
      const read = readSolution(meta, planners, solution);
      planned = read.rounds;
      unplaced.push(...read.unplaced.map(({ stop, reason }) => ({ ...labelOf(stop), reason })));
    }

    // A pickup visited through its pairs alone, none placed: listed too, with its first pair's reason.
    const placedKeys = new Set(planned.flatMap((r) => r.stops.map((x) => stopKey(x.stop))));
    for (const s of stops) {
      if (jobs.includes(s) || placedKeys.has(stopKey(s.stop))) continue;
      const first = pairs.find((p) => stopKey(p.pickup.stop) === stopKey(s.stop))!;
      const reason = unplaced.find((u) => u.tracking_ref === first.delivery.label)?.reason ?? 'no_vehicle';
      unplaced.push({ ...labelOf(s), reason });
    }

    // The open rounds are emptied first: a stop is on one round a day, and may change rounds.
    for (const r of open) await stores.rounds.replaceStops(r.id, date, []);
    // The optimiser's rounds take the couriers' open rounds (the first by name), else new ones.
    const names = new Set(existing.map((r) => r.name));
    const reused = new Set<string>();
    const written: string[] = [];
    for (const r of planned) {
      const own = open.find((o) => o.courierId === r.courierId && !reused.has(o.id));
      const stopsOf: StopRef[] = r.stops.map((s) => ({
        ...bareStop(s.stop),
        pinned: s.pinned,
        plannedArrival: parisInstant(date, s.arrival),
        legDistanceM: s.legDistanceM,
      }));
      const plan = {
        vehicleId: r.vehicleId,
        plannedDistanceM: r.distanceM,
        plannedDurationS: r.durationS,
        plannedBy: engine,
      };
      let id: string;
      if (own) {
        id = own.id;
        reused.add(id);
        await stores.rounds.update(id, { courierId: r.courierId, plan });
      } else {
        const base = vehicles.get(r.vehicleId)!.name;
        let name = base;
        for (let n = 2; names.has(name); n++) name = `${base} (${n})`;
        names.add(name);
        id = prefixedId('rnd');
        await stores.rounds.insert({ id, date, name, courierId: r.courierId, sortCodes: [], plan });
      }
      await stores.rounds.replaceStops(id, date, stopsOf);
      const now = (await stores.rounds.find(id))!;
      await stores.rounds.update(id, { sortCodes: await sortCodesOf(stores, { ...now, sortCodes: [] }) });
      written.push(id);
    }
    // The other open rounds: those holding pins of a courier without a shift keep only them; the
    // rest are gone (no scan names them).
    const removed: RoundJson[] = [];
    for (const r of open) {
      if (reused.has(r.id)) continue;
      const pins = r.stops.filter((s) => heldPins.has(stopKey(s)));
      if (pins.length > 0) {
        await stores.rounds.replaceStops(r.id, date, pins);
        written.push(r.id);
      } else {
        await stores.rounds.remove(r.id);
        removed.push(before.get(r.id)!);
      }
    }

    const rounds = await roundsJson(stores, await stores.rounds.roundsOfDay(date), deps.recipientChoices);
    const details = { engine, unplaced: unplaced.length };
    await recordChanges(stores, [
      ...rounds
        .filter((r) => written.includes(r.id))
        .map((r) => {
          const e = roundChange('round.planned', by, before.get(r.id) ?? null, r);
          return e && { ...e, details: { ...e.details, ...details } };
        }),
      ...removed.map((r) => {
        const e = roundChange('round.planned', by, r, {
          ...r,
          stops: [],
          courier_id: null,
          vehicle_id: null,
        });
        return e && { ...e, details: { ...e.details, ...details, removed: true } };
      }),
    ]);
    const mine = rounds.filter((r) => !started.has(r.id));
    return {
      date,
      engine,
      rounds,
      unplaced,
      summary: {
        rounds: mine.filter((r) => r.stops.length > 0).length,
        stops: mine.reduce((n, r) => n + r.stops.length, 0),
        unplaced: unplaced.length,
        distance_m: mine.reduce((n, r) => n + (r.planned_distance_m ?? 0), 0),
        duration_s: mine.reduce((n, r) => n + (r.planned_duration_s ?? 0), 0),
      },
    };
  }

  return {
    async plan({ date, assign }, by) {
      checkDate(date);
      return transact(async (stores) => {
        await stores.rounds.lockDay(date);
        const table = sortCodeTable(await stores.rounds.sortCodes());
        const existing = await stores.rounds.roundsOfDay(date);
        const before = new Map((await roundsJson(stores, existing)).map((r) => [r.id, r]));
        const candidates: Candidate[] = [
          ...(await stores.rounds.pickupsDue(date)).map((p) => ({
            kind: 'pickup' as const,
            pickupId: p.pickupId,
            address: p.address,
            ...pickupSortCode(table, p.address),
          })),
          ...(await stores.rounds.deliveriesDue(date)).map((o) => ({
            kind: 'delivery' as const,
            orderId: o.orderId,
            address: o.address,
            postcode: o.postcode ?? '',
            sortCode: sortCodeOf(table, o.postcode, o.zone),
          })),
        ];
        const onRounds = existing.flatMap((r) =>
          r.stops.flatMap((s) => (s.kind === 'delivery' ? [s.orderId] : [])),
        );
        const dropped = new Set(
          (await stores.rounds.cancelledAmong(onRounds)).map((orderId) =>
            stopKey({ kind: 'delivery', orderId }),
          ),
        );
        const planned = planDay(existing, candidates, dropped);
        if (assign) {
          const enabled = (await stores.couriers.list()).filter((c) => !c.disabledAt).map((c) => c.id);
          assignRoundRobin(planned, enabled);
        }
        for (const round of planned) {
          if (!round.changed) continue;
          if (round.id === null) {
            round.id = prefixedId('rnd');
            await stores.rounds.insert({
              id: round.id,
              date,
              name: round.name,
              courierId: round.courierId,
              sortCodes: round.sortCodes,
            });
          } else {
            await stores.rounds.update(round.id, { courierId: round.courierId });
          }
          await stores.rounds.replaceStops(round.id, date, round.stops);
        }
        const after = await roundsJson(stores, await stores.rounds.roundsOfDay(date), deps.recipientChoices);
        await recordChanges(
          stores,
          after.map((r) => roundChange('round.planned', by, before.get(r.id) ?? null, r)),
        );
        return after;
      });
    },

    async list(date, by) {
      checkDate(date);
      const rounds = await roundsJson(
        deps.stores,
        await deps.stores.rounds.roundsOfDay(date),
        deps.recipientChoices,
      );
      await recordRead(by, rounds, { type: 'day', id: date });
      return rounds;
    },

    async get(roundId, by) {
      const round = await findRound(deps.stores, roundId);
      const json = (await roundsJson(deps.stores, [round], deps.recipientChoices))[0]!;
      await recordRead(by, [json], { type: 'round', id: json.id });
      return json;
    },

    async create(input, by) {
      const date = checkDate(input.date);
      const name = input.name.trim();
      if (name.length < 1 || name.length > 100) throw invalidField('name', 'must be 1 to 100 characters');
      return transact(async (stores) => {
        await stores.rounds.lockDay(date);
        const courierId = input.courierId
          ? await enabledCourier(stores, input.courierId, 'courier_id')
          : null;
        if ((await stores.rounds.roundsOfDay(date)).some((r) => r.name === name))
          throw invalidField('name', `a round of ${date} is already named ${name}`);
        const stops = await resolveStops(stores, date, input.stops, null);
        const round: Round = {
          id: prefixedId('rnd'),
          date,
          name,
          courierId,
          sortCodes: [],
          stops,
          version: 1,
          plan: NO_PLAN,
        };
        await stores.rounds.insert(round);
        await stores.rounds.replaceStops(round.id, date, stops);
        await stores.rounds.update(round.id, { sortCodes: await sortCodesOf(stores, round) });
        const after = (
          await roundsJson(stores, [(await stores.rounds.find(round.id))!], deps.recipientChoices)
        )[0]!;
        await recordChanges(stores, [roundChange('round.created', by, null, after)]);
        return after;
      });
    },

    async assign(roundId, courier, by, version, vehicle) {
      if (courier === undefined && vehicle === undefined)
        throw invalidField('courier_id', 'give courier_id, vehicle_id or both');
      return transact(async (stores) => {
        const found = await findRound(stores, roundId);
        await stores.rounds.lockDay(found.date);
        const round = (await stores.rounds.find(found.id))!;
        checkVersion(round, version);
        const courierId =
          courier === undefined
            ? round.courierId
            : courier === null
              ? null
              : await enabledCourier(stores, courier, 'courier_id');
        const vehicleId =
          vehicle === undefined
            ? round.plan.vehicleId
            : vehicle === null
              ? null
              : await enabledVehicle(stores, vehicle, 'vehicle_id');
        await stores.rounds.update(round.id, {
          courierId,
          // The planned distance and times stay until the day is optimised again with this vehicle.
          ...(vehicleId !== round.plan.vehicleId && { plan: { ...round.plan, vehicleId } }),
        });
        const after = await roundJson(stores, round.id);
        await recordChanges(stores, [
          roundChange(
            'round.assigned',
            by,
            { ...after, courier_id: round.courierId, vehicle_id: round.plan.vehicleId },
            after,
          ),
        ]);
        return after;
      });
    },

    async offRounds(date) {
      checkDate(date);
      const { rounds, fleet } = deps.stores;
      const on = new Set((await rounds.roundsOfDay(date)).flatMap((r) => r.stops.map(stopKey)));
      const due = await rounds.planningStops(date);
      const anyShift = (await fleet.shiftsOfDay(date)).length > 0;
      const reason = (placed: boolean): OffRoundJson['reason'] =>
        !placed ? 'no_location' : anyShift ? 'not_planned' : 'no_vehicle';
      return [
        ...due.pickups
          .filter((p) => !on.has(stopKey({ kind: 'pickup', pickupId: p.pickupId })))
          .map((p) => {
            const postcode = extractPostcode(p.address);
            return {
              kind: 'pickup' as const,
              pickup_id: p.pickupId,
              where: p.address,
              reason: reason(postcode !== null && postcodePoint(postcode) !== null),
            };
          }),
        // Same-day parcels still at the brand too: the optimised plan pairs them with their pickup.
        ...[...due.deliveries, ...due.sameDay]
          .filter((d) => !on.has(stopKey({ kind: 'delivery', orderId: d.orderId })))
          .map((d) => ({
            kind: 'delivery' as const,
            tracking_ref: d.trackingRef,
            where: d.postcode,
            reason: reason(d.point !== null || (d.postcode !== null && postcodePoint(d.postcode) !== null)),
          })),
      ];
    },

    async setStops(roundId, inputs, by, version) {
      return transact(async (stores) => {
        const found = await findRound(stores, roundId);
        await stores.rounds.lockDay(found.date);
        const round = (await stores.rounds.find(found.id))!;
        checkVersion(round, version);
        const before = (await roundsJson(stores, [round]))[0]!;
        const kept = new Set(round.stops.flatMap((s) => (s.kind === 'delivery' ? [s.orderId] : [])));
        const resolved = await resolveStops(stores, round.date, inputs, round.id, kept);
        // The operator's order: pins stay with their stops; the planned times were the optimiser's
        // order's, so they stay only on a round whose order is unchanged.
        const was = new Map(round.stops.map((s) => [stopKey(s), s]));
        const sameOrder =
          resolved.length === round.stops.length &&
          resolved.every((s, i) => stopKey(s) === stopKey(round.stops[i]!));
        const stops = resolved.map((s) => {
          const old = was.get(stopKey(s));
          return sameOrder && old ? old : { ...s, pinned: old?.pinned === true };
        });
        await stores.rounds.replaceStops(round.id, round.date, stops);
        await stores.rounds.update(round.id, { sortCodes: await sortCodesOf(stores, { ...round, stops }) });
        const after = await roundJson(stores, round.id);
        await recordChanges(stores, [roundChange('round.stops_set', by, before, after)]);
        return after;
      });
    },

    async pin(roundId, input, by) {
      return transact(async (stores) => {
        const found = await findRound(stores, roundId);
        await stores.rounds.lockDay(found.date);
        const round = (await stores.rounds.find(found.id))!;
        checkVersion(round, input.version);
        const key = await stopOnRound(stores, round, input.stop);
        const before = (await roundsJson(stores, [round]))[0]!;
        const stops = round.stops.map((s) => (stopKey(s) === key ? { ...s, pinned: input.pinned } : s));
        await stores.rounds.replaceStops(round.id, round.date, stops);
        const after = await roundJson(stores, round.id);
        const entry = roundChange('round.stop_pinned', by, before, after);
        await recordChanges(stores, [entry && { ...entry, orderRefs: refsOf(input.stop) }]);
        return after;
      });
    },

    async move(roundId, input, by) {
      return transact(async (stores) => {
        const found = await findRound(stores, roundId);
        await stores.rounds.lockDay(found.date);
        const from = (await stores.rounds.find(found.id))!;
        const target = ROUND_ID.test(input.toRoundId) ? await stores.rounds.find(input.toRoundId) : null;
        if (!target) throw invalidField('to_round_id', `no round ${input.toRoundId.slice(0, 100)}`);
        if (target.date !== from.date)
          throw invalidField('to_round_id', `round ${target.id} is of ${target.date}, not ${from.date}`);
        if (target.id === from.id)
          throw invalidField('to_round_id', 'is the round the stop is on; reorder it instead');
        checkVersion(from, input.version);
        checkVersion(target, input.toVersion, 'to_version');
        const key = await stopOnRound(stores, from, input.stop);
        const position = input.position ?? target.stops.length + 1;
        if (!Number.isInteger(position) || position < 1 || position > target.stops.length + 1)
          throw invalidField('position', `must be from 1 to ${target.stops.length + 1}`);
        const moving = from.stops.find((s) => stopKey(s) === key)!;
        const [beforeFrom, beforeTo] = await roundsJson(stores, [from, target]);
        await stores.rounds.replaceStops(
          from.id,
          from.date,
          from.stops.filter((s) => stopKey(s) !== key),
        );
        // Its planned time and leg were its old round's: none until the day is optimised again.
        const moved: StopRef = { ...bareStop(moving), pinned: moving.pinned === true };
        const stops = [...target.stops];
        stops.splice(position - 1, 0, moved);
        await stores.rounds.replaceStops(target.id, target.date, stops);
        for (const r of [from, target]) {
          const now = (await stores.rounds.find(r.id))!;
          await stores.rounds.update(r.id, {
            sortCodes: await sortCodesOf(stores, { ...now, sortCodes: [] }),
          });
        }
        const after = await roundsJson(
          stores,
          [(await stores.rounds.find(from.id))!, (await stores.rounds.find(target.id))!],
          deps.recipientChoices,
        );
        const entries = [
          roundChange('round.stop_moved', by, beforeFrom!, after[0]!),
          roundChange('round.stop_moved', by, beforeTo!, after[1]!),
        ].map((e) => e && { ...e, details: { ...e.details, from: from.id, to: target.id } });
        await recordChanges(stores, entries);
        return { from: after[0]!, to: after[1]! };
      });
    },

    async planOptimised({ date }, by) {
      checkDate(date);
      const optimiser = deps.optimiser;
      const travelTimes = deps.travelTimes;
      if (!optimiser || !travelTimes) throw new AppError('unavailable', 'No round optimiser is configured.');
      return transact((stores) => optimiseDay(stores, date, optimiser, travelTimes, by));
    },

    async courierDay(courierId, date) {
      const day = date === undefined ? parisToday(clock()) : checkDate(date);
      const rounds = await deps.stores.rounds.roundsOfDay(day, courierId);
      // The rounds are this courier's only: the recipients' words go to the courier of the delivery,
      // never to another courier.
      const json = await roundsJson(deps.stores, rounds, deps.recipientChoices);
      const refs = json.flatMap(deliveryRefs);
      const etas = deps.etas && refs.length > 0 ? await deps.etas(refs) : new Map<string, string>();
      const vehicles = json.some((r) => r.vehicle_id)
        ? new Map((await deps.stores.fleet.vehicles()).map((v) => [v.id, v]))
        : new Map<string, Vehicle>();
      const withWay = [];
      for (const { id, name, sort_codes, stops, vehicle_id } of json) {
        const kind = vehicle_id ? vehicles.get(vehicle_id)?.kind : undefined;
        const profile = kind ? PROFILE_OF_KIND[kind] : undefined;
        withWay.push({ id, name, sort_codes, stops: await courierStops(stops, etas, profile) });
      }
      return { date: day, rounds: withWay };
    },

    roundOfOrder: (orderId, date) => deps.stores.rounds.roundOfOrder(String(orderId), date),
  };

  /** The round's delivery stops with the way to each and the distance to the next. */
  async function courierStops(
    stops: readonly StopJson[],
    etas: ReadonlyMap<string, string>,
    profile: VehicleProfile | undefined,
  ): Promise<CourierStopJson[]> {
    const deliveries = stops.flatMap((s) => (s.kind === 'delivery' ? [s] : []));
    const points = deliveries.flatMap((s) => (s.order.delivery_location ? [s.order.delivery_location] : []));
    const matrix = deps.distances && points.length > 1 ? await deps.distances(points, profile) : null;
    const indexOf = new Map(points.map((p, i) => [p, i]));
    return stops.map((stop) => {
      if (stop.kind !== 'delivery') return stop;
      const k = deliveries.indexOf(stop);
      const next = deliveries[k + 1];
      const from = stop.order.delivery_location ? indexOf.get(stop.order.delivery_location) : undefined;
      const to = next?.order.delivery_location ? indexOf.get(next.order.delivery_location) : undefined;
      const metres = matrix && from !== undefined && to !== undefined ? matrix[from]?.[to] : undefined;
      return {
        ...stop,
        navigation: navigationLinks(
          stop.order.delivery_location,
          // The address as given usually holds its postcode and city already.
          stop.order.postcode && !(stop.order.address ?? '').includes(stop.order.postcode)
            ? [stop.order.address, stop.order.postcode, stop.order.city].filter(Boolean).join(' ')
            : stop.order.address,
        ),
        next_stop_distance_m: metres === undefined ? null : Math.round(metres),
        eta: etas.get(stop.order.tracking_ref) ?? null,
      };
    });
  }
}
