import { AppError, fieldProblem, invalidField, validateAll } from '../../errors.ts';
import { STATUS_EVENTS } from '../../events/catalogue.ts';
import type { Outbox, OutboxEvent } from '../../events/outbox.ts';
import type { Author } from '../audit/actor.ts';
import { changedFields } from '../audit/changes.ts';
import type { AuditEntry } from '../audit/ports.ts';
import { promisedDate } from '../calendar/promised-date.ts';
import type { Place } from '../coverage/locate-address.ts';
import type { EmissionService } from '../emissions/emission-service.ts';
import { creditCancelledOrder, rebillRepricedOrder } from '../invoices/credit-notes.ts';
import type { StoredCreditNote } from '../invoices/ports.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { type PickupKey, pickupKeyFor } from '../pickups/pickup-day.ts';
import { UNCERTAIN_BELOW } from '../places/address-check.ts';
import { parseBrandPoint } from '../places/coordinates.ts';
import type { PlacedAddress, PlaceService } from '../places/place-service.ts';
import { type AddressWarning, addressWarning, isAddressFlag, sameWarnings } from '../places/warnings.ts';
import { requirePrice } from '../pricing/grid.ts';
import type { GridService } from '../pricing/grid-service.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import type { Order, OrderWithEvents } from './order.ts';
import { NO_CO2E } from './order-fields.ts';
import {
  locateOrderAddresses,
  normaliseEmail,
  type OrderInput,
  type OrderPatch,
  parsePhone,
  validateOrderInput,
} from './order-input.ts';
import {
  type OrderDetailJson,
  type OrderJson,
  type OrderLinks,
  orderDetailJson,
  orderDetailJsonText,
  orderJson,
} from './order-json.ts';
import {
  changesQuery,
  encodeChangePosition,
  type ListOptions,
  listSort,
  orderChangesScope,
  orderListScope,
  pageQuery,
} from './order-page.ts';
import type { NewOrder, RowWithMove } from './ports.ts';
import {
  type Actor,
  assertTransition,
  EDITABLE_STATUSES,
  isOrderStatus,
  ORDER_STATUSES,
  type OrderStatus,
} from './state-machine.ts';
import {
  generateTrackingRef,
  generateTrackingToken,
  normaliseTrackingRef,
  TRACKING_TOKEN_PATTERN,
} from './tracking-ref.ts';

interface BrandContext {
  id: string;
  defaultPickupAddress: string | null;
  /** False for a test key's brand (its test twin): its orders are never dispatched. Default true. */
  livemode?: boolean;
}

/** A validated, priced order not written yet, and the outbox subscribers listening to its creation. */
interface PreparedOrder {
  row: NewOrder;
  listeners: string[];
  /** Who hears of its address's flags (`order.address_flagged`): none when it has none. */
  flaggedListeners: string[];
  /** The shop platform the order comes from, null for the API: a shop connector hears only of its own orders. */
  origin: string | null;
}

const REF_ATTEMPTS = 5;

type TransitionChange = Parameters<Stores['orders']['transition']>[1];
type DetailsChange = Parameters<Stores['orders']['updateDetails']>[1];

/**
 * A change of an order read and checked, not written yet (a cancellation, an edit): what it reads
 * (the order, who listens, the new price) is done before anything is written, so a caller writing
 * inside its own transaction (the HTTP layer's Idempotency-Key handling) never waits for a second
 * connection from the pool while it holds one. `none`: nothing to write (cancelling an order
 * already cancelled).
 */
type PreparedChange =
  | { kind: 'none'; order: OrderWithEvents }
  | {
      kind: 'transition';
      order: Order;
      change: TransitionChange;
      events: (OutboxEvent | null)[];
      /** Who hears of a credit note, for a cancellation (an issued invoice may bill the order). */
      creditListeners: readonly string[] | null;
      /**
       * The operator, courier or CLI making the move, recorded in the audit trail by the move's own
       * statement; null for the brand's own changes (its API key, the address it completes).
       */
      by: Author | null;
    }
  | {
      kind: 'details';
      order: Order;
      change: DetailsChange;
      /** Who hears of a credit note, for a re-priced pending order (an issued invoice may bill it). */
      rebillListeners: readonly string[] | null;
      /** Written with the change (an address flagged by it). */
      events: readonly (OutboxEvent | null)[];
    };

/** Everything a brand and the operator do with orders (SPEC §5). No HTTP here. */
export interface OrderService {
  /** Validates, prices and stores a new order. Nothing is stored on a refusal. */
  create(brand: BrandContext, input: OrderInput): Promise<OrderWithEvents>;
  /**
   * Everything a creation reads, done before anything is written: validation, the addresses, the
   * price and who listens. A caller that writes inside its own transaction (the HTTP layer's
   * Idempotency-Key handling) prepares first, so a connection held by a transaction never waits
   * for another from the pool (under load that would exhaust the pool). `origin`: the shop platform
   * the order comes from (its connector alone then hears of it), null for the API and the CLI.
   */
  prepare(brand: BrandContext, input: OrderInput, origin?: string | null): Promise<PreparedOrder>;
  /** Writes a prepared order (`store`: inside the caller's transaction, when it has one). */
  insert(prepared: PreparedOrder, store?: Stores['orders']): Promise<OrderWithEvents>;
  /**
   * `insert`, with the new order's detail JSON text (`detailJson`, stringified), assembled from
   * the texts the insert stored: only the HTTP answer needs it.
   */
  insertRendered(
    prepared: PreparedOrder,
    store?: Stores['orders'],
  ): Promise<{ order: OrderWithEvents; json: string }>;
  get(brandId: string, trackingRef: string): Promise<OrderWithEvents>;
  /** The brand's order as its public detail JSON text, rendered by the database (the hot read). */
  getDetailJson(brandId: string, trackingRef: string): Promise<string>;
  /**
   * Any brand's order, for the operator: recorded in the audit trail as a read of the recipient's
   * data (`recipient.read`, the order's reference, never the data), with what it was read for.
   */
  getAnyBrand(trackingRef: string, by: Author, view?: 'order' | 'notifications'): Promise<OrderWithEvents>;
  /**
   * The order behind a recipient's tracking page, and its brand's name. A malformed token is
   * answered like an unknown one, without a query: the page never tells whether an order exists.
   */
  track(token: string): Promise<{ order: OrderWithEvents; brandName: string }>;
  /**
   * Stores the JSON of the orders whose stored text is stale: once per rendering version, every
   * order (those written before a member of the order's JSON changed); then only those marked
   * stale (a fix by hand), through a partial index. The `refresh_order_json` job. Returns how many
   * orders it rewrote. A row an older release writes after the pass is rendered from its columns
   * (the same bytes) until its next change.
   */
  refreshStoredJson(): Promise<number>;
  /** The order's public JSON with its history (this deployment's links filled in). */
  detailJson(order: OrderWithEvents): OrderDetailJson;
  /**
   * A page of the brand's orders, each already rendered as `orderJson` text: newest first, or
   * with `sort=updated_at` the change feed (oldest change first, see CHANGE_FEED_LAG_MS).
   */
  listJson(brandId: string, options: ListOptions): Promise<{ orders: string[]; nextCursor: string | null }>;
  /**
   * Cancels an order before pickup. An order already cancelled is answered as it is: nothing is
   * written, no event (a retried cancellation is not an error).
   */
  cancel(brandId: string, trackingRef: string): Promise<OrderWithEvents>;
  /** What `cancel` reads and checks, nothing written: `applyChange` writes it. */
  prepareCancel(brandId: string, trackingRef: string): Promise<PreparedChange>;
  /** What `update` reads and checks (the new address located and priced), nothing written. */
  prepareUpdate(brandId: string, trackingRef: string, patch: OrderPatch): Promise<PreparedChange>;
  /**
   * Writes a prepared change (`stores`: inside the caller's transaction, when it has one; the
   * credit note a cancellation or a new price calls for is written in it too). 422
   * `invalid_transition` when the order changed since it was prepared.
   */
  applyChange(prepared: PreparedChange, stores?: Stores): Promise<OrderWithEvents>;
  /**
   * Operator (couriers' scans): any allowed move but completing an address, recorded in the audit
   * trail (`order.status_changed`) by the move's own statement.
   */
  setStatus(trackingRef: string, status: string, note: string | null, by: Author): Promise<OrderWithEvents>;
  /**
   * A courier's scan (domain/scans): the order through `moves` (the street moves only; `returned`
   * only once three attempts failed) at the phone's time `at`, clamped to neither after now nor
   * before the order's last event, with `alongside` (the scan's own rows) in the same transaction.
   * Null when the order was no longer in `order.status` (the caller reads it again).
   */
  moveByCourier(
    order: OrderWithEvents,
    moves: readonly OrderStatus[],
    options: {
      at: Date;
      note: string | null;
      /**
       * Rows written by the move's own statement, only if it is made (the scan, its attempt), given
       * the move's time (the phone's, clamped); AlreadyWritten when one of them exists.
       */
      withMove: (at: Date) => readonly RowWithMove[];
      /**
       * Members added to the order in the move's own status event (`order.delivered`,
       * `order.delivery_failed`): the door's proof, given the event's time (decision 0006).
       */
      statusEventMembers?: (to: OrderStatus, at: Date) => Promise<Record<string, unknown>>;
    },
  ): Promise<OrderWithEvents | null>;
  /**
   * Completes or corrects delivery details while the order is `awaiting_address` or `pending`.
   * A new delivery address is located, priced and dated afresh; completing the address of an
   * order awaiting it makes it `pending`.
   */
  update(brandId: string, trackingRef: string, patch: OrderPatch): Promise<OrderWithEvents>;
  /**
   * The operator correcting any brand's delivery address (the console's Exceptions, a flagged
   * address): `update`'s own checks, placing and events, so the brand hears what it would hear had
   * it corrected the address itself, and the same refusals (an invalid address, an order past
   * `pending`); written with its audit row (`order.address_corrected`, `by`) in one transaction.
   */
  correctAddress(
    trackingRef: string,
    patch: Pick<OrderPatch, 'delivery_address'>,
    by: Author,
  ): Promise<OrderWithEvents>;
}

export function orderService(deps: {
  stores: Pick<Stores, 'orders' | 'audit'>;
  /** Where delivery addresses are and what is wrong with them (domain/places). */
  places: Pick<PlaceService, 'placeDelivery'>;
  transact: Transact;
  grids: GridService;
  outbox: Outbox;
  clock: Clock;
  cursors: { ready(): Promise<CursorCodec> };
  links: OrderLinks;
  /** The CO₂e a delivery or a return sets (domain/emissions), written by the move's own statement. */
  emissions: Pick<EmissionService, 'onMove'>;
}): OrderService {
  const { transact, grids, outbox, clock, links } = deps;
  const { orders, audit } = deps.stores;

  /** Price and promised date of a located delivery address: 422 `unpriceable` when the grid lacks it. */
  async function priceDelivery(
    brandId: string,
    address: string,
    place: Place,
    o: Pick<Order, 'service' | 'unitType' | 'unitWeightGrams' | 'quantity'>,
    now: Date,
  ) {
    const grid = await grids.gridFor(brandId);
    const price = requirePrice(grid.index, {
      service: o.service,
      zone: place.zone,
      unitType: o.unitType,
      weightGrams: o.unitWeightGrams,
      quantity: o.quantity,
    });
    return {
      deliveryAddress: address,
      deliveryPostcode: place.postcode,
      deliveryCity: place.city,
      deliveryZone: place.zone,
      priceExclTaxCents: price.exclTaxCents,
      vatCents: price.vatCents,
      priceCents: price.inclTaxCents,
      promisedDate: promisedDate(o.service, now),
    };
  }

  /** A placed address as the order's columns. */
  const placeColumns = (placed: PlacedAddress, now: Date) => ({
    deliveryLat: placed.location?.lat ?? null,
    deliveryLng: placed.location?.lng ?? null,
    deliveryLocationPrecision: placed.location?.precision ?? null,
    deliveryLocationSource: placed.location?.source ?? null,
    addressWarnings: placed.warnings,
    addressCheckDueAt: placed.checkDue ? now : null,
  });

  /** Who hears of an order's flags: only when it has some (SPEC §11, `order.address_flagged`). */
  const flaggedListenersFor = (brandId: string, warnings: readonly AddressWarning[]) =>
    warnings.some(isAddressFlag) ? outbox.jobsFor(brandId, 'order.address_flagged') : Promise.resolve([]);

  /**
   * `order.address_flagged` for a change that leaves the address with flags it did not have (the
   * same flags again, or none, send nothing), built from the order as the change leaves it.
   */
  async function flaggedEvent(order: Order, set: Partial<NewOrder>, at: Date): Promise<OutboxEvent | null> {
    const warnings = set.addressWarnings;
    if (warnings === undefined || !warnings.some(isAddressFlag)) return null;
    if (sameWarnings(warnings.filter(isAddressFlag), order.addressWarnings.filter(isAddressFlag)))
      return null;
    const listeners = await flaggedListenersFor(order.brandId, warnings);
    return outbox.eventWith(listeners, order.brandId, 'order.address_flagged', at, () => ({
      order: orderJson({ ...order, ...set, updatedAt: at }, links),
    }));
  }

  /** The new order, and the texts of its stored JSON and history (for `insertRendered`). */
  async function insertWithFreshRef(
    store: Stores['orders'],
    prepared: PreparedOrder,
  ): Promise<{ order: OrderWithEvents; storedJson: string; history: string }> {
    const { row, listeners, flaggedListeners, origin } = prepared;
    const note =
      row.status === 'pending' ? 'Order created' : 'Order created; waiting for the delivery address';
    for (let attempt = 0; attempt < REF_ATTEMPTS; attempt++) {
      const candidate = { ...row, trackingRef: generateTrackingRef() };
      const event = outbox.eventWith(
        listeners,
        candidate.brandId,
        'order.created',
        row.createdAt,
        () => ({ order: orderJson(asOrder(candidate), links) }),
        origin,
      );
      const flagged = outbox.eventWith(
        flaggedListeners,
        candidate.brandId,
        'order.address_flagged',
        row.createdAt,
        () => ({
          order: orderJson(asOrder(candidate), links),
        }),
      );
      const created = await store.insert(candidate, note, event, [flagged]);
      // The new order is this call's own object: completed in place (copying thirty fields per
      // order is measurable on the hottest write).
      if (created) {
        const order = Object.assign(created.order, {
          events: [{ status: created.order.status, at: created.order.createdAt, note }],
        });
        return { order, storedJson: created.storedJson, history: created.history };
      }
    }
    // 5 collisions in a row on 50 random bits means something else is wrong.
    throw new Error('could not allocate a unique tracking reference');
  }

  async function find(trackingRef: string, brandId: string | null): Promise<OrderWithEvents> {
    const ref = normaliseTrackingRef(trackingRef);
    const order = ref ? await orders.findByRef(ref, brandId) : null;
    if (!order) throw new AppError('not_found', `No order with trackingRef "${trackingRef}".`);
    return order;
  }

  /** A status change checked, its events made and who hears of a credit note read: nothing written. */
  async function prepareTransition(
    from: Order,
    to: OrderStatus,
    actor: Actor,
    note: string | null,
    by: Author | null,
    set?: Partial<NewOrder>,
    joins?: PickupKey,
    /** Events written with the move besides its status events (an address flagged by the change). */
    extra: readonly (OutboxEvent | null)[] = [],
  ): Promise<PreparedChange> {
    assertTransition(from.status, to, actor);
    const at = clock();
    const emission = await deps.emissions.onMove(from, to, at);
    if (Object.keys(emission).length > 0) set = { ...set, ...emission };
    let json: OrderJson | undefined;
    const changed = () => (json ??= orderJson({ ...from, ...set, status: to, updatedAt: at }, links));
    const statusEvent = STATUS_EVENTS[to];
    // Each written only if someone listens to that very type (a delivery sends both to a
    // subscriber of both), in the statement that makes the change.
    const events = [
      await outbox.event(from.brandId, 'order.status_changed', at, () => ({
        order: changed(),
        previous_status: from.status,
      })),
      statusEvent ? await outbox.event(from.brandId, statusEvent, at, () => ({ order: changed() })) : null,
      ...extra,
    ];
    // A cancelled order leaves its pickup (SPEC §10): nothing to collect any more.
    const leaves = to === 'cancelled' && from.pickupId !== null ? { pickupId: null } : undefined;
    const change = { from: from.status, to, note, at, set: leaves ? { ...set, ...leaves } : set, joins };
    // Read before any transaction: a connection it holds never waits for another from the pool.
    const creditListeners =
      to === 'cancelled' ? await outbox.jobsFor(from.brandId, 'credit_note.issued') : null;
    return { kind: 'transition', order: from, change, events, creditListeners, by };
  }

  /**
   * Writes a prepared change; null when the order was no longer as prepared. A cancellation already
   * on an issued invoice gets its credit note, and a re-priced billed order its correction, in the
   * same transaction (the caller's `tx`, or one of its own): both happen or neither does.
   */
  async function apply(prepared: PreparedChange, tx?: Stores): Promise<OrderWithEvents | null> {
    const within = <T>(work: (stores: Stores) => Promise<T>) => (tx ? work(tx) : transact(work));
    const store = tx?.orders ?? orders;
    switch (prepared.kind) {
      case 'none':
        return prepared.order;
      case 'transition': {
        const { order, change, events, creditListeners, by } = prepared;
        const audited = by ? [audit.withMove(statusChanged(order, change.to, by))] : [];
        if (!creditListeners) return store.transition(order.id, change, events, audited);
        return within(async (stores) => {
          const cancelled = await stores.orders.transition(order.id, change, events, audited);
          const credit = cancelled
            ? await creditCancelledOrder(stores, outbox, creditListeners, cancelled, change.at)
            : null;
          if (credit && by) await stores.audit.record(creditNoteIssued(credit, order, by));
          return cancelled;
        });
      }
      case 'details': {
        const { order, change, rebillListeners, events } = prepared;
        if (!rebillListeners) return store.updateDetails(order.id, change, events);
        // The line is read after the order's row is written: an invoice being issued share-locks
        // the orders it bills, so it is committed, and its lines visible, by then.
        return within(async (stores) => {
          const updated = await stores.orders.updateDetails(order.id, change, events);
          if (updated) await rebillRepricedOrder(stores, outbox, rebillListeners, updated, change.at);
          return updated;
        });
      }
    }
  }

  /** Applies a status change, retrying once if another change won the race in between. */
  async function transition(
    order: OrderWithEvents,
    to: OrderStatus,
    actor: Actor,
    note: string | null,
    by: Author | null,
  ) {
    let current: Order = order;
    for (let attempt = 0; attempt < 3; attempt++) {
      const updated = await apply(await prepareTransition(current, to, actor, note, by));
      if (updated) return updated;
      current = await find(order.trackingRef, null);
    }
    throw new AppError('invalid_transition', 'The order changed concurrently; retry.');
  }

  const service: OrderService = {
    async create(brand: BrandContext, input: OrderInput): Promise<OrderWithEvents> {
      return service.insert(await service.prepare(brand, input));
    },

    async prepare(
      brand: BrandContext,
      input: OrderInput,
      origin: string | null = null,
    ): Promise<PreparedOrder> {
      const v = validateOrderInput(input);
      const pickupAddress = v.pickupAddress ?? brand.defaultPickupAddress;
      // Both addresses are checked before pricing: a wrong pickup is reported with a wrong delivery.
      const { delivery: place } = locateOrderAddresses({
        delivery: v.deliveryAddress,
        pickup: pickupAddress,
      });
      const now = clock();
      const delivery =
        v.deliveryAddress && place ? await priceDelivery(brand.id, v.deliveryAddress, place, v, now) : null;
      // Placed once it is priced (a geocoder is asked only for an order that will be created).
      const located =
        v.deliveryAddress && place
          ? placeColumns(await deps.places.placeDelivery(v.deliveryAddress, place, v.deliveryPoint), now)
          : NOT_PLACED;
      const livemode = brand.livemode ?? true;
      // Test mode's `address_flagged` scenario: the geocoder's "matched loosely" flag, raised on the
      // same path as a real one (the order's warnings, `order.address_flagged` in its insert).
      const placed =
        !livemode && input.test_scenario === 'address_flagged' && v.deliveryAddress && place
          ? {
              ...located,
              addressWarnings: [
                ...located.addressWarnings.filter((w) => w.code !== 'address_uncertain'),
                addressWarning.uncertain(0, UNCERTAIN_BELOW, null),
              ],
            }
          : located;
      const listeners = await outbox.jobsFor(brand.id, 'order.created');
      const flaggedListeners = await flaggedListenersFor(brand.id, placed.addressWarnings);
      // A collectable order joins its pickup in its own INSERT (order-inserts.ts); a test order
      // never does: nobody comes to collect it.
      const pickupId =
        livemode && delivery && pickupAddress ? pickupKeyFor(brand.id, pickupAddress, now).id : null;
      const row: NewOrder = {
        ...NO_CO2E,
        trackingRef: '',
        trackingToken: generateTrackingToken(),
        brandId: brand.id,
        status: delivery ? 'pending' : 'awaiting_address',
        livemode,
        reference: v.reference,
        customerEmail: v.customerEmail,
        amountCents: v.amountCents,
        pickupAddress,
        deliveryAddress: null,
        deliveryPostcode: null,
        deliveryCity: null,
        deliveryZone: null,
        deliveryRecipient: v.deliveryRecipient,
        deliveryPhone: v.deliveryPhone,
        deliveryEmail: v.deliveryEmail,
        service: v.service,
        unitType: v.unitType,
        quantity: v.quantity,
        unitWeightGrams: v.unitWeightGrams,
        priceExclTaxCents: null,
        vatCents: null,
        priceCents: null,
        promisedDate: null,
        pickupId,
        createdAt: now,
        ...delivery,
        ...placed,
      };
      return { row, listeners, flaggedListeners, origin };
    },

    async insert(prepared: PreparedOrder, store: Stores['orders'] = orders): Promise<OrderWithEvents> {
      return (await insertWithFreshRef(store, prepared)).order;
    },

    async insertRendered(prepared: PreparedOrder, store: Stores['orders'] = orders) {
      const { order, storedJson, history } = await insertWithFreshRef(store, prepared);
      return { order, json: orderDetailJsonText(order, storedJson, history, links) };
    },

    get: (brandId: string, trackingRef: string) => find(trackingRef, brandId),

    async getDetailJson(brandId: string, trackingRef: string): Promise<string> {
      const ref = normaliseTrackingRef(trackingRef);
      const json = ref ? await orders.findDetailJson(ref, brandId, links) : null;
      if (json === null) throw new AppError('not_found', `No order with trackingRef "${trackingRef}".`);
      return json;
    },
    async getAnyBrand(trackingRef: string, by: Author, view: 'order' | 'notifications' = 'order') {
      const order = await find(trackingRef, null);
      await audit.record({
        action: 'recipient.read',
        by,
        object: { type: 'order', id: order.trackingRef },
        brandId: order.brandId,
        orderRefs: [order.trackingRef],
        details: { view },
      });
      return order;
    },

    async track(token: string) {
      const found = TRACKING_TOKEN_PATTERN.test(token) ? await orders.findByTrackingToken(token) : null;
      if (!found) throw new AppError('not_found', 'No order has this tracking link.');
      return found;
    },

    async refreshStoredJson(): Promise<number> {
      const everyOrder = !(await orders.storedJsonPassDone());
      let refreshed = 0;
      for (let after = 0; ; ) {
        const batch = await orders.refreshStoredJson(after, 5_000, !everyOrder);
        refreshed += batch.refreshed;
        if (batch.last === null) break;
        after = batch.last;
      }
      if (everyOrder) await orders.recordStoredJsonPass(clock());
      return refreshed;
    },

    detailJson: (order: OrderWithEvents) => orderDetailJson(order, links),

    async listJson(brandId: string, options: ListOptions) {
      const cursors = await deps.cursors.ready();
      if (listSort(options) === 'updated_at') {
        const scope = orderChangesScope(brandId, options);
        const query = changesQuery(options, cursors, scope, clock());
        const page = await orders.listChangedJson(brandId, query, links);
        const more = page.length === query.limit;
        const last = page[query.limit - 2];
        return {
          orders: page.slice(0, query.limit - 1).map((o) => o.json),
          nextCursor: more && last ? cursors.encode(scope, encodeChangePosition(last.at, last.id)) : null,
        };
      }
      const scope = orderListScope(brandId, options);
      const query = pageQuery(options, cursors, scope);
      const page = await orders.listJson(brandId, query, links);
      // Fetched with one extra row: a full page has a next one, which starts after its last row.
      const more = page.length === query.limit;
      return {
        orders: page.slice(0, query.limit - 1).map((o) => o.json),
        nextCursor: more ? cursors.encode(scope, String(page[query.limit - 2]!.id)) : null,
      };
    },

    async cancel(brandId: string, trackingRef: string) {
      // Prepared again after a race: the order may have been cancelled by the other change.
      for (let attempt = 0; attempt < 3; attempt++) {
        const cancelled = await apply(await service.prepareCancel(brandId, trackingRef));
        if (cancelled) return cancelled;
      }
      throw new AppError('invalid_transition', 'The order changed concurrently; retry.');
    },

    async prepareCancel(brandId: string, trackingRef: string) {
      const order = await find(trackingRef, brandId);
      if (order.status === 'cancelled') return { kind: 'none', order };
      return prepareTransition(order, 'cancelled', 'brand', 'Cancelled by the brand', null);
    },

    async applyChange(prepared: PreparedChange, stores?: Stores) {
      const applied = await apply(prepared, stores);
      if (!applied) throw new AppError('invalid_transition', 'The order changed concurrently; retry.');
      return applied;
    },

    async setStatus(trackingRef: string, status: string, note: string | null, by: Author) {
      if (!isOrderStatus(status)) throw invalidField('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
      if (note !== null && note.length > 500) throw fieldProblem('note', 'length.atMost', { max: 500 });
      const order = await find(trackingRef, null);
      return transition(order, status, 'operator', note, by);
    },

    async moveByCourier(order, moves, options) {
      const statusEventOf = async (
        brandId: string,
        type: NonNullable<(typeof STATUS_EVENTS)[OrderStatus]>,
        to: OrderStatus,
        at: Date,
        json: OrderJson,
      ) => {
        const extra = options.statusEventMembers;
        // Made only when someone listens: the members read the order's attempts and sign URLs.
        const listeners = await outbox.jobsFor(brandId, type);
        if (listeners.length === 0) return null;
        const members = extra ? await extra(to, at) : {};
        return outbox.eventWith(listeners, brandId, type, at, () => ({ order: { ...json, ...members } }));
      };
      const last = order.events.reduce((t, e) => Math.max(t, e.at.getTime()), order.updatedAt.getTime());
      const at = new Date(Math.min(clock().getTime(), Math.max(options.at.getTime(), last)));
      let failed = order.events.filter((e) => e.status === 'failed_attempt').length;
      // Each move's events are made before the transaction: a connection it holds never waits for
      // another from the pool (the outbox may read who listens).
      const steps: {
        change: Parameters<Stores['orders']['transition']>[1];
        events: (OutboxEvent | null)[];
      }[] = [];
      let from: Order = order;
      for (const to of moves) {
        assertTransition(from.status, to, 'courier');
        if (to === 'failed_attempt') failed++;
        if (to === 'returned' && failed < 3) {
          throw new AppError(
            'invalid_transition',
            `An order is returned after 3 failed attempts; this one has ${failed}.`,
          );
        }
        const before = from;
        const emission = await deps.emissions.onMove(before, to, at);
        const json = orderJson({ ...before, ...emission, status: to, updatedAt: at }, links);
        const statusEvent = STATUS_EVENTS[to];
        const events = [
          await outbox.event(before.brandId, 'order.status_changed', at, () => ({
            order: json,
            previous_status: before.status,
          })),
          statusEvent ? await statusEventOf(before.brandId, statusEvent, to, at, json) : null,
        ];
        const set = Object.keys(emission).length > 0 ? emission : undefined;
        steps.push({ change: { from: before.status, to, note: options.note, at, set }, events });
        from = { ...before, ...emission, status: to, updatedAt: at };
      }
      const rows = options.withMove(at);
      // One move (nearly every scan): one statement, its rows with it, no transaction to hold.
      if (steps.length === 1) return orders.transition(order.id, steps[0]!.change, steps[0]!.events, rows);
      return transact(async (tx) => {
        let moved: OrderWithEvents | null = null;
        for (const [i, step] of steps.entries()) {
          const last = i === steps.length - 1;
          moved = await tx.orders.transition(order.id, step.change, step.events, last ? rows : []);
          // Only the first move can find the order changed: the others follow it in this transaction.
          if (!moved && i === 0) return null;
          if (!moved)
            throw new Error(`order ${order.trackingRef} did not take its move to ${step.change.to}`);
        }
        return moved;
      });
    },

    async update(brandId: string, trackingRef: string, patch: OrderPatch) {
      return service.applyChange(await service.prepareUpdate(brandId, trackingRef, patch));
    },

    async correctAddress(trackingRef, patch, by) {
      const order = await find(trackingRef, null);
      const prepared = await service.prepareUpdate(order.brandId, order.trackingRef, {
        delivery_address: patch.delivery_address,
      });
      return transact(async (stores) => {
        const corrected = await service.applyChange(prepared, stores);
        await stores.audit.record(addressCorrected(order, corrected, by));
        return corrected;
      });
    },

    async prepareUpdate(brandId: string, trackingRef: string, patch: OrderPatch): Promise<PreparedChange> {
      const order = await find(trackingRef, brandId);
      if (!EDITABLE_STATUSES.includes(order.status)) {
        throw new AppError(
          'invalid_transition',
          `An order can only be edited while awaiting_address or pending; this one is "${order.status}".`,
        );
      }
      const text = (v: string | null | undefined) =>
        v === undefined ? undefined : v === null ? null : v.trim() || null;
      const fields = validateAll({
        deliveryRecipient: () => text(patch.delivery_recipient),
        deliveryPhone: () =>
          patch.delivery_phone === undefined ? undefined : parsePhone(patch.delivery_phone),
        deliveryEmail: () =>
          patch.delivery_email === undefined ? undefined : normaliseEmail(patch.delivery_email),
        pickupAddress: () => {
          const address = text(patch.pickup_address);
          if (patch.pickup_address !== undefined && address === null) {
            throw invalidField('pickup_address', 'cannot be removed; give the corrected address');
          }
          return address ?? undefined;
        },
        reference: () => text(patch.reference),
        deliveryAddress: () => {
          const address = text(patch.delivery_address);
          if (patch.delivery_address !== undefined && address === null) {
            throw invalidField('delivery_address', 'cannot be removed; give the corrected address');
          }
          return address ?? undefined;
        },
      });
      const point = parseBrandPoint(patch.delivery_lat, patch.delivery_lng);
      const set: Partial<NewOrder> = Object.fromEntries(
        Object.entries(fields).filter(([, v]) => v !== undefined),
      );
      if (Object.keys(set).length === 0 && point === undefined)
        throw invalidField('body', 'give at least one field to change');
      const { delivery: place } = locateOrderAddresses({
        delivery: fields.deliveryAddress,
        pickup: fields.pickupAddress,
      });
      const now = clock();
      if (fields.deliveryAddress && place)
        Object.assign(set, await priceDelivery(brandId, fields.deliveryAddress, place, order, now));
      // A new address is placed afresh (the brand's point with it, if given: an old one is dropped);
      // a point alone moves the address there, or (null) back to where its text says.
      const placedAddress = fields.deliveryAddress ?? (point !== undefined ? order.deliveryAddress : null);
      const placedAt = place ?? placeOfOrder(order);
      if (placedAddress && placedAt)
        Object.assign(
          set,
          placeColumns(await deps.places.placeDelivery(placedAddress, placedAt, point ?? null), now),
        );
      else if (point)
        throw invalidField(
          'delivery_lat',
          'is given only with a delivery address (the order awaits its address)',
        );
      const flagged = await flaggedEvent(order, set, now);
      // An order becoming collectable, or collected from another address, joins the pickup due now.
      const completes = order.status === 'awaiting_address' && set.deliveryAddress !== undefined;
      const address = set.pickupAddress ?? order.pickupAddress;
      const joins =
        order.livemode &&
        (completes || (order.status === 'pending' && set.pickupAddress !== undefined)) &&
        address
          ? pickupKeyFor(brandId, address, now)
          : undefined;
      if (joins) set.pickupId = joins.id;
      if (completes)
        return prepareTransition(
          order,
          'pending',
          'address',
          'Delivery address completed',
          null,
          set,
          joins,
          [flagged],
        );
      const changed = Object.keys(set)
        .filter((k) => !DERIVED_FIELDS.has(k))
        .map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
      if (point !== undefined) changed.push('delivery_location');
      const change = { status: order.status, note: `Updated ${changed.join(', ')}`, at: now, set, joins };
      // Read before any transaction: a connection it holds never waits for another from the pool.
      const rebillListeners =
        order.status === 'pending' && set.priceCents !== undefined
          ? await outbox.jobsFor(order.brandId, 'credit_note.issued')
          : null;
      return { kind: 'details', order, change, rebillListeners, events: [flagged] };
    },
  };
  return service;
}

/** What an update may compute from what was given: never named in its history's note. */
const DERIVED_FIELDS: ReadonlySet<string> = new Set([
  'deliveryPostcode',
  'deliveryCity',
  'deliveryZone',
  'priceExclTaxCents',
  'vatCents',
  'priceCents',
  'promisedDate',
  'pickupId',
  'deliveryLat',
  'deliveryLng',
  'deliveryLocationPrecision',
  'deliveryLocationSource',
  'addressWarnings',
  'addressCheckDueAt',
]);

/** An order not placed (awaiting its address): no point, no warning. */
const NOT_PLACED = Object.freeze({
  deliveryLat: null,
  deliveryLng: null,
  deliveryLocationPrecision: null,
  deliveryLocationSource: null,
  addressWarnings: Object.freeze([]) as unknown as AddressWarning[],
  addressCheckDueAt: null,
});

/** Where an order's address was located (its postcode, city and zone), when it has one. */
function placeOfOrder(order: Order): Place | null {
  return order.deliveryPostcode && order.deliveryCity && order.deliveryZone
    ? { postcode: order.deliveryPostcode, city: order.deliveryCity, zone: order.deliveryZone }
    : null;
}

/** The audit trail's entry of an order's status move (the note stays in the order's history). */
function statusChanged(order: Order, to: OrderStatus, by: Author): AuditEntry {
  return {
    action: 'order.status_changed',
    by,
    object: { type: 'order', id: order.trackingRef },
    brandId: order.brandId,
    orderRefs: [order.trackingRef],
    changes: { status: { before: order.status, after: to } },
  };
}

/** What an address's correction changed: the address itself as "changed" (a person's data), the rest before/after. */
function addressCorrected(before: Order, after: Order, by: Author): AuditEntry {
  const fields = (o: Order) => ({
    delivery_address: o.deliveryAddress,
    delivery_postcode: o.deliveryPostcode,
    delivery_city: o.deliveryCity,
    delivery_zone: o.deliveryZone,
    price_cents: o.priceCents,
    address_warnings: o.addressWarnings.map((w) => w.code),
  });
  return {
    action: 'order.address_corrected',
    by,
    object: { type: 'order', id: before.trackingRef },
    brandId: before.brandId,
    orderRefs: [before.trackingRef],
    changes: changedFields(fields(before), fields(after)),
  };
}

function creditNoteIssued(note: StoredCreditNote, order: Order, by: Author): AuditEntry {
  return {
    action: 'credit_note.issued',
    by,
    object: { type: 'credit_note', id: note.id },
    brandId: order.brandId,
    orderRefs: [order.trackingRef],
    changes: { number: { before: null, after: note.number } },
    details: { invoice_id: note.creditsInvoice.id, total_cents: note.totalCents },
  };
}

/** A row about to be written, seen as the order it will be (for the event payload). */
function asOrder(row: NewOrder & Partial<Pick<Order, 'id' | 'pickedUpAt' | 'updatedAt'>>): Order {
  return { id: 0, pickedUpAt: null, updatedAt: row.createdAt, ...row };
}
