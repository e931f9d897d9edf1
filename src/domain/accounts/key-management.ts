import type { ApiKeysRepository, KeyEvent, ListedKey } from '../../db/repositories/api-keys-repository.ts';
import type { Transact } from '../../db/stores.ts';
import { AppError, invalidField } from '../../errors.ts';
import type { CreatedKey } from '../api-keys/api-key-service.ts';
import { generateApiKey, parseScopes } from '../api-keys/keys.ts';
import { prefixedId } from '../ids.ts';
import { canManageKeys, type User } from './user.ts';

const KEY_ID = /^key_[0-9a-f]{16}$/;

/** Who acts on keys from the account area, and from where (kept in the key history). */
export interface KeyActor {
  user: User;
  ip: string | null;
}

/**
 * A brand's API keys as its people manage them: every change is written with its history entry
 * in one transaction. Another brand's key is "not found", exactly like a key that does not exist.
 */
export function keyManagement(deps: {
  keys: ApiKeysRepository;
  transact: Transact;
  /** Told of every revocation, so this process's authentication cache drops the key at once. */
  onRevoked: (keyId: string) => void;
}) {
  function mayManage(user: User): void {
    if (!canManageKeys(user.role))
      throw new AppError('insufficient_scope', 'Your role cannot manage API keys.');
  }

  return {
    async list(user: User): Promise<{ keys: ListedKey[]; events: KeyEvent[] }> {
      mayManage(user);
      const [keys, events] = await Promise.all([
        deps.keys.listWithCreators(user.brandId),
        deps.keys.listEvents(user.brandId, 50),
      ]);
      return { keys, events };
    },

    async find(user: User, keyId: string) {
      mayManage(user);
      const key = KEY_ID.test(keyId) ? await deps.keys.findInBrand(user.brandId, keyId) : null;
      if (!key) throw new AppError('not_found', 'No such API key.');
      return key;
    },

    /** The caller has stepped up (checked by the caller: it holds the session). */
    async create(actor: KeyActor, input: { name: string; scopes: readonly string[] }): Promise<CreatedKey> {
      mayManage(actor.user);
      if (!actor.user.emailVerifiedAt) {
        throw new AppError('insufficient_scope', 'Confirm your e-mail address before creating API keys.');
      }
      const name = input.name.trim();
      if (name.length === 0 || name.length > 100) throw invalidField('name', 'must be 1 to 100 characters');
      const scopes = parseScopes(input.scopes);
      const generated = generateApiKey();
      const record = await deps.transact(async (stores) => {
        const key = await stores.apiKeys.insert({
          id: prefixedId('key'),
          brandId: actor.user.brandId,
          hash: generated.hash,
          prefix: generated.prefix,
          scopes,
          name,
          createdByUserId: actor.user.id,
        });
        await stores.apiKeys.recordEvent({
          brandId: key.brandId,
          keyId: key.id,
          userId: actor.user.id,
          action: 'created',
          ip: actor.ip,
        });
        return key;
      });
      return { ...record, key: generated.key };
    },

    async revoke(actor: KeyActor, keyId: string): Promise<void> {
      const key = await this.find(actor.user, keyId);
      if (key.revokedAt) return;
      await deps.transact(async (stores) => {
        await stores.apiKeys.revoke(key.id);
        await stores.apiKeys.recordEvent({
          brandId: key.brandId,
          keyId: key.id,
          userId: actor.user.id,
          action: 'revoked',
          ip: actor.ip,
        });
      });
      deps.onRevoked(key.id);
    },
  };
}

export type KeyManagement = ReturnType<typeof keyManagement>;
