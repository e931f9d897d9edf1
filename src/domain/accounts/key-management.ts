import { AppError, fieldProblem, invalidField } from '../../errors.ts';
import { type CreatedKey, keyCreated, keyRevoked } from '../api-keys/api-key-service.ts';
import { assertScopesGrantable, generateApiKey, isTestKey, parseScopes } from '../api-keys/keys.ts';
import type { ApiKeyRecord, ApiKeyStore, KeyEvent, ListedKey } from '../api-keys/ports.ts';
import type { Author, RequestOrigin } from '../audit/actor.ts';
import { prefixedId } from '../ids.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import type { Transact } from '../shared/stores.ts';
import { canManageKeys, type User } from './user.ts';

const KEY_ID = /^key_[0-9a-f]{16}$/;

/** How long a rolled key keeps working, so the new one can be deployed first. */
export const ROLL_GRACE = { now: 0, '1h': 3600_000, '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 } as const;
export type RollGrace = keyof typeof ROLL_GRACE;
const isRollGrace = (value: string): value is RollGrace => Object.hasOwn(ROLL_GRACE, value);

/**
 * Who acts on keys from the account area, and from where: kept in the key history (the address)
 * and in the audit trail (the address, the browser, the request), where brand staff are actors too.
 */
interface KeyActor {
  user: User;
  ip: string | null;
  origin: RequestOrigin | null;
}

const authorOf = (actor: KeyActor): Author => ({
  actor: { kind: 'user', userId: actor.user.id, brandId: actor.user.brandId },
  origin: actor.origin,
});

/** The keys page: a brand's API keys and their history, managed by the people allowed to. */
export interface KeyManagement {
  list(user: User): Promise<{ keys: ListedKey[]; events: KeyEvent[] }>;
  find(user: User, keyId: string): Promise<ApiKeyRecord>;
  /** The caller has stepped up (checked by the caller: it holds the session). */
  /** `test`: a test key (`dlv_test_…`), which belongs to the brand's test twin (test mode). */
  create(
    actor: KeyActor,
    input: { name: string; scopes: readonly string[]; test?: boolean },
  ): Promise<CreatedKey>;
  /**
   * A new key with the same scopes replaces `keyId`, which keeps working for `grace` and then
   * stops (its `expires_at`). The caller has stepped up. Both changes and their history entries
   * are one transaction: a key that was revoked or expired meanwhile makes nothing happen.
   */
  roll(actor: KeyActor, keyId: string, grace: string): Promise<CreatedKey>;
  revoke(actor: KeyActor, keyId: string): Promise<void>;
}

/**
 * A brand's API keys as its people manage them: every change is written with its history entry
 * in one transaction. Another brand's key is "not found", exactly like a key that does not exist.
 */
export function keyManagement(deps: {
  keys: ApiKeyStore;
  transact: Transact;
  /** Told of every revocation, so this process's authentication cache drops the key at once. */
  onRevoked: (keyId: string) => void;
  clock?: Clock;
}): KeyManagement {
  const clock = deps.clock ?? systemClock;
  function mayManage(user: User): void {
    if (!canManageKeys(user.role))
      throw new AppError('insufficient_scope', 'Your role cannot manage API keys.');
  }

  function mustBeVerified(user: User): void {
    if (!user.emailVerifiedAt) {
      throw new AppError('insufficient_scope', 'Confirm your e-mail address before creating API keys.');
    }
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

    async create(
      actor: KeyActor,
      input: { name: string; scopes: readonly string[]; test?: boolean },
    ): Promise<CreatedKey> {
      mayManage(actor.user);
      mustBeVerified(actor.user);
      const name = input.name.trim();
      if (name.length === 0 || name.length > 100)
        throw fieldProblem('name', 'length.between', { min: 1, max: 100 });
      const scopes = parseScopes(input.scopes);
      const generated = generateApiKey(input.test ? 'test' : 'live');
      const record = await deps.transact(async (stores) => {
        const brand = await stores.brands.findById(actor.user.brandId);
        if (!brand) throw new AppError('not_found', 'No such brand.');
        assertScopesGrantable(scopes, brand);
        const brandId = input.test
          ? await stores.brands.testTwin(brand.id, prefixedId('brd'))
          : actor.user.brandId;
        const key = await stores.apiKeys.insert({
          id: prefixedId('key'),
          brandId,
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
        await stores.audit.record(keyCreated(key, authorOf(actor)));
        return key;
      });
      return { ...record, key: generated.key };
    },

    async roll(actor: KeyActor, keyId: string, grace: string): Promise<CreatedKey> {
      const old = await this.find(actor.user, keyId);
      mustBeVerified(actor.user);
      if (!isRollGrace(grace)) throw invalidField('grace', 'must be now, 1h, 24h or 7d');
      const endsAt = new Date(clock().getTime() + ROLL_GRACE[grace]);
      const gone = new AppError('invalid_request', 'This key has been revoked or has expired.');
      if (old.revokedAt || (old.expiresAt && old.expiresAt <= clock())) throw gone;
      const generated = generateApiKey(isTestKey(old.prefix) ? 'test' : 'live');
      const base = old.name ?? old.prefix;
      const name = `${base.slice(0, 100 - ' (rolled)'.length)} (rolled)`;
      const record = await deps.transact(async (stores) => {
        if (!(await stores.apiKeys.expire(old.id, endsAt)) && !(old.expiresAt && old.expiresAt <= endsAt))
          throw gone;
        const key = await stores.apiKeys.insert({
          id: prefixedId('key'),
          brandId: old.brandId,
          hash: generated.hash,
          prefix: generated.prefix,
          scopes: old.scopes,
          name,
          createdByUserId: actor.user.id,
        });
        const event = { brandId: old.brandId, userId: actor.user.id, ip: actor.ip };
        await stores.apiKeys.recordEvent({ ...event, keyId: old.id, action: 'rolled' });
        await stores.apiKeys.recordEvent({ ...event, keyId: key.id, action: 'created' });
        await stores.audit.record(
          {
            action: 'api_key.rolled',
            by: authorOf(actor),
            object: { type: 'api_key', id: old.id },
            brandId: old.brandId,
            changes: {
              expires_at: { before: old.expiresAt?.toISOString() ?? null, after: endsAt.toISOString() },
            },
            details: { replaced_by: key.id, grace },
          },
          keyCreated(key, authorOf(actor)),
        );
        return key;
      });
      if (grace === 'now') deps.onRevoked(old.id);
      return { ...record, key: generated.key };
    },

    async revoke(actor: KeyActor, keyId: string): Promise<void> {
      const key = await this.find(actor.user, keyId);
      if (key.revokedAt) return;
      await deps.transact(async (stores) => {
        const revoked = await stores.apiKeys.revoke(key.id);
        await stores.apiKeys.recordEvent({
          brandId: key.brandId,
          keyId: key.id,
          userId: actor.user.id,
          action: 'revoked',
          ip: actor.ip,
        });
        if (revoked?.justRevoked) await stores.audit.record(keyRevoked(revoked, authorOf(actor)));
      });
      deps.onRevoked(key.id);
    },
  };
}
