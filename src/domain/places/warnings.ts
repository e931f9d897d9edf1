/**
 * What may be wrong with a delivery address, as the order's `address_warnings` says (SPEC §11). A
 * warning never refuses an order: the brand corrects the address with `PATCH /orders/{ref}`, which
 * checks it again. The message is the API's English; the account area words the code itself.
 */
export const ADDRESS_WARNING_CODES = [
  /** The geocoder's best match scores under the threshold: street or number likely wrong. */
  'address_uncertain',
  /** The geocoder places the address in another postcode than the one written. */
  'postcode_mismatch',
  /** The geocoder did not answer within the creation's budget: it is asked again in the background. */
  'address_check_pending',
  /** The geocoder is down (or refused us): the address is placed at its postcode until it answers. */
  'address_check_unavailable',
] as const;
type AddressWarningCode = (typeof ADDRESS_WARNING_CODES)[number];

export interface AddressWarning {
  code: AddressWarningCode;
  message: string;
}

/** The warnings that say something about the address itself (and so raise `order.address_flagged`). */
const FLAGS: ReadonlySet<AddressWarningCode> = new Set(['address_uncertain', 'postcode_mismatch']);
export const isAddressFlag = (w: AddressWarning): boolean => FLAGS.has(w.code);

/** The check of the address still to come (the `check_addresses` job asks the geocoder again). */
const CHECK_STATES: ReadonlySet<AddressWarningCode> = new Set([
  'address_check_pending',
  'address_check_unavailable',
]);
export const isCheckState = (w: AddressWarning): boolean => CHECK_STATES.has(w.code);

/** Whether two lists of warnings say the same (codes and messages, in order). */
export const sameWarnings = (a: readonly AddressWarning[], b: readonly AddressWarning[]): boolean =>
  a.length === b.length && a.every((w, i) => w.code === b[i]!.code && w.message === b[i]!.message);

const score = (x: number) => x.toFixed(2);

export const addressWarning = {
  uncertain: (found: number, threshold: number, label: string | null): AddressWarning => ({
    code: 'address_uncertain',
    message:
      label === null
        ? 'The address could not be found: check the street, the number and the postcode.'
        : `The address could only be matched loosely (score ${score(found)}, under ${score(threshold)}): the closest known address is "${label}". Check the street and the number.`,
  }),
  postcodeMismatch: (written: string, found: string, label: string): AddressWarning => ({
    code: 'postcode_mismatch',
    message: `The address is written with postcode ${written}, but "${label}" is in ${found}: check the postcode.`,
  }),
  pending: (): AddressWarning => ({
    code: 'address_check_pending',
    message:
      'The address is being checked; the order is placed at its postcode meanwhile and updated (order.address_flagged if it is wrong).',
  }),
  unavailable: (): AddressWarning => ({
    code: 'address_check_unavailable',
    message:
      'The address could not be checked (the geocoder is unavailable); the order is placed at its postcode and checked again later.',
  }),
};
