import { AppError } from '../../errors.ts';
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
  create(input: { brandId: string; scopes: string | readonly string[] }): Promise<CreatedKey>;
  list(brandId: string): Promise<ApiKeyRecord[]>;
  revoke(keyId: string): Promise<ApiKeyRecord>;
}

/**
 * The operator's keys (`dlv keys`, the operations API). Each creation and revocation is written to
 * the brand's key history with no user (shown as made by the operator), in the same transaction.
 */
export function apiKeyService(
  keys: ApiKeyStore,
  transact: Transact,
  brands: BrandService,
  /** Told of every revocation, so this process's authentication cache drops the key at once. */
  onRevoked: (keyId: string) => void = () => {},
): ApiKeyService {
  return {
    async create(input: { brandId: string; scopes: string | readonly string[] }): Promise<CreatedKey> {
      const scopes = parseScopes(input.scopes);
      assertScopesGrantable(scopes, await brands.get(input.brandId));
      const generated = generateApiKey();
      const record = await transact(async (tx) => {
        const inserted = await tx.apiKeys.insert({
          id: prefixedId('key'),
          brandId: input.brandId,
          hash: generated.hash,
          prefix: generated.prefix,
          scopes,
        });
        await tx.apiKeys.recordEvent(operatorEvent(inserted, 'created'));
        return inserted;
      });
      return { ...record, key: generated.key };
    },
    async list(brandId: string): Promise<ApiKeyRecord[]> {
      await brands.get(brandId);
      return keys.listForBrand(brandId);
    },
    async revoke(keyId: string): Promise<ApiKeyRecord> {
      const revoked = /^key_[0-9a-f]{16}$/.test(keyId)
        ? await transact(async (tx) => {
            const result = await tx.apiKeys.revoke(keyId);
            if (result?.justRevoked) await tx.apiKeys.recordEvent(operatorEvent(result, 'revoked'));
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

const operatorEvent = (key: ApiKeyRecord, action: 'created' | 'revoked') => ({
  brandId: key.brandId,
  keyId: key.id,
  userId: null,
  action,
  ip: null,
});
