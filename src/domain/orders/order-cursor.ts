import { invalidField } from '../../errors.ts';

// Opaque to clients; versioned so the format can change without breaking cursors in flight.
const PREFIX = 'o1.';

export function encodeCursor(lastId: number): string {
  return Buffer.from(`${PREFIX}${lastId}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const decoded = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const id = decoded.startsWith(PREFIX) ? Number(decoded.slice(PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0)
    throw invalidField('cursor', 'is not a cursor returned by this API');
  return id;
}
