import type { Scope } from './keys.ts';

export interface ApiKeyRecord {
  id: string;
  brandId: string;
  prefix: string;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Given when created from the account area; keys made by `dlv keys create` have none. */
  name: string | null;
  createdByUserId: string | null;
  /** Set when the key was rolled: it stops working at this instant. */
  expiresAt: Date | null;
}

/** A key as the account area lists it: who created it, by e-mail. */
export interface ListedKey extends ApiKeyRecord {
  createdByEmail: string | null;
}

export type KeyAction = 'created' | 'revoked' | 'rolled';

export interface KeyEvent {
  keyId: string;
  keyPrefix: string;
  keyName: string | null;
  action: KeyAction;
  userEmail: string | null;
  ip: string | null;
  at: Date;
}

/** What authentication needs in one query: the key and its brand. */
export interface KeyWithBrand extends ApiKeyRecord {
  brandName: string;
  brandCreatedAt: Date;
  brandDefaultPickupAddress: string | null;
  /** False when the key belongs to a brand's test twin (a test key). */
  livemode: boolean;
}

/** A key being stored: its SHA-256 and display prefix, never the key. */
export interface NewApiKey {
  id: string;
  brandId: string;
  hash: Buffer;
  prefix: string;
  scopes: Scope[];
  name?: string | null;
  createdByUserId?: string | null;
}

export interface ApiKeyStore {
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key of `hash` if it works at `at`: not revoked, not past its expiry, its brand enabled. */
  findActiveByHash(hash: Buffer, at: Date): Promise<KeyWithBrand | null>;
  listForBrand(brandId: string): Promise<ApiKeyRecord[]>;
  /** Returns the key as it now is, or null when no such key exists. Revoking twice is harmless. */
  /** Revokes a key (again: unchanged); `justRevoked` says whether this call did it. */
  revoke(id: string): Promise<
    | (ApiKeyRecord & {
        justRevoked: boolean;
      })
    | null
  >;
  findInBrand(brandId: string, id: string): Promise<ApiKeyRecord | null>;
  listWithCreators(brandId: string): Promise<ListedKey[]>;
  recordEvent(event: {
    brandId: string;
    keyId: string;
    userId: string | null;
    action: KeyAction;
    ip: string | null;
  }): Promise<void>;
  listEvents(brandId: string, limit: number): Promise<KeyEvent[]>;
  /** Ends a key at `at` unless it already ends sooner (or is revoked); null when nothing changed. */
  expire(id: string, at: Date): Promise<ApiKeyRecord | null>;
  touch(id: string, at: Date): Promise<void>;
}
