/**
 * Rounds (SPEC §10, decision 0006): one courier's day, its stops in the order they are made. The
 * planning rule lives here, on plain values, so it is tested without a database.
 */

/**
 * What the optimiser planned of a stop, and the operator's pin (issue 37): absent on a stop planned
 * by sort code or by hand (no arrival, no leg), unpinned.
 */
interface StopPlan {
  /** Re-optimising keeps it on its round, in its order among the round's pins. */
  pinned?: boolean;
  /** When the courier is planned at the door. */
  plannedArrival?: Date | null;
  /** Metres from the previous stop (the hub for the first). */
  legDistanceM?: number | null;
}

/** A stop as stored: a pickup (by id) or a delivery (by the order's row id). */
export type StopRef = ({ kind: 'pickup'; pickupId: string } | { kind: 'delivery'; orderId: string }) &
  StopPlan;

/** What the optimiser planned of a round (all null: planned by sort code or by hand). */
export interface RoundPlan {
  vehicleId: string | null;
  /** From the hub back to it, metres; and seconds on the road. */
  plannedDistanceM: number | null;
  plannedDurationS: number | null;
  /** The engine that planned it (`in-process`, `vroom`). */
  plannedBy: string | null;
}

export interface Round {
  id: string;
  date: string;
  name: string;
  courierId: string | null;
  sortCodes: string[];
  /** In the order they are made (positions 1..n). */
  stops: StopRef[];
  /** Each change of the round adds one: an edit naming an older version is refused (round_conflict). */
  version: number;
  plan: RoundPlan;
  /**
   * Metres driven, hub to hub, its stops in the order they were delivered: set once the round
   * finished (domain/emissions, migration 0055); null before, absent where not read.
   */
  drivenDistanceM?: number | null;
}

/** A round without its version and plan: what the sort-code planning reads. */
export type RoundOutline = Omit<Round, 'version' | 'plan'>;

/** Something to do on the day, with what the planner groups and orders it by. */
export type Candidate = StopRef & {
  sortCode: string;
  /** The delivery postcode, or the pickup address' ('' when none). */
  postcode: string;
  address: string;
};

/** A round as the plan leaves it: `id` null for a new one. */
export interface PlannedRound {
  id: string | null;
  name: string;
  courierId: string | null;
  sortCodes: string[];
  stops: StopRef[];
  /** Whether anything of it changed (written only then). */
  changed: boolean;
}

export const NO_PLAN: RoundPlan = {
  vehicleId: null,
  plannedDistanceM: null,
  plannedDurationS: null,
  plannedBy: null,
};

/** The stop without its plan (its identity only). */
export const bareStop = (stop: StopRef): StopRef =>
  stop.kind === 'pickup'
    ? { kind: 'pickup', pickupId: stop.pickupId }
    : { kind: 'delivery', orderId: stop.orderId };

export const stopKey = (stop: StopRef): string =>
  stop.kind === 'pickup' ? `pickup:${stop.pickupId}` : `delivery:${stop.orderId}`;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The planner's order: pickups first (by postcode, then address), then deliveries by postcode,
 * then address; equal ones by id, so the same day plans the same way twice.
 */
function plannerOrder(a: Candidate, b: Candidate): number {
  if (a.kind !== b.kind) return a.kind === 'pickup' ? -1 : 1;
  return byText(a.postcode, b.postcode) || byText(a.address, b.address) || byText(stopKey(a), stopKey(b));
}

/**
 * Plans a day: every candidate not already on one of the day's rounds joins the round of its sort
 * code (the planner's round named after the code, else any round covering the code), at its end;
 * a code without a round gets a new one. What the day's rounds already hold stays where it is
 * (assignments, the operator's order, stops already scanned), except the deliveries `dropped`
 * (orders cancelled since): re-planning only adds.
 */
export function planDay(
  existing: readonly RoundOutline[],
  candidates: readonly Candidate[],
  dropped: ReadonlySet<string>,
) {
  const planned: PlannedRound[] = existing.map((r) => {
    const stops = r.stops.filter((s) => !dropped.has(stopKey(s)));
    return {
      id: r.id,
      name: r.name,
      courierId: r.courierId,
      sortCodes: [...r.sortCodes],
      stops,
      changed: stops.length !== r.stops.length,
    };
  });
  const onRound = new Set(planned.flatMap((r) => r.stops.map(stopKey)));
  const names = new Set(planned.map((r) => r.name));
  const fresh = candidates.filter((c) => !onRound.has(stopKey(c))).sort(plannerOrder);
  const bySortCode = new Map<string, PlannedRound>();
  for (const round of planned) {
    for (const code of round.sortCodes) {
      const held = bySortCode.get(code);
      // The planner's own round of a code (named after it) wins over another covering it too.
      if (!held || (round.name === code && held.name !== code)) bySortCode.set(code, round);
    }
  }
  for (const candidate of fresh) {
    // A candidate given twice is still one stop.
    if (onRound.has(stopKey(candidate))) continue;
    onRound.add(stopKey(candidate));
    let round = bySortCode.get(candidate.sortCode);
    if (!round) {
      let name = candidate.sortCode;
      for (let n = 2; names.has(name); n++) name = `${candidate.sortCode} (${n})`;
      names.add(name);
      round = { id: null, name, courierId: null, sortCodes: [candidate.sortCode], stops: [], changed: true };
      planned.push(round);
      bySortCode.set(candidate.sortCode, round);
    }
    const { sortCode: _, postcode: __, address: ___, ...stop } = candidate;
    round.stops.push(stop as StopRef);
    round.changed = true;
  }
  return planned;
}

/**
 * Gives each round without a courier to an enabled courier, round-robin: each to the courier with
 * the fewest rounds that day so far (then in the list's order), so re-planning evens out too.
 */
export function assignRoundRobin(rounds: PlannedRound[], courierIds: readonly string[]): void {
  if (courierIds.length === 0) return;
  const load = new Map(courierIds.map((id) => [id, 0]));
  for (const r of rounds)
    if (r.courierId && load.has(r.courierId)) load.set(r.courierId, load.get(r.courierId)! + 1);
  for (const round of [...rounds].sort((a, b) => byText(a.name, b.name))) {
    if (round.courierId) continue;
    let best = courierIds[0]!;
    for (const id of courierIds) if (load.get(id)! < load.get(best)!) best = id;
    round.courierId = best;
    round.changed = true;
    load.set(best, load.get(best)! + 1);
  }
}
