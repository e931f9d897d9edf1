import { fieldProblem } from '../../errors.ts';
import { locateAddress } from '../coverage/locate-address.ts';
import { checkDisplayName } from '../shared/display-name.ts';

export interface Brand {
  id: string;
  name: string;
  defaultPickupAddress: string | null;
  /** Billing details printed on its invoices (account area, owner); null until set. */
  legalName: string | null;
  billingAddress: string | null;
  siren: string | null;
  /** The establishment billed (14 digits), when its owner gave it. */
  siret: string | null;
  vatNumber: string | null;
  createdAt: Date;
  /** A disabled brand's keys are refused and its people cannot sign in (`dlv brands disable`). */
  disabledAt: Date | null;
  /** The operator opened the webhook subscription API to it (`dlv brands allow-webhooks`). */
  webhooksAllowed: boolean;
}

export const BRAND_ID_PATTERN = /^brd_[0-9a-f]{16}$/;

/**
 * A brand's name: 1 to 200 characters, and the sender-name rules, since it is the default From
 * name of its recipients' e-mails and is in their subjects (`dlv brands create`, the sign-up form).
 */
export function validateBrandName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200)
    throw fieldProblem('name', 'length.between', { min: 1, max: 200 });
  checkDisplayName('name', trimmed);
  return trimmed;
}

/**
 * The brand's default pickup address, used by its orders that give none: a real Île-de-France
 * address (422 `invalid_address` / `out_of_zone` otherwise), checked like the orders' addresses.
 */
export function validatePickupAddress(address: string | null | undefined): string | null {
  if (address === null || address === undefined) return null;
  const trimmed = address.trim();
  if (trimmed.length === 0 || trimmed.length > 500)
    throw fieldProblem('pickup_address', 'length.between', { min: 1, max: 500 });
  locateAddress(trimmed, 'pickup_address');
  return trimmed;
}
