import type { AddressValidator } from '../../../../domain/places/address-validation.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { AddressValidateRequest, AddressValidateResponse } from '../../../shared/schemas/places.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the addresses route uses. */
interface AddressesRouteContext {
  addressValidator: AddressValidator;
}

export function addressRoutes(app: TypedApp, deps: AddressesRouteContext): void {
  app.post(
    '/addresses/validate',
    {
      config: { auth: 'any' },
      schema: {
        operationId: 'validateAddress',
        summary: 'Check a delivery address before ordering',
        description:
          '**Extension.** Where the address is (the geocoder, else its postcode), whether it is served, its pricing zone, ' +
          "the hub's sort code and what may be wrong with it (`warnings`, as an order would carry them). An address " +
          'outside Île-de-France, without a French postcode, or that the geocoder surely places in another département ' +
          "than its postcode's answers 200 with `available: false` and the `reason` an order would get. A geocoder " +
          'outage is the warning `address_check_unavailable`, never an error. Any valid key.',
        tags: ['Addresses'],
        body: AddressValidateRequest,
        response: { 200: AddressValidateResponse, ...errorResponses([400, 401, 413, 415, 429]) },
      },
    },
    async (request) => ({ ok: true as const, ...(await deps.addressValidator.validate(request.body)) }),
  );
}
