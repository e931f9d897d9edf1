import { randomBytes } from 'node:crypto';

/** Prefixed random ids (`brd_…`, `key_…`, `inv_…`): the prefix tells a reader what the id names. */
export function prefixedId(
  prefix: 'brd' | 'key' | 'inv' | 'whk' | 'whr' | 'msg' | 'usr' | 'con' | 'cpb',
  bytes = 8,
): string {
  return `${prefix}_${randomBytes(bytes).toString('hex')}`;
}
