import type { AddressChecks } from '../domain/orders/address-checks.ts';
import type { PlaceStore } from '../domain/places/ports.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { defineJob } from './job.ts';
import { CHECK_ADDRESSES_SPEC } from './job-names.ts';

/**
 * Every minute: the address checks a creation could not wait for (the geocoder slow or down: the
 * orders' `address_check_pending` / `_unavailable`), asked again at the geocoder's pace, their
 * flags raised as `order.address_flagged`; and the expired places of the shared cache dropped.
 * An empty run is one indexed query (orders_address_check_due_idx).
 */
export const CHECK_ADDRESSES = defineJob({
  ...CHECK_ADDRESSES_SPEC,
  schedule: '* * * * * ?max=1',
  async run(
    deps: { addressChecks: AddressChecks; placeStore: Pick<PlaceStore, 'purgeExpired'>; clock: Clock },
    _payload,
    helpers,
  ) {
    const { checked, flagged, left } = await deps.addressChecks.runDue();
    if (checked > 0 || left)
      helpers.logger.info(
        `checked ${checked} addresses (${flagged} flagged)${left ? '; more are due (the geocoder is slow, down or busy)' : ''}`,
      );
    const purged = await deps.placeStore.purgeExpired(deps.clock(), 5_000);
    if (purged > 0) helpers.logger.info(`dropped ${purged} expired places`);
  },
});
