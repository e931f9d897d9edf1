import { fieldProblem, invalidField, validateAll } from '../../errors.ts';
import type { CursorCodec, CursorScope } from '../pagination/cursor.ts';
import { isOrderStatus, ORDER_STATUSES, type OrderStatus } from './state-machine.ts';

/** The order list's pages: options checked, keyset position sealed in a cursor bound to its list. */

export interface ListOptions {
  status?: string;
  /** Only orders whose own `reference` starts with this (exact match included). */
  reference?: string;
  limit?: number;
  cursor?: string;
  /** `created_at` (default: newest first) or `updated_at` (the change feed: oldest change first). */
  sort?: string;
  /** With `sort=updated_at`: only orders changed strictly after this RFC 3339 instant. */
  updated_after?: string;
}

export const ORDER_SORTS = ['created_at', 'updated_at'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

/** Which list is asked for; `updated_after` only makes sense in the change feed's order. */
export function listSort(options: ListOptions): OrderSort {
  const sort = options.sort ?? 'created_at';
  if (!(ORDER_SORTS as readonly string[]).includes(sort))
    throw invalidField('sort', `must be one of ${ORDER_SORTS.join(', ')}`);
  if (options.updated_after !== undefined && sort !== 'updated_at')
    throw invalidField('updated_after', 'needs sort=updated_at (the orders in the order they changed)');
  return sort as OrderSort;
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

const filterChecks = (options: ListOptions) => ({
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
      throw fieldProblem('reference', 'length.between', { min: 1, max: 100 });
    return reference;
  },
  limit: () => {
    const limit = options.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw invalidField('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    return limit;
  },
});

/** Validated page options; `limit` is one more than asked, to learn whether a next page exists. */
export function pageQuery(options: ListOptions, cursors: CursorCodec, scope: CursorScope): PageQuery {
  const { status, referencePrefix, limit, after } = validateAll({
    ...filterChecks(options),
    after: () => (options.cursor === undefined ? null : orderPosition(cursors.decode(scope, options.cursor))),
  });
  return { status, referencePrefix, limit: limit + 1, after };
}

/**
 * How far behind the present the change feed stops. A change's `updated_at` is taken before its
 * statement commits, so a page read at T could miss a change stamped T - 10 ms that commits at
 * T + 10 ms, and a reader resuming after T would then never see it. Showing only changes older than
 * this lag leaves every write that much time to commit (and covers clock drift between instances,
 * which stamp with their own clocks): changes appear about 5 s late, and, with writes committing
 * within those 5 s, each is seen exactly once. A monotonic sequence would not avoid the wait —
 * sequence numbers are drawn before commit too, in a different order from commits.
 */
export const CHANGE_FEED_LAG_MS = 5000;

/** One page of a brand's orders, newest first, after the order `after` (keyset on created_at, id). */
export interface PageQuery {
  status: OrderStatus | null;
  /** Only orders whose `reference` starts with this (the account area's search); null for all. */
  referencePrefix?: string | null;
  limit: number;
  after: number | null;
}

/** Each order of a page, in the page's order, as its public JSON text, with its internal id. */
export type JsonPage = Array<{ id: number; json: string }>;

/** A page of the change feed: orders by (updated_at, id), oldest first, older than `before`. */
export interface ChangesQuery {
  status: OrderStatus | null;
  referencePrefix: string | null;
  limit: number;
  /** `updated_after`: strictly after this instant. */
  since: Date | null;
  /** The horizon: now minus CHANGE_FEED_LAG_MS. */
  before: Date;
  /** The previous page's last (updated_at to the microsecond, id). */
  after: { at: string; id: number } | null;
}

export function changesQuery(
  options: ListOptions,
  cursors: CursorCodec,
  scope: CursorScope,
  now: Date,
): ChangesQuery {
  const checked = validateAll({
    ...filterChecks(options),
    since: () => (options.updated_after === undefined ? null : rfc3339(options.updated_after)),
    after: () =>
      options.cursor === undefined ? null : changePosition(cursors.decode(scope, options.cursor)),
  });
  return { ...checked, limit: checked.limit + 1, before: new Date(now.getTime() - CHANGE_FEED_LAG_MS) };
}

/** The change feed's cursor is bound to its filters too, `updated_after` included. */
export const orderChangesScope = (brandId: string, options: ListOptions): CursorScope => ({
  list: 'orders-by-update',
  brandId,
  filter: JSON.stringify([
    options.status ?? '',
    options.reference?.trim() ?? '',
    options.updated_after ?? '',
  ]),
});

/** A position of the change feed: `updated_at` as PostgreSQL prints it (microseconds) and the id. */
export const encodeChangePosition = (at: string, id: number) => `${at}|${id}`;

const CHANGE_POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([1-9]\d{0,15})$/;
function changePosition(position: string): { at: string; id: number } {
  const match = CHANGE_POSITION.exec(position);
  if (!match || !Number.isSafeInteger(Number(match[2])))
    throw invalidField('cursor', 'is not a cursor returned by this API');
  return { at: match[1]!, id: Number(match[2]) };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 date-time (a real calendar day); before 1970 is the same as 1970 here. */
function rfc3339(value: string): Date {
  const match = RFC3339.exec(value);
  const ms = Date.parse(value);
  const [, y, m, d] = match ?? [];
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (!match || Number.isNaN(ms) || day.getUTCMonth() !== Number(m) - 1 || day.getUTCDate() !== Number(d)) {
    throw invalidField('updated_after', 'must be an RFC 3339 date-time, e.g. 2026-11-24T09:12:00Z');
  }
  return new Date(Math.max(ms, 0));
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
