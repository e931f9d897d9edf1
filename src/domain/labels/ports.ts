import type { OutboxEvent } from '../../events/outbox.ts';
import type { Order } from '../orders/order.ts';
import type { SortCodeRule } from './sort-codes.ts';

/** An order as a label needs it, with when its label was first printed. */
export interface LabelledOrder extends Order {
  labelledAt: Date | null;
}

/** The record of first prints, on one connection (the pool, or a caller's transaction). */
export interface LabelPrintStore {
  /**
   * Records a first print: sets `labelled_at` of the orders not labelled yet, and writes each
   * event given (keyed by tracking ref) only for an order this statement labelled, so a print
   * racing another emits one event per order. Returns the refs it labelled.
   */
  markLabelled(
    brandId: string,
    orderIds: readonly number[],
    at: Date,
    events: ReadonlyArray<{ trackingRef: string; event: OutboxEvent }>,
  ): Promise<string[]>;
}

/** What labels need of storage: the brand's orders by reference, the print record, the sort codes. */
export interface LabelStore extends LabelPrintStore {
  /** The brand's orders among these (normalised) references; another brand's are simply absent. */
  findOrders(brandId: string, trackingRefs: readonly string[]): Promise<LabelledOrder[]>;
  sortCodes(): Promise<SortCodeRule[]>;
  /** Replaces the whole table, in one transaction. */
  replaceSortCodes(rules: readonly SortCodeRule[], at: Date): Promise<void>;
}
