/** A value the trail stores as JSON. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One changed field: its value before and after (null before for something created), or, for a
 * person's data, only that it changed: the trail keeps references, never copies (docs/security.md).
 */
type FieldChange = { before: JsonValue; after: JsonValue } | 'changed';

/** The changed fields only, by their public name (`delivery_phone`, `status`). */
export type FieldChanges = Record<string, FieldChange>;

/**
 * A recipient's (or a courier's) personal fields: their before/after is recorded as "changed". The
 * names are the orders' and couriers' public ones.
 */
const PERSONAL_FIELDS: ReadonlySet<string> = new Set([
  'delivery_recipient',
  'delivery_address',
  'delivery_phone',
  'delivery_email',
  'customer_email',
  'received_by',
  'name',
  'email',
  'phone',
]);

const same = (a: JsonValue | undefined, b: JsonValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields whose value differs between `before` (null: the object is new) and `after` (null:
 * it is gone), each with both values or "changed" for a personal one; null when nothing differs.
 */
export function changedFields(
  before: Readonly<Record<string, JsonValue>> | null,
  after: Readonly<Record<string, JsonValue>> | null,
  personal: ReadonlySet<string> = PERSONAL_FIELDS,
): FieldChanges | null {
  const changes: FieldChanges = {};
  for (const field of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const was = before?.[field];
    const is = after?.[field];
    if (same(was, is)) continue;
    changes[field] = personal.has(field) ? 'changed' : { before: was ?? null, after: is ?? null };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}
