import { invalidField } from '../../errors.ts';

/**
 * What the operations API's routes require: each route names one scope. A machine token holds the
 * scopes it was created with; a signed-in operator holds their role's (ROLE_SCOPES); the bootstrap
 * OPS_TOKEN holds them all.
 */
export const OPS_SCOPES = [
  'orders:read',
  'orders:write',
  'rounds:read',
  'rounds:write',
  'couriers:read',
  'couriers:write',
  'scans:write',
  'pickups:read',
  'pickups:write',
  'invoices:read',
  'invoices:write',
  'grids:read',
  'grids:write',
  'brands:read',
  'brands:write',
  'webhooks:read',
  'webhooks:write',
  /** A recipient's personal data looked up or searched for (the orders' own reads are `orders:read`). */
  'recipients:read',
  /** A recipient notification sent again. */
  'notifications:write',
  /** A delivery address corrected for the brand (a flagged address, the console's Exceptions). */
  'addresses:write',
  'audit:read',
  /** The operators and machine tokens: people only (a token cannot hold it). */
  'operators:read',
  'operators:write',
] as const;
export type OpsScope = (typeof OPS_SCOPES)[number];

export const OPERATOR_ROLES = ['admin', 'dispatcher', 'finance', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: string): value is OperatorRole =>
  (OPERATOR_ROLES as readonly string[]).includes(value);

const READS = OPS_SCOPES.filter((s) => s.endsWith(':read'));

/**
 * What each role may do. `admin`: everything (people, tokens, settings); `dispatcher`: the street
 * (rounds, couriers, scans, orders' statuses, pickups); `finance`: money (invoices, credit notes,
 * grids); `support`: reads everything, answers brands (their webhook requests) and sends a
 * recipient's notification again; dispatchers and support correct a flagged delivery address.
 */
export const ROLE_SCOPES: Readonly<Record<OperatorRole, readonly OpsScope[]>> = {
  admin: OPS_SCOPES,
  dispatcher: [
    'orders:read',
    'orders:write',
    'rounds:read',
    'rounds:write',
    'couriers:read',
    'couriers:write',
    'scans:write',
    'pickups:read',
    'pickups:write',
    'brands:read',
    'recipients:read',
    'addresses:write',
  ],
  finance: ['orders:read', 'invoices:read', 'invoices:write', 'grids:read', 'grids:write', 'brands:read'],
  support: [...READS, 'webhooks:write', 'notifications:write', 'addresses:write'],
};

/** The roles that hold `scope`, for a refusal that says whom to ask. */
export const rolesGranting = (scope: OpsScope): OperatorRole[] =>
  OPERATOR_ROLES.filter((role) => ROLE_SCOPES[role].includes(scope));

/** People manage people and tokens: a machine token never holds these. */
const PEOPLE_SCOPES: readonly OpsScope[] = ['operators:read', 'operators:write'];

/** Every scope a machine token may be given. */
export const TOKEN_SCOPES: readonly OpsScope[] = OPS_SCOPES.filter((s) => !PEOPLE_SCOPES.includes(s));

/** A machine token's scopes from `a,b,c` (or a list): known, grantable, at least one; sorted, once each. */
export function parseTokenScopes(input: string | readonly string[]): OpsScope[] {
  const parts = (typeof input === 'string' ? input.split(',') : input).map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw invalidField('scopes', `give at least one of ${TOKEN_SCOPES.join(', ')}`);
  const people = parts.filter((p) => (PEOPLE_SCOPES as readonly string[]).includes(p));
  if (people.length > 0)
    throw invalidField(
      'scopes',
      `${people.map((p) => `"${p}"`).join(', ')} cannot be given to a machine token: people and tokens are managed by an admin's own session`,
    );
  const unknown = parts.filter((p) => !(TOKEN_SCOPES as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw invalidField(
      'scopes',
      `unknown scope ${unknown.map((u) => `"${u.slice(0, 40)}"`).join(', ')}; use ${TOKEN_SCOPES.join(', ')}`,
    );
  return [...new Set(parts as OpsScope[])].sort();
}
