import { invalidField } from '../../errors.ts';
import { addDays } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { PROFILE_OF_KIND } from '../fleet/fleet.ts';
import { parsePeriod, periodBounds } from '../invoices/billing-period.ts';
import type { SellerIdentity } from '../invoices/seller.ts';
import type { Order } from '../orders/order-fields.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { GeoPoint } from '../places/location.ts';
import type { TravelTimes } from '../places/ports.ts';
import { orderEmission } from './allocation.ts';
import {
  DEFAULT_EMISSION_SETTINGS,
  type EmissionSettings,
  methodId,
  methodText,
} from './emission-settings.ts';
import type {
  DrivenRounds,
  EmissionStatement,
  EmissionStore,
  FinishedRound,
  RoundDistances,
  StatementMonth,
} from './ports.ts';

import { renderStatementPdf } from './statement-pdf.ts';

/** The statuses whose order carries a figure: the parcel's transport is over. */
const EMITTING: ReadonlySet<OrderStatus> = new Set(['delivered', 'returned']);

/** The order's columns a delivery or return sets (order-fields.ts). */
type EmissionColumns = Pick<
  Order,
  'co2eGrams' | 'co2eDataLevel' | 'co2eMethod' | 'co2eVehicle' | 'co2eDistanceM' | 'co2eAt'
>;

export interface EmissionService {
  /**
   * The columns a move to `to` sets: the order's CO₂e when it is delivered or returned, nothing
   * otherwise. Read before the move's statement, which writes them with the status.
   */
  onMove(order: Order, to: OrderStatus, at: Date): Promise<Partial<EmissionColumns>>;
  /** Computes again the figures of the orders delivered or returned in `period` (YYYY-MM). */
  recompute(period: string): Promise<{ orders: number }>;
  statement(brandId: string, period: string): Promise<EmissionStatement>;
  /** The brand's months with a figure, newest first (the account area's list; five years at most). */
  months(brandId: string): Promise<StatementMonth[]>;
  /** The statement as a PDF, for the brand `name`. */
  statementPdf(brand: { id: string; name: string }, period: string): Promise<Buffer>;
  /**
   * Stores the driven distance of the rounds finished since the last run (the last 7 days'), each
   * stop's share of it, and computes again the CO₂e of their delivered or returned orders with it
   * (data level 3). Returns how many rounds and orders.
   */
  recordDrivenDistances(): Promise<{ rounds: number; orders: number }>;
}

/** How far back finished rounds are looked for: a week covers any outage of the job. */
const DRIVEN_LOOKBACK_DAYS = 7;

/**
 * The distance a finished round was driven: hub → each stop in the order its outcome came → hub,
 * each leg read from the travel-times port for the vehicle's profile (the road's distance with OSRM,
 * else the estimate). A stop with no known place is left out of the path (its leg null).
 */
async function drivenDistance(
  round: FinishedRound,
  travelTimes: TravelTimes,
): Promise<{ drivenM: number; legs: { position: number; drivenPosition: number; legM: number }[] }> {
  const placed = round.stops.filter((s): s is typeof s & { point: GeoPoint } => s.point !== null);
  const points = [round.hub, ...placed.map((s) => s.point), round.hub];
  const { distances } = await travelTimes.matrix(points, PROFILE_OF_KIND[round.vehicle]);
  const leg = (i: number) => Math.max(0, Math.round(distances[i]?.[i + 1] ?? 0));
  const legs = placed.map((s, i) => ({ position: s.position, drivenPosition: i + 1, legM: leg(i) }));
  const drivenM = legs.reduce((sum, l) => sum + l.legM, 0) + leg(placed.length);
  return { drivenM, legs };
}

export function emissionService(deps: {
  rounds: RoundDistances;
  store: EmissionStore;
  seller: Readonly<SellerIdentity>;
  /** The operator's factors and allocation rule (EMISSION_*); the defaults when absent. */
  settings?: EmissionSettings;
  /** The finished rounds' driven distances (absent: never computed, the planned distance stays). */
  driven?: { rounds: DrivenRounds; travelTimes: TravelTimes; clock: () => Date };
}): EmissionService {
  const { rounds, store } = deps;
  const settings = deps.settings ?? DEFAULT_EMISSION_SETTINGS;
  const EMISSION_METHOD = methodId(settings);

  async function figureOf(order: { id: string; zone: Order['deliveryZone']; service: Order['service'] }) {
    const legs = await rounds.roundsOfOrder(order.id);
    return orderEmission({ orderId: order.id, zone: order.zone, service: order.service }, legs, settings);
  }

  const checkedPeriod = (period: string) => {
    let month: string;
    try {
      month = parsePeriod(period);
    } catch {
      throw invalidField('period', 'must be a month, YYYY-MM');
    }
    return { month, ...periodBounds(month) };
  };

  const service: EmissionService = {
    async onMove(order, to, at) {
      if (!EMITTING.has(to)) return {};
      const e = await figureOf({ id: String(order.id), zone: order.deliveryZone, service: order.service });
      return {
        co2eGrams: e.grams,
        co2eDataLevel: e.dataLevel,
        co2eMethod: EMISSION_METHOD,
        co2eVehicle: e.vehicle,
        co2eDistanceM: e.distanceM,
        co2eAt: at,
      };
    },

    async recompute(period) {
      const { start, end } = checkedPeriod(period);
      let after: string | null = null;
      let count = 0;
      for (;;) {
        const page = await store.emittingOrders(start, end, after, 500);
        for (const order of page) {
          const e = await figureOf(order);
          await store.record(order.id, {
            grams: e.grams,
            dataLevel: e.dataLevel,
            method: EMISSION_METHOD,
            vehicle: e.vehicle,
            distanceM: e.distanceM,
            at: order.at,
          });
        }
        count += page.length;
        if (page.length < 500) return { orders: count };
        after = page[page.length - 1]!.id;
      }
    },

    months: (brandId) => store.months(brandId, 60),

    async recordDrivenDistances() {
      if (!deps.driven) return { rounds: 0, orders: 0 };
      const { rounds: driven, travelTimes, clock } = deps.driven;
      const today = parisToday(clock());
      const finished = await driven.finishedWithoutDistance(addDays(today, -DRIVEN_LOOKBACK_DAYS), today, 50);
      let orders = 0;
      for (const round of finished) {
        const { drivenM, legs } = await drivenDistance(round, travelTimes);
        if (!(await driven.recordDriven(round.roundId, drivenM, legs, clock()))) continue;
        for (const order of await driven.emittingOrdersOf(round.roundId)) {
          const e = await figureOf(order);
          await store.record(order.id, {
            grams: e.grams,
            dataLevel: e.dataLevel,
            method: EMISSION_METHOD,
            vehicle: e.vehicle,
            distanceM: e.distanceM,
            at: order.at,
          });
          orders++;
        }
      }
      return { rounds: finished.length, orders };
    },

    async statementPdf(brand, period) {
      const statement = await service.statement(brand.id, period);
      const { end } = periodBounds(statement.period);
      return renderStatementPdf({ statement, seller: deps.seller, brandName: brand.name, createdAt: end });
    },

    async statement(brandId, period) {
      const { month, start, end } = checkedPeriod(period);
      const rows = await store.statement(brandId, start, end);
      const totals = { orders: 0, parcels: 0, distanceM: 0, grams: 0 };
      for (const row of rows) {
        totals.orders += row.orders;
        totals.parcels += row.parcels;
        totals.distanceM += row.distanceM;
        totals.grams += row.grams;
      }
      const dataLevels = [...new Set(rows.map((r) => r.dataLevel))].sort();
      return {
        period: month,
        rows,
        totals,
        dataLevels,
        method: EMISSION_METHOD,
        methodText: methodText(settings),
      };
    },
  };
  return service;
}
