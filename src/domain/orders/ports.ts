import type { OutboxEvent } from '../../events/outbox.ts';
import type { PickupKey } from '../pickups/pickup-day.ts';
import type { Order, OrderWithEvents } from './order.ts';
import type { OrderLinks } from './order-json.ts';
import type { ChangesQuery, JsonPage, PageQuery } from './order-page.ts';
import type { OrderStatus } from './state-machine.ts';

export type NewOrder = Omit<Order, 'id' | 'pickedUpAt' | 'updatedAt'>;

/**
 * A row another repository writes in the same statement as an order's move, only if the move is
 * made (the courier's scan that made it, its door attempt): one statement where a transaction took
 * four round trips. Built by the repository that owns the table (its columns and their types).
 */
export interface RowWithMove {
  table: string;
  columns: readonly { name: string; type: string }[];
  values: readonly unknown[];
}

/** A row written with a move already existed (its primary key): nothing of the move was written. */
export class AlreadyWritten extends Error {
  constructor(readonly table: string) {
    super(`a row of ${table} written with the move already exists`);
    this.name = 'AlreadyWritten';
  }
}

export interface OrderStore {
  /**
   * Inserts the order with its history (the creation event) and its stored JSON, and its outbox
   * event when someone listens, in one statement (order-inserts.ts). Returns the order with the
   * texts of its stored JSON and history (the creation's answer reuses them), or null when the
   * tracking ref is already taken (the caller draws another).
   */
  insert(
    order: NewOrder,
    note: string | null,
    event: OutboxEvent | null,
    /** Written with it too: `order.address_flagged` when its address has flags (null: nobody listens). */
    also?: readonly (OutboxEvent | null)[],
  ): Promise<{
    order: Order;
    storedJson: string;
    history: string;
  } | null>;
  /** The order with its events, oldest first; `brandId` null only for the operator. */
  findByRef(trackingRef: string, brandId: string | null): Promise<OrderWithEvents | null>;
  /** The operator's view of several orders at once (a courier's batch of scans), by reference. */
  findByRefs(trackingRefs: readonly string[]): Promise<Map<string, OrderWithEvents>>;
  /** The order behind a tracking page, with its events and its brand's name. */
  findByTrackingToken(token: string): Promise<{
    order: OrderWithEvents;
    brandName: string;
  } | null>;
  /**
   * The brand's order in its public detail JSON (`orderDetailJson`), from the text stored with
   * the row (order-details.ts): the detail is a hot read, and this spares building an Order and
   * serialising it again.
   */
  findDetailJson(trackingRef: string, brandId: string, links: OrderLinks): Promise<string | null>;
  /**
   * A page of orders, newest first (`after`: the internal id of the previous page's last order),
   * each in its public JSON (`orderJson`) from the text stored with the row: the list route is the
   * heaviest read, and this spares it parsing some twenty columns and two timestamps per order and
   * serializing them again. A test holds this text byte-equal to `orderJson` of `findByRef`.
   * On the pool, the pages asked for in one turn share a statement (order-pages.ts).
   */
  listJson(brandId: string, q: PageQuery, links: OrderLinks): Promise<JsonPage>;
  /**
   * A page of the change feed: the brand's orders by (updated_at, id), oldest first, changed
   * before the horizon `q.before` (see CHANGE_FEED_LAG_MS), after `q.since` and after the previous
   * page's last position. Each row comes with its position, `updated_at` to the microsecond, for
   * the cursor. Index orders_brand_updated_idx (migration 0019); statements prepared per filter set.
   */
  listChangedJson(
    brandId: string,
    q: ChangesQuery,
    links: OrderLinks,
  ): Promise<
    Array<{
      id: number;
      at: string;
      json: string;
    }>
  >;
  /** Moves the order from `from` to `to` (with its event and outbox events); null if it was no longer in `from`. */
  transition(
    orderId: number,
    change: {
      from: OrderStatus;
      to: OrderStatus;
      note: string | null;
      at: Date;
      set?: Partial<NewOrder>;
      /** The pickup the order joins (its row created by the same statement if new); `set` names it. */
      joins?: PickupKey;
    },
    events: readonly (OutboxEvent | null)[],
    /** Written by the same statement when the move is made; AlreadyWritten when one exists. */
    withMove?: readonly RowWithMove[],
  ): Promise<OrderWithEvents | null>;
  /** Updates details without a status change, if the order is still in `status`; appends an event. */
  updateDetails(
    orderId: number,
    change: {
      status: OrderStatus;
      note: string;
      at: Date;
      set: Partial<NewOrder>;
      joins?: PickupKey;
    },
    /** Written by the same statement when the change is made (an address flagged). */
    events?: readonly (OutboxEvent | null)[],
  ): Promise<OrderWithEvents | null>;
  /**
   * The `check_addresses` job's answer on an order (its location, warnings, whether a check is
   * still due), without a history entry, only if the order still has `address` and a check due;
   * with its events. Null when the order changed meanwhile.
   */
  recordPlace(
    orderId: number,
    change: { address: string; at: Date; set: Partial<NewOrder> },
    events: readonly (OutboxEvent | null)[],
  ): Promise<Order | null>;
  /** Orders whose address check is due by `now` (oldest first), with what the check needs. */
  addressChecksDue(now: Date, limit: number): Promise<Order[]>;
  /**
   * Bills the order again from `at` (its month's invoice, not issued yet), at its current price:
   * a re-priced order whose issued invoice line a credit note just took back (migration 0027).
   */
  rebill(orderId: number, at: Date): Promise<void>;
  /**
   * Stores the JSON of the rows stored under another version (see STORED_JSON_VERSION), rendered
   * from their columns, among the `limit` orders after the id `after` — all of them, or with
   * `onlyMarked` only those marked stale (json_version NULL, a partial index). Returns how many it
   * rewrote and the last id it looked at (null past the end). Reads of those rows were right
   * meanwhile, only slower.
   */
  refreshStoredJson(
    after: number,
    limit: number,
    onlyMarked?: boolean,
  ): Promise<{
    refreshed: number;
    last: number | null;
  }>;
  /** Whether a pass over every order finished for this version of the stored JSON. */
  storedJsonPassDone(): Promise<boolean>;
  recordStoredJsonPass(at: Date): Promise<void>;
}
