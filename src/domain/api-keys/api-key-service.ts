import { AppError } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditEntry } from '../audit/ports.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { prefixedId } from '../ids.ts';
import type { Transact } from '../shared/stores.ts';
import { assertScopesGrantable, generateApiKey, parseScopes } from './keys.ts';
import type { ApiKeyRecord, ApiKeyStore } from './ports.ts';

export interface CreatedKey extends ApiKeyRecord {
  /** The full key: returned once, never stored. */
  key: string;
}

export interface ApiKeyService {
  /** `test`: a test key (`dlv_test_…`), which belongs to the brand's test twin (test mode). */
  create(
    input: { brandId: string; scopes: string | readonly string[]; test?: boolean },
    by: Author,
  ): Promise<CreatedKey>;
  list(brandId: string): Promise<ApiKeyRecord[]>;
  revoke(keyId: string, by: Author): Promise<ApiKeyRecord>;
}

/**
 * The operator's keys (`dlv keys`, the operations API). Each creation and revocation is written to
 * the brand's key history with no user (shown as made by the operator) and to the audit trail with
 * who made it, in the same transaction.
 */
export function apiKeyService(
  keys: ApiKeyStore,
  transact: Transact,
  brands: BrandService,
  /** Told of every revocation, so this process's authentication cache drops the key at once. */
  onRevoked: (keyId: string) => void = () => {},
): ApiKeyService {
  return {
    async create(
      input: { brandId: string; scopes: string | readonly string[]; test?: boolean },
      by: Author,
    ): Promise<CreatedKey> {
      const scopes = parseScopes(input.scopes);
      assertScopesGrantable(scopes, await brands.get(input.brandId));
      const generated = generateApiKey(input.test ? 'test' : 'live');
      const brandId = input.test ? await brands.testTwinId(input.brandId) : input.brandId;
      const record = await transact(async (tx) => {
        const inserted = await tx.apiKeys.insert({
          id: prefixedId('key'),
          brandId,
          hash: generated.hash,
          prefix: generated.prefix,
          scopes,
        });
        await tx.apiKeys.recordEvent(operatorEvent(inserted, 'created'));
        await tx.audit.record(keyCreated(inserted, by));
        return inserted;
      });
      return { ...record, key: generated.key };
    },
    async list(brandId: string): Promise<ApiKeyRecord[]> {
      await brands.get(brandId);
      return keys.listForBrand(brandId);
    },
    async revoke(keyId: string, by: Author): Promise<ApiKeyRecord> {
      const revoked = /^key_[0-9a-f]{16}$/.test(keyId)
        ? await transact(async (tx) => {
            const result = await tx.apiKeys.revoke(keyId);
            if (result?.justRevoked) {
              await tx.apiKeys.recordEvent(operatorEvent(result, 'revoked'));
              await tx.audit.record(keyRevoked(result, by));
            }
            return result;
          })
        : null;
      if (!revoked) throw new AppError('not_found', `no API key with id "${keyId}"`);
      const { justRevoked: _, ...record } = revoked;
      onRevoked(record.id);
      return record;
    },
  };
}

/** A new key in the audit trail: its id, prefix and scopes (never the key, nor its digest). */
export const keyCreated = (key: ApiKeyRecord, by: Author): AuditEntry => ({
  action: 'api_key.created',
  by,
  object: { type: 'api_key', id: key.id },
  brandId: key.brandId,
  changes: { scopes: { before: null, after: [...key.scopes] } },
  details: { prefix: key.prefix, name: key.name ?? null },
});

export const keyRevoked = (key: ApiKeyRecord, by: Author): AuditEntry => ({
  action: 'api_key.revoked',
  by,
  object: { type: 'api_key', id: key.id },
  brandId: key.brandId,
  changes: { revoked_at: { before: null, after: key.revokedAt?.toISOString() ?? null } },
  details: { prefix: key.prefix },
});

const operatorEvent = (key: ApiKeyRecord, action: 'created' | 'revoked') => ({
  brandId: key.brandId,
  keyId: key.id,
  userId: null,
  action,
  ip: null,
});
