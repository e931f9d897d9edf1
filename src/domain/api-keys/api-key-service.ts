import type { ApiKeyRecord, ApiKeysRepository } from '../../db/repositories/api-keys-repository.ts';
import { AppError } from '../../errors.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { prefixedId } from '../ids.ts';
import { assertScopesGrantable, generateApiKey, parseScopes } from './keys.ts';

export interface CreatedKey extends ApiKeyRecord {
  /** The full key: returned once, never stored. */
  key: string;
}

export function apiKeyService(
  keys: ApiKeysRepository,
  brands: BrandService,
  /** Told of every revocation, so this process's authentication cache drops the key at once. */
  onRevoked: (keyId: string) => void = () => {},
) {
  return {
    async create(input: { brandId: string; scopes: string | readonly string[] }): Promise<CreatedKey> {
      const scopes = parseScopes(input.scopes);
      assertScopesGrantable(scopes, await brands.get(input.brandId));
      const generated = generateApiKey();
      const record = await keys.insert({
        id: prefixedId('key'),
        brandId: input.brandId,
        hash: generated.hash,
        prefix: generated.prefix,
        scopes,
      });
      return { ...record, key: generated.key };
    },
    async list(brandId: string): Promise<ApiKeyRecord[]> {
      await brands.get(brandId);
      return keys.listForBrand(brandId);
    },
    async revoke(keyId: string): Promise<ApiKeyRecord> {
      const record = /^key_[0-9a-f]{16}$/.test(keyId) ? await keys.revoke(keyId) : null;
      if (!record) throw new AppError('not_found', `no API key with id "${keyId}"`);
      onRevoked(record.id);
      return record;
    },
  };
}

export type ApiKeyService = ReturnType<typeof apiKeyService>;
