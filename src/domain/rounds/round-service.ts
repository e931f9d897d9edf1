import { AppError, type ErrorDetail, invalidField } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import { changedFields } from '../audit/changes.ts';
import type { AuditEntry } from '../audit/ports.ts';
import { isIsoDate } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { extractPostcode } from '../coverage/extract-postcode.ts';
import { lookupPostcode } from '../coverage/postcodes.ts';
import type { PricingZone } from '../coverage/zones.ts';
import { prefixedId } from '../ids.ts';
import { type SortCodeTable, sortCodeTable } from '../labels/sort-codes.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { DeliveryLocation, GeoPoint } from '../places/location.ts';
import { type NavigationLinks, navigationLinks } from '../places/navigation.ts';
import type { RecipientChoices } from '../recipients/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import type { StopDetail } from './ports.ts';
import { assignRoundRobin, type Candidate, planDay, type Round, type StopRef, stopKey } from './round.ts';

/** Orders with nothing left to deliver (or no address to deliver to): never a new stop. */
const NOT_TO_DELIVER: ReadonlySet<OrderStatus> = new Set([
  'awaiting_address',
  'delivered',
  'returned',
  'cancelled',
]);

/** A stop as decision 0006 gives it (the courier's day, the operator's rounds). */
type StopJson =
  | {
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
    }
  | {
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
    };

export interface RoundJson {
  id: string;
  date: string;
  name: string;
  courier_id: string | null;
  sort_codes: string[];
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

/** A stop as the operator names it: an order by tracking reference, or a pickup by id. */
type StopInput = { tracking_ref: string } | { pickup_id: string };

export interface RoundServiceDeps {
  transact: Transact;
  stores: Stores;
  clock: Clock;
  /**
   * What recipients chose for their deliveries, in clear, by order row id (domain/recipients): in
   * the courier's day (their stops only) and the operator's rounds (docs/recipients.md, who sees them).
   */
  recipientChoices?: (orderIds: readonly string[]) => Promise<ReadonlyMap<string, RecipientChoices>>;
  /** Metres between consecutive points of a round (domain/places' TravelTimes), for the courier's day. */
  distances?: (points: readonly GeoPoint[]) => Promise<number[][]>;
  /** The estimated arrivals of these orders (tracking refs → RFC 3339), for the courier's day. */
  etas?: (trackingRefs: readonly string[]) => Promise<ReadonlyMap<string, string>>;
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
  /** Gives the round to a courier (id or e-mail; null leaves it unassigned). */
  assign(roundId: string, courier: string | null, by: Author): Promise<RoundJson>;
  /** The operator's order of the round's stops (the same set or another, checked whole). */
  setStops(roundId: string, stops: StopInput[], by: Author): Promise<RoundJson>;
  /** The signed-in courier's rounds of the day (default: today in Paris), nobody else's. */
  courierDay(courierId: string, date?: string): Promise<{ date: string; rounds: CourierRoundJson[] }>;
  /** The round an order (its row id) is on that day, for the scans' `wrong_round`; null when none. */
  roundOfOrder(
    orderId: string | number,
    date: string,
  ): Promise<{ roundId: string; courierId: string | null } | null>;
}

const ROUND_ID = /^rnd_[0-9a-f]{16}$/;
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
  if (d.kind === 'pickup') {
    const p = d.pickup;
    return {
      position: d.position,
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
    stops: details.filter((d) => d.roundId === r.id).map((d) => stopJson(table, d, choices)),
  }));
}

/** What the trail keeps of a round: its courier and its stops (references, never the recipients' data). */
const roundFields = (r: RoundJson) => ({ courier_id: r.courier_id, stops: r.stops.map(stopReference) });
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
  action: 'round.planned' | 'round.created' | 'round.stops_set' | 'round.assigned',
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
        const round: Round = { id: prefixedId('rnd'), date, name, courierId, sortCodes: [], stops };
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

    async assign(roundId, courier, by) {
      return transact(async (stores) => {
        const round = await findRound(stores, roundId);
        const courierId = courier === null ? null : await enabledCourier(stores, courier, 'courier_id');
        await stores.rounds.update(round.id, { courierId });
        const after = (
          await roundsJson(stores, [(await stores.rounds.find(round.id))!], deps.recipientChoices)
        )[0]!;
        await recordChanges(stores, [
          roundChange('round.assigned', by, { ...after, courier_id: round.courierId }, after),
        ]);
        return after;
      });
    },

    async setStops(roundId, inputs, by) {
      return transact(async (stores) => {
        const found = await findRound(stores, roundId);
        await stores.rounds.lockDay(found.date);
        const round = (await stores.rounds.find(found.id))!;
        const before = (await roundsJson(stores, [round]))[0]!;
        const kept = new Set(round.stops.flatMap((s) => (s.kind === 'delivery' ? [s.orderId] : [])));
        const stops = await resolveStops(stores, round.date, inputs, round.id, kept);
        await stores.rounds.replaceStops(round.id, round.date, stops);
        await stores.rounds.update(round.id, { sortCodes: await sortCodesOf(stores, { ...round, stops }) });
        const after = (
          await roundsJson(stores, [(await stores.rounds.find(round.id))!], deps.recipientChoices)
        )[0]!;
        await recordChanges(stores, [roundChange('round.stops_set', by, before, after)]);
        return after;
      });
    },

    async courierDay(courierId, date) {
      const day = date === undefined ? parisToday(clock()) : checkDate(date);
      const rounds = await deps.stores.rounds.roundsOfDay(day, courierId);
      // The rounds are this courier's only: the recipients' words go to the courier of the delivery,
      // never to another courier.
      const json = await roundsJson(deps.stores, rounds, deps.recipientChoices);
      const refs = json.flatMap(deliveryRefs);
      const etas = deps.etas && refs.length > 0 ? await deps.etas(refs) : new Map<string, string>();
      const withWay = [];
      for (const { id, name, sort_codes, stops } of json)
        withWay.push({ id, name, sort_codes, stops: await courierStops(stops, etas) });
      return { date: day, rounds: withWay };
    },

    roundOfOrder: (orderId, date) => deps.stores.rounds.roundOfOrder(String(orderId), date),
  };

  /** The round's delivery stops with the way to each and the distance to the next. */
  async function courierStops(
    stops: readonly StopJson[],
    etas: ReadonlyMap<string, string>,
  ): Promise<CourierStopJson[]> {
    const deliveries = stops.flatMap((s) => (s.kind === 'delivery' ? [s] : []));
    const points = deliveries.flatMap((s) => (s.order.delivery_location ? [s.order.delivery_location] : []));
    const matrix = deps.distances && points.length > 1 ? await deps.distances(points) : null;
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
