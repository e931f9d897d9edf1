import { createHash, randomBytes } from 'node:crypto';
import { AppError, fieldProblem, invalidField, validateAll } from '../../errors.ts';
import { isIsoDate } from '../calendar/iso-date.ts';
import { parisLocalTime } from '../calendar/paris-time.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import type { Transact } from '../shared/stores.ts';
import type { ActedBy, OperatorAudit } from './acting.ts';
import type { OpsToken, OpsTokenStore } from './ports.ts';
import { type OpsScope, parseTokenScopes } from './scopes.ts';

/** `dlv_ops_` + 64 lowercase hex (32 random bytes), as the API keys are `dlv_` + 64 hex. */
const TOKEN_PATTERN = /^dlv_ops_[0-9a-f]{64}$/;
/** Shown to people to recognise a token without revealing it: `dlv_ops_` + 8 hex. */
const PREFIX_LENGTH = 16;
/** A token's life, when it has an end: at most this long. */
const MAX_EXPIRY_DAYS = 3650;

/** SHA-256 suffices: a token carries 256 random bits, there is nothing to brute-force. */
const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** What a machine token stands for on a request: the audit trail's `token` actor and its scopes. */
interface OpsTokenIdentity {
  id: string;
  name: string;
  prefix: string;
  scopes: readonly OpsScope[];
  expiresAt: Date | null;
}

interface CreatedOpsToken extends OpsToken {
  /** The token itself: returned once, never stored. */
  token: string;
}

export interface OpsTokenService {
  create(
    input: { name: string; scopes: string | readonly string[]; expiresAt: Date | null },
    by: ActedBy,
  ): Promise<CreatedOpsToken>;
  list(): Promise<OpsToken[]>;
  /** Refused at once on this instance, within the cache's bound (< 5 s) on the others. */
  revoke(tokenId: string, by: ActedBy): Promise<OpsToken>;
  /** The token a bearer credential is, if it works now; null for an unknown, revoked or expired one. */
  authenticate(token: string): Promise<OpsTokenIdentity | null>;
}

export interface OpsTokenServiceDeps {
  tokens: OpsTokenStore;
  transact: Transact;
  clock: Clock;
  audit: OperatorAudit;
  /** How long a verified token is trusted from memory (AUTH_CACHE_TTL_MS, < 5 s: the revocation bound). */
  cacheTtlMs: number;
  /** `last_used_at` is written at most this often per token, off the request path. */
  touchEveryMs?: number;
}

const MAX_CACHED = 10_000;

function validateTokenName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    throw fieldProblem('name', 'length.between', { min: 1, max: 100 });
  if (/\p{Cc}/u.test(trimmed)) throw invalidField('name', 'must not contain control characters');
  return trimmed;
}

/**
 * When a token given `--expires` ends: `90d` (days from now), `2026-12-31` (the end of that day,
 * Paris time) or an RFC 3339 instant; in the future, at most ten years away.
 */
export function parseTokenExpiry(text: string, now: Date): Date {
  const value = text.trim();
  const days = /^(\d{1,4})d$/.exec(value);
  let at: Date;
  if (days) at = new Date(now.getTime() + Number(days[1]) * 86_400_000);
  else if (isIsoDate(value)) at = startOfParisDayAfter(value);
  else if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))) at = new Date(value);
  else throw invalidField('expires', 'give a number of days (90d), a date (YYYY-MM-DD) or an RFC 3339 time');
  checkExpiry(at, now, 'expires');
  return at;
}

function checkExpiry(at: Date, now: Date, field: string): void {
  if (at.getTime() <= now.getTime()) throw invalidField(field, 'must be in the future');
  if (at.getTime() > now.getTime() + MAX_EXPIRY_DAYS * 86_400_000)
    throw invalidField(field, `must be within ${MAX_EXPIRY_DAYS} days`);
}

/** The instant a Paris calendar day ends (Paris is UTC+1 in winter, UTC+2 in summer). */
function startOfParisDayAfter(date: string): Date {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);
  const nextDate = next.toISOString().slice(0, 10);
  for (const hours of [1, 2]) {
    const candidate = new Date(next.getTime() - hours * 3600_000);
    const local = parisLocalTime(candidate);
    if (local.date === nextDate && local.hour === 0 && local.minute === 0) return candidate;
  }
  return next;
}

/** Machine tokens (`dlv ops-tokens`, an admin through the operations API), and their verification. */
export function opsTokenService(deps: OpsTokenServiceDeps): OpsTokenService {
  const { tokens, transact, clock, audit } = deps;
  const touchEveryMs = deps.touchEveryMs ?? 60_000;
  const cache = new Map<string, { identity: OpsTokenIdentity; until: number }>();
  const lastTouched = new Map<string, number>();

  function touch(id: string): void {
    const at = clock().getTime();
    if (at - (lastTouched.get(id) ?? 0) < touchEveryMs) return;
    lastTouched.set(id, at);
    if (lastTouched.size > MAX_CACHED) lastTouched.clear();
    tokens.touch(id, new Date(at)).catch(() => {
      lastTouched.delete(id); // try again on the next request
    });
  }

  function forget(tokenId: string): void {
    for (const [token, entry] of cache) if (entry.identity.id === tokenId) cache.delete(token);
  }

  return {
    async create(input, by) {
      const now = clock();
      const fields = validateAll({
        name: () => validateTokenName(input.name ?? ''),
        scopes: () => parseTokenScopes(input.scopes ?? ''),
        expiresAt: () => {
          if (input.expiresAt) checkExpiry(input.expiresAt, now, 'expires_at');
          return input.expiresAt;
        },
      });
      const token = `dlv_ops_${randomBytes(32).toString('hex')}`;
      const record = await transact(async (tx) => {
        const inserted = await tx.opsTokens.insert({
          id: prefixedId('otk'),
          name: fields.name,
          hash: digest(token),
          prefix: token.slice(0, PREFIX_LENGTH),
          scopes: fields.scopes,
          expiresAt: fields.expiresAt,
        });
        if (!inserted) throw invalidField('name', 'another token that works has this name; choose another');
        await audit.record(tx, {
          action: 'ops_token.created',
          by,
          subject: { type: 'ops_token', id: inserted.id },
          before: null,
          after: {
            name: inserted.name,
            prefix: inserted.prefix,
            scopes: inserted.scopes,
            expires_at: inserted.expiresAt?.toISOString() ?? null,
          },
        });
        return inserted;
      });
      return { ...record, token };
    },

    list: () => tokens.list(),

    async revoke(tokenId, by) {
      const revoked = /^otk_[0-9a-f]{16}$/.test(tokenId)
        ? await transact(async (tx) => {
            const result = await tx.opsTokens.revoke(tokenId);
            if (result?.justRevoked)
              await audit.record(tx, {
                action: 'ops_token.revoked',
                by,
                subject: { type: 'ops_token', id: result.id },
                before: { revoked_at: null },
                after: { revoked_at: result.revokedAt?.toISOString() ?? null },
              });
            return result;
          })
        : null;
      if (!revoked) throw new AppError('not_found', `No machine token ${tokenId.slice(0, 100)}.`);
      forget(revoked.id);
      const { justRevoked: _, ...token } = revoked;
      return token;
    },

    async authenticate(token) {
      if (!TOKEN_PATTERN.test(token)) return null;
      const now = clock().getTime();
      const hit = cache.get(token);
      if (hit && hit.until > now) {
        touch(hit.identity.id);
        return hit.identity;
      }
      cache.delete(token);
      const record = await tokens.findActiveByHash(digest(token), new Date(now));
      if (!record) return null;
      const identity: OpsTokenIdentity = {
        id: record.id,
        name: record.name,
        prefix: record.prefix,
        scopes: record.scopes,
        expiresAt: record.expiresAt,
      };
      // Never trusted past its own end, nor past the revocation bound.
      const until = Math.min(now + deps.cacheTtlMs, record.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
      if (until > now) {
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
        cache.set(token, { identity, until });
      }
      touch(record.id);
      return identity;
    },
  };
}
