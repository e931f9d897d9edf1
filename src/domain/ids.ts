import { randomBytes } from 'node:crypto';

/**
 * Prefixed random ids (`brd_…`, `key_…`, `inv_…`): the prefix tells a reader what the id names
 * (`inv_` an invoice, `ivt_` a team invitation).
 */
export function prefixedId(
  prefix:
    | 'brd'
    | 'key'
    | 'inv'
    | 'ivt'
    | 'whk'
    | 'whr'
    | 'msg'
    | 'usr'
    | 'con'
    | 'cpb'
    | 'cou'
    | 'rnd'
    | 'att'
    | 'ntf'
    | 'rcd'
    | 'opr'
    | 'otk'
    | 'hub'
    | 'veh',
  bytes = 8,
): string {
  return `${prefix}_${randomBytes(bytes).toString('hex')}`;
}
