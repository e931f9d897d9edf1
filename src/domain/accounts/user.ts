import { fieldProblem } from '../../errors.ts';

export const ROLES = ['owner', 'developer', 'finance'] as const;
export type Role = (typeof ROLES)[number];
export type TokenPurpose = 'verify_email' | 'reset_password' | 'invite';

/** A person of a brand, as the account area sees them (never with the password hash). */
export interface User {
  id: string;
  brandId: string;
  brandName: string;
  brandDisabledAt: Date | null;
  email: string;
  role: Role;
  emailVerifiedAt: Date | null;
  createdAt: Date;
}

/**
 * An invitation to a brand's team, pending until its invitee accepts: their account is made only
 * then. Whether the address is new or another brand's person's, the invitation is the same.
 */
export interface TeamInvitation {
  id: string;
  brandId: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Who may manage the brand's API keys: finance people read invoices, they do not hold keys. */
export const canManageKeys = (role: Role): boolean => role !== 'finance';

/**
 * Who may link a shop to `brandId` (whose orders it then creates, billed to the brand): a person
 * of that brand who holds its keys and has confirmed their address (like creating an API key).
 * Checked when a link starts and again when the shop comes back with its keys, so a link started
 * by someone removed or demoted meanwhile is refused.
 */
export const canLinkShops = (user: User | null, brandId: string): user is User =>
  user !== null && user.brandId === brandId && canManageKeys(user.role) && user.emailVerifiedAt !== null;

export const UNVERIFIED_LINK = 'Confirm your e-mail address before linking a shop.';

// Deliberately loose: one `@`, something on each side, a dot in the domain, no spaces. The link
// sent to it is what proves an address, not a pattern.
// No control characters anywhere (a NUL or an escape would reach mail headers, logs and pages).
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const EMAIL = /^[^\s@\x00-\x1f\x7f]{1,64}@[^\s@\x00-\x1f\x7f]+\.[^\s@\x00-\x1f\x7f]+$/;

export function validateEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) throw fieldProblem('email', 'email.invalid');
  return trimmed;
}
