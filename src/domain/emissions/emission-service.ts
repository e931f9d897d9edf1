import { invalidField } from '../../errors.ts';
import { parsePeriod, periodBounds } from '../invoices/billing-period.ts';
import type { SellerIdentity } from '../invoices/seller.ts';
import type { Order } from '../orders/order-fields.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import { orderEmission } from './allocation.ts';
import { EMISSION_METHOD, EMISSION_METHOD_TEXT } from './emission-method.ts';
import type { EmissionStatement, EmissionStore, RoundDistances, StatementMonth } from './ports.ts';

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
}

export function emissionService(deps: {
  rounds: RoundDistances;
  store: EmissionStore;
  seller: Readonly<SellerIdentity>;
}): EmissionService {
  const { rounds, store } = deps;

  async function figureOf(order: { id: string; zone: Order['deliveryZone']; service: Order['service'] }) {
    const legs = await rounds.roundsOfOrder(order.id);
    return orderEmission({ orderId: order.id, zone: order.zone, service: order.service }, legs);
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
        methodText: EMISSION_METHOD_TEXT,
      };
    },
  };
  return service;
}
