import type { PageQuery } from '../../db/repositories/orders-repository.ts';
import { invalidField, validateAll } from '../../errors.ts';
import type { CursorCodec, CursorScope } from '../pagination/cursor.ts';
import { isOrderStatus, ORDER_STATUSES } from './state-machine.ts';

/** The order list's pages: options checked, keyset position sealed in a cursor bound to its list. */

export interface ListOptions {
  status?: string;
  /** Only orders whose own `reference` starts with this (exact match included). */
  reference?: string;
  limit?: number;
  cursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Validated page options; `limit` is one more than asked, to learn whether a next page exists. */
export function pageQuery(options: ListOptions, cursors: CursorCodec, scope: CursorScope): PageQuery {
  const { status, referencePrefix, limit, after } = validateAll({
    status: () => {
      if (options.status === undefined) return null;
      if (!isOrderStatus(options.status))
        throw invalidField('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
      return options.status;
    },
    referencePrefix: () => {
      if (options.reference === undefined) return null;
      const reference = options.reference.trim();
      if (reference.length === 0 || reference.length > 100)
        throw invalidField('reference', 'must be 1 to 100 characters');
      return reference;
    },
    limit: () => {
      const limit = options.limit ?? DEFAULT_PAGE_SIZE;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
        throw invalidField('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
      }
      return limit;
    },
    after: () => (options.cursor === undefined ? null : orderPosition(cursors.decode(scope, options.cursor))),
  });
  return { status, referencePrefix, limit: limit + 1, after };
}

/** A list's cursor is bound to the brand and to its filter: reused with another, it is refused. */
export const orderListScope = (brandId: string, options: ListOptions): CursorScope => ({
  list: 'orders',
  brandId,
  // A reference search adds to the filter; without one it is the status alone, as it always was.
  filter: `${options.status ?? ''}${options.reference === undefined ? '' : `|ref:${options.reference.trim()}`}`,
});

function orderPosition(position: string): number {
  // Only this service encrypts positions, but a key shared with an older format must not crash.
  const id = Number(position);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw invalidField('cursor', 'is not a cursor returned by this API');
  return id;
}
