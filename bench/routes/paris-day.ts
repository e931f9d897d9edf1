/**
 * A realistic delivery day for the timed scenario: 400 stops at real Paris addresses
 * (`bench-data/addresses/paris.csv`), from a hub at Chapelle International (75018), for 12 couriers
 * — 8 vans and 4 cargo bikes, each with its own travel times — between 08:00 and 18:00 with a
 * 30-minute lunch break between 12:00 and 14:00. Travel is the great-circle distance times a detour
 * factor at a city speed per vehicle type. Everything is drawn from a fixed seed, so every run
 * solves the same day.
 */

import type {
  RoutingJob,
  RoutingProblem,
  RoutingShipment,
  TimeWindow,
} from '../../src/domain/routing/ports.ts';
import { Random } from '../../src/domain/routing/random.ts';

const HUB = { lat: 48.899, lng: 2.364 };
const HOUR = 3600;

/** Door-to-door speed and detour over the straight line, per vehicle type. */
const PROFILES = {
  van: { speedKmh: 18, detour: 1.35 },
  'cargo-bike': { speedKmh: 14, detour: 1.2 },
} as const;

export interface Place {
  lat: number;
  lng: number;
}

/** The addresses' points: `address,postcode,lat,lng`, the address quoted. */
export function parseAddresses(text: string): Place[] {
  const places: Place[] = [];
  for (const line of text.split(/\r?\n/).slice(1)) {
    const match = /,(-?\d+\.\d+),(-?\d+\.\d+)\s*$/.exec(line);
    if (match) places.push({ lat: Number(match[1]), lng: Number(match[2]) });
  }
  return places;
}

function metres(a: Place, b: Place): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

function matrices(places: Place[], profile: keyof typeof PROFILES) {
  const { speedKmh, detour } = PROFILES[profile];
  const distances = places.map((a) => places.map((b) => Math.round(metres(a, b) * detour)));
  const durations = distances.map((row) => row.map((m) => Math.round(m / (speedKmh / 3.6))));
  return { durations, distances };
}

const SLOTS: TimeWindow[] = [
  [9 * HOUR, 11 * HOUR],
  [11 * HOUR, 13 * HOUR],
  [14 * HOUR, 16 * HOUR],
  [16 * HOUR, 18 * HOUR],
];

/** The day: 340 deliveries, 30 collections (returns), 15 shop-to-customer pairs (400 stops). */
export function parisDay(addresses: Place[], seed = 2026): RoutingProblem {
  if (addresses.length < 400)
    throw new Error(`the day needs 400 addresses, the file has ${addresses.length}`);
  const rng = new Random(seed);
  const shuffled = [...addresses];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const stops = shuffled.slice(0, 400);
  const places = [HUB, ...stops];
  const parcel = () => {
    const count = 1 + rng.below(3);
    return [count, count * (300 + rng.below(6000))];
  };
  const window = (): TimeWindow[] | undefined => {
    const draw = rng.next();
    if (draw < 0.5) return undefined;
    if (draw < 0.9) return [SLOTS[rng.below(4)]!];
    // Two windows: "morning or evening".
    return [SLOTS[0]!, SLOTS[3]!];
  };
  const jobs: RoutingJob[] = [];
  for (let i = 0; i < 370; i++) {
    const amount = parcel();
    const collect = i >= 340;
    const bulky = !collect && rng.next() < 0.04;
    const windows = window();
    jobs.push({
      id: `${collect ? 'return' : 'parcel'}-${i + 1}`,
      location: i + 1,
      service: collect ? 300 : 120 + 60 * amount[0]!,
      ...(collect ? { pickup: amount } : { delivery: bulky ? [amount[0]!, 40_000] : amount }),
      ...(windows ? { timeWindows: windows } : {}),
      ...(bulky ? { skills: ['van'] } : {}),
    });
  }
  const shipments: RoutingShipment[] = [];
  for (let k = 0; k < 15; k++) {
    shipments.push({
      id: `same-day-${k + 1}`,
      pickup: { location: 371 + 2 * k, service: 300, timeWindows: [[10 * HOUR, 12 * HOUR]] },
      delivery: { location: 372 + 2 * k, service: 180, timeWindows: [[14 * HOUR, 18 * HOUR]] },
      amount: parcel(),
    });
  }
  const shift: TimeWindow = [8 * HOUR, 18 * HOUR];
  const lunch = [{ id: 'lunch', service: 30 * 60, timeWindows: [[12 * HOUR, 14 * HOUR] as const] }];
  return {
    matrices: { van: matrices(places, 'van'), 'cargo-bike': matrices(places, 'cargo-bike') },
    jobs,
    shipments,
    vehicles: [
      ...Array.from({ length: 8 }, (_, k) => ({
        id: `van-${k + 1}`,
        profile: 'van',
        start: 0,
        end: 0,
        capacity: [90, 800_000],
        timeWindow: shift,
        skills: ['van'],
        breaks: lunch,
      })),
      ...Array.from({ length: 4 }, (_, k) => ({
        id: `bike-${k + 1}`,
        profile: 'cargo-bike',
        start: 0,
        end: 0,
        capacity: [30, 150_000],
        timeWindow: shift,
        breaks: lunch,
      })),
    ],
  };
}
