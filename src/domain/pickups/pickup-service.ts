import { AppError, invalidField } from '../../errors.ts';
import type { Outbox } from '../../events/outbox.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import type { BrandStore } from '../brands/ports.ts';
import { nextBusinessDay } from '../calendar/business-days.ts';
import { addDays, isIsoDate } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';
import type { OrderService } from '../orders/order-service.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import {
  DEFAULT_WINDOW,
  isDue,
  pickupDateFor,
  pickupIdFor,
  whyUnavailable,
  windowProblem,
} from './pickup-day.ts';
import type { Pickup, PickupStatus, PickupStore, PickupWindow } from './ports.ts';

/** What a brand asks for: a collection on `date` (YYYY-MM-DD), in a window or the default one. */
interface PickupRequest {
  date: string;
  window?: PickupWindow;
}

/** A request checked and not written yet. */
type PreparedPickup = Parameters<PickupStore['request']>[0];

/** How far back the list goes without a date: the last week's pickups, then the upcoming ones. */
const RECENT_DAYS = 7;
const LIST_LIMIT = 100;
const MAX_SCANNED = 1000;

/** Pickups (SPEC §10): brands list them, ask for one, print the manifest; the operator closes them. */
export interface PickupService {
  /** The brand's pickups on `date`, or the last week's and the upcoming ones. */
  list(brandId: string, query: { date?: string }): Promise<Pickup[]>;
  /** Every brand's pickups on `date`, or one brand's (the operator's list). */
  listAny(query: { date: string; brandId?: string }): Promise<Pickup[]>;
  get(brandId: string, id: string): Promise<Pickup>;
  /**
   * Asks for a collection at the brand's pickup address on a business day: not in the past, today
   * only before the cut-off. Asking again for the same day changes its window.
   */
  request(brand: { id: string; defaultPickupAddress: string | null }, input: PickupRequest): Promise<Pickup>;
  /** `request`'s checks alone, nothing written: a caller writing in its own transaction checks first. */
  prepareRequest(
    brand: { id: string; defaultPickupAddress: string | null },
    input: PickupRequest,
  ): PreparedPickup;
  /** Writes a checked request (`store`: inside the caller's transaction, when it has one). */
  saveRequest(prepared: PreparedPickup, store?: PickupStore): Promise<Pickup>;
  /** The pickup's handover manifest as a PDF. */
  manifest(brandId: string, id: string): Promise<{ pickup: Pickup; pdf: Buffer }>;
  /**
   * Closes the pickup with the references the courier scanned: those become `picked_up` through
   * the orders' status change (webhooks, shop syncs), the others stay `pending`, are listed missing
   * and join the next business day's pickup; `pickup.completed` says so. A reference not in the
   * pickup refuses the whole closing (422 `not_in_pickup`, nothing changed); a closed pickup 409.
   * `by` is recorded in the audit trail with each parcel's move and the closing (`pickup.closed`).
   */
  close(id: string, scanned: readonly string[], by: Author): Promise<Pickup>;
}

export function pickupService(deps: {
  stores: { pickups: PickupStore; brands: Pick<BrandStore, 'findById'> };
  transact: UnitOfWork<{ pickups: PickupStore; audit: AuditStore }>;
  orders: Pick<OrderService, 'setStatus'>;
  outbox: Outbox;
  clock: Clock;
}): PickupService {
  const { pickups } = deps.stores;

  function checkDate(date: string, field = 'date'): void {
    if (!isIsoDate(date)) throw invalidField(field, 'must be a calendar date YYYY-MM-DD');
  }

  async function find(id: string, brandId: string | null): Promise<Pickup> {
    const pickup = /^pck_[0-9a-f]{16}$/.test(id) ? await pickups.find(id, brandId) : null;
    if (!pickup) throw new AppError('not_found', `No pickup with id "${id}".`);
    return pickup;
  }

  /** The scanned references, normalised and each named in the pickup, or a refusal naming the first stray ones. */
  function scannedOf(pickup: Pickup, scanned: readonly string[]): Set<string> {
    if (scanned.length > MAX_SCANNED) throw invalidField('scanned', `at most ${MAX_SCANNED} references`);
    const inPickup = new Set(pickup.orderRefs);
    const refs = new Set<string>();
    const strays: { field: string; message: string }[] = [];
    scanned.forEach((raw, i) => {
      const ref = normaliseTrackingRef(raw);
      if (ref === null) throw invalidField(`scanned[${i}]`, `"${raw}" is not a tracking reference`);
      if (!inPickup.has(ref))
        strays.push({ field: `scanned[${i}]`, message: `${ref} is not in pickup ${pickup.id}` });
      refs.add(ref);
    });
    if (strays.length > 0) {
      throw new AppError(
        'not_in_pickup',
        `Not in this pickup: ${strays.map((s) => s.message.split(' ')[0]).join(', ')}; nothing was changed.`,
        strays.slice(0, 50),
      );
    }
    return refs;
  }

  const service: PickupService = {
    async list(brandId, query) {
      if (query.date !== undefined) {
        checkDate(query.date);
        return pickups.list(brandId, { date: query.date, limit: LIST_LIMIT });
      }
      return pickups.list(brandId, {
        from: addDays(parisToday(deps.clock()), -RECENT_DAYS),
        limit: LIST_LIMIT,
      });
    },

    async listAny(query) {
      checkDate(query.date);
      return pickups.list(query.brandId ?? null, { date: query.date, limit: LIST_LIMIT * 10 });
    },

    get: (brandId, id) => find(id, brandId),

    request(brand, input) {
      return service.saveRequest(service.prepareRequest(brand, input));
    },

    prepareRequest(brand, input) {
      checkDate(input.date);
      const window = input.window ?? DEFAULT_WINDOW;
      const problem = windowProblem(window);
      if (problem) throw invalidField(problem.field, problem.message);
      const now = deps.clock();
      const unavailable = whyUnavailable(input.date, now);
      if (unavailable) {
        throw new AppError(unavailable.code, `date: ${unavailable.message}`, [
          { field: 'date', message: unavailable.message },
        ]);
      }
      const address = brand.defaultPickupAddress;
      if (!address) {
        const message = 'the brand has no pickup address; set one on its company page or ask the operator';
        throw new AppError('no_pickup_address', `pickup_address: ${message}.`, [
          { field: 'pickup_address', message },
        ]);
      }
      return {
        id: pickupIdFor(brand.id, address, input.date),
        brandId: brand.id,
        pickupAddress: address,
        date: input.date,
        window: { start: window.start, end: window.end },
        at: now,
      };
    },

    async saveRequest(prepared, store = pickups) {
      const pickup = await store.request(prepared);
      if (!pickup) throw new AppError('pickup_closed', `Pickup ${prepared.id} is already closed.`);
      return pickup;
    },

    async manifest(brandId, id) {
      const pickup = await find(id, brandId);
      const [brand, parcels] = await Promise.all([
        deps.stores.brands.findById(brandId),
        pickups.manifestParcels(brandId, pickup.orderRefs),
      ]);
      // PDFKit and the barcodes are loaded by the first manifest, as labels and invoices do theirs.
      const { renderManifestPdf } = await import('./manifest-pdf.ts');
      const pdf = await renderManifestPdf({ brandName: brand?.name ?? brandId, pickup, parcels });
      return { pickup, pdf };
    },

    async close(id, scanned, by) {
      const pickup = await find(id, null);
      if (pickup.status !== 'planned')
        throw new AppError('pickup_closed', `Pickup ${id} is already closed (${pickup.status}).`);
      const refs = scannedOf(pickup, scanned);
      const now = deps.clock();
      if (!isDue(pickup.date, now)) {
        throw new AppError(
          'pickup_not_due',
          `Pickup ${id} is for ${pickup.date}: it can be closed from 12:00 (Paris) that day, once no order can join it.`,
        );
      }
      const inPickup = await pickups.orders(id);
      const collected = inPickup.filter((o) => refs.has(o.trackingRef) || o.status !== 'pending');
      const missing = inPickup.filter((o) => !refs.has(o.trackingRef) && o.status === 'pending');
      // Each scanned parcel moves as a courier's scan moves it, with its webhooks and shop syncs. A
      // retry after a failure here finds those already moved collected, and closes the rest.
      for (const order of collected) {
        if (order.status === 'pending') {
          await deps.orders.setStatus(order.trackingRef, 'picked_up', `Collected (pickup ${id})`, by);
        }
      }
      const status: Exclude<PickupStatus, 'planned'> =
        collected.length === 0 ? 'missed' : missing.length === 0 ? 'collected' : 'partially_collected';
      const collectedRefs = collected.map((o) => o.trackingRef);
      const missingRefs = missing.map((o) => o.trackingRef);
      // The next business day's pickup, or the one due now if the closing comes days late.
      const nextDate = [nextBusinessDay(pickup.date), pickupDateFor(now)].sort()[1]!;
      const event = await deps.outbox.event(pickup.brandId, 'pickup.completed', now, () => ({
        pickup: {
          id,
          date: pickup.date,
          pickup_address: pickup.pickupAddress,
          status,
          collected: collectedRefs,
          missing: missingRefs,
        },
      }));
      const closed = await deps.transact(async (tx) => {
        const done = await tx.pickups.close({
          id,
          status,
          at: now,
          collectedRefs,
          missingRefs,
          next: { id: pickupIdFor(pickup.brandId, pickup.pickupAddress, nextDate), date: nextDate },
          event,
        });
        if (done)
          await tx.audit.record({
            action: 'pickup.closed',
            by,
            object: { type: 'pickup', id },
            brandId: pickup.brandId,
            orderRefs: [...collectedRefs, ...missingRefs],
            changes: { status: { before: pickup.status, after: status } },
            details: { collected: collectedRefs.length, missing: missingRefs.length, next_date: nextDate },
          });
        return done;
      });
      if (!closed) throw new AppError('pickup_closed', `Pickup ${id} is already closed.`);
      return find(id, null);
    },
  };
  return service;
}
