import type { Outbox } from '../../events/outbox.ts';
import type { PlaceService } from '../places/place-service.ts';
import { isAddressFlag, isCheckState, sameWarnings } from '../places/warnings.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores } from '../shared/stores.ts';
import type { Order } from './order.ts';
import { type OrderLinks, orderJson } from './order-json.ts';
import { TERMINAL_STATUSES } from './state-machine.ts';

/** How many orders one run looks at, at most (the geocoder's pace decides how long it takes). */
const RUN_LIMIT = 500;

/**
 * The address checks a creation could not wait for (SPEC §11: `address_check_pending`, or
 * `_unavailable` while the geocoder was down): the `check_addresses` job asks the geocoder again,
 * at its pace and with its whole timeout, stores where the address is and what is wrong with it,
 * and raises `order.address_flagged` when the answer flags it.
 */
export interface AddressChecks {
  /** Checks the due orders, oldest first, until none is left or the geocoder stops answering. */
  runDue(): Promise<{ checked: number; flagged: number; left: boolean }>;
}

export function addressChecks(deps: {
  stores: Pick<Stores, 'orders'>;
  places: Pick<PlaceService, 'recheck'>;
  outbox: Outbox;
  clock: Clock;
  links: OrderLinks;
}): AddressChecks {
  const { orders } = deps.stores;

  async function checkOne(order: Order): Promise<'checked' | 'flagged' | 'still_due' | 'changed'> {
    const address = order.deliveryAddress;
    const at = deps.clock();
    if (address === null || order.deliveryPostcode === null || order.deliveryZone === null) return 'changed';
    // A parcel delivered, returned or cancelled: its address no longer matters; the check is dropped.
    if (TERMINAL_STATUSES.includes(order.status)) {
      const warnings = order.addressWarnings.filter((w) => !isCheckState(w));
      const done = await orders.recordPlace(
        order.id,
        { address, at, set: { addressWarnings: warnings, addressCheckDueAt: null } },
        [],
      );
      return done ? 'checked' : 'changed';
    }
    const place = {
      postcode: order.deliveryPostcode,
      city: order.deliveryCity ?? '',
      zone: order.deliveryZone,
    };
    const placed = await deps.places.recheck(address, place);
    if (placed.checkDue) return 'still_due';
    const flags = placed.warnings.filter(isAddressFlag);
    const newlyFlagged =
      flags.length > 0 && !sameWarnings(flags, order.addressWarnings.filter(isAddressFlag));
    const set = {
      deliveryLat: placed.location?.lat ?? null,
      deliveryLng: placed.location?.lng ?? null,
      deliveryLocationPrecision: placed.location?.precision ?? null,
      deliveryLocationSource: placed.location?.source ?? null,
      addressWarnings: placed.warnings,
      addressCheckDueAt: null,
    };
    const event = newlyFlagged
      ? await deps.outbox.event(order.brandId, 'order.address_flagged', at, () => ({
          order: orderJson({ ...order, ...set, updatedAt: at }, deps.links),
        }))
      : null;
    const done = await orders.recordPlace(order.id, { address, at, set }, [event]);
    if (!done) return 'changed';
    return newlyFlagged ? 'flagged' : 'checked';
  }

  return {
    async runDue() {
      let checked = 0;
      let flagged = 0;
      const due = await orders.addressChecksDue(deps.clock(), RUN_LIMIT);
      for (const order of due) {
        const outcome = await checkOne(order);
        // The geocoder is still slow or down: the next run (a minute later) tries again.
        if (outcome === 'still_due') return { checked, flagged, left: true };
        if (outcome === 'checked' || outcome === 'flagged') checked++;
        if (outcome === 'flagged') flagged++;
      }
      return { checked, flagged, left: due.length === RUN_LIMIT };
    },
  };
}
