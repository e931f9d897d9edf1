import { createCipheriv, createDecipheriv, hkdfSync, randomFillSync } from 'node:crypto';
import { invalidField } from '../../errors.ts';

/**
 * The one codec of the lists' `cursor`s. A cursor is the position after which the next page starts
 * (a row id, a month), encrypted with AES-256-GCM: the caller can neither read the position nor
 * forge one. The list, the brand and the filter it was issued for are its associated data, so a
 * cursor replayed on another brand's list, another list or with another filter fails to
 * authenticate, like a tampered or made-up one: 400 `invalid_request` naming `cursor`.
 *
 * Layout (base64url): version byte, 12-byte nonce, ciphertext, 16-byte tag.
 */

/** What a cursor is bound to: reused anywhere else, it is refused. */
export interface CursorScope {
  /** Which list: `orders`, `invoices`. */
  list: string;
  brandId: string;
  /** The list's filters as given (e.g. the status), in a fixed order. */
  filter: string;
}

export interface CursorCodec {
  encode(scope: CursorScope, position: string): string;
  /** The position, or a 400 naming `cursor`. */
  decode(scope: CursorScope, cursor: string): string;
}

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Positions are short (an id, a month): anything longer was not issued by this API. */
const MAX_CURSOR_LENGTH = 100;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;

const refused = () => invalidField('cursor', 'is not a cursor returned by this API for this list and filter');

function associatedData(scope: CursorScope): Buffer {
  // JSON, so no two scopes share a byte string ("a|bc" and "ab|c" stay apart).
  return Buffer.from(JSON.stringify([VERSION, scope.list, scope.brandId, scope.filter]), 'utf8');
}

/** A codec with a 32-byte key: the same key on every instance, or cursors break across them. */
export function cursorCodec(key: Buffer): CursorCodec {
  if (key.length !== 32) throw new Error('a cursor key is 32 bytes');
  return {
    encode(scope, position) {
      const nonce = randomFillSync(Buffer.alloc(NONCE_BYTES));
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(associatedData(scope));
      const body = Buffer.concat([cipher.update(position, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.of(VERSION), nonce, body, cipher.getAuthTag()]).toString('base64url');
    },
    decode(scope, cursor) {
      if (cursor.length > MAX_CURSOR_LENGTH || !CURSOR_PATTERN.test(cursor)) throw refused();
      const raw = Buffer.from(cursor, 'base64url');
      if (raw.length < 1 + NONCE_BYTES + TAG_BYTES || raw[0] !== VERSION) throw refused();
      const nonce = raw.subarray(1, 1 + NONCE_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(associatedData(scope));
        decipher.setAuthTag(tag);
        const body = raw.subarray(1 + NONCE_BYTES, raw.length - TAG_BYTES);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        throw refused();
      }
    },
  };
}

/** The key from CURSOR_SECRET: any length of secret, stretched to the 32 bytes AES-256 needs. */
export function keyFromSecret(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'dlv', 'list cursor key v1', 32));
}

/**
 * The codec, its key loaded once (from the config, else from the database where the first
 * instance stored a random one): no lookup per request. A failed load (database down) is retried
 * on the next call rather than cached.
 */
export function lazyCursorCodec(loadKey: () => Promise<Buffer>): { ready(): Promise<CursorCodec> } {
  let loading: Promise<CursorCodec> | null = null;
  return {
    ready() {
      loading ??= loadKey().then(cursorCodec, (err: unknown) => {
        loading = null;
        throw err;
      });
      return loading;
    },
  };
}
