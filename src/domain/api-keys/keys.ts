import { createHash, randomBytes } from 'node:crypto';
import { fieldProblem, invalidField } from '../../errors.ts';

export const SCOPES = ['orders:read', 'orders:write', 'invoices:read', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** A live key is `dlv_` + 64 hex, a test key (test mode, docs/test-mode.md) `dlv_test_` + 64 hex. */
export const KEY_PATTERN = /^dlv_(?:test_)?[0-9a-f]{64}$/;
const TEST_KEY_START = 'dlv_test_';
/** Shown to people to recognise a key without revealing it: `dlv_` (or `dlv_test_`) + 8 hex. */
const PREFIX_HEX = 8;

/** Whether a key (or its display prefix) is a test key: said by its text, so people can tell. */
export const isTestKey = (keyOrPrefix: string): boolean => keyOrPrefix.startsWith(TEST_KEY_START);

export interface GeneratedKey {
  key: string;
  hash: Buffer;
  prefix: string;
}

export function generateApiKey(mode: 'live' | 'test' = 'live'): GeneratedKey {
  const start = mode === 'test' ? TEST_KEY_START : 'dlv_';
  const key = `${start}${randomBytes(32).toString('hex')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, start.length + PREFIX_HEX) };
}

/** A fast hash is right here: keys carry 256 random bits, so there is nothing to brute-force. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Parses `a,b,c` (or a list); every scope must be known and at least one given. */
export function parseScopes(input: string | readonly string[]): Scope[] {
  const parts = (typeof input === 'string' ? input.split(',') : input).map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw invalidField('scopes', `give at least one of ${SCOPES.join(', ')}`);
  const unknown = parts.filter((p) => !isScope(p));
  if (unknown.length > 0) {
    throw invalidField(
      'scopes',
      `unknown scope ${unknown.map((u) => `"${u}"`).join(', ')}; use ${SCOPES.join(', ')}`,
    );
  }
  return [...new Set(parts as Scope[])].sort();
}

/** The scope of the webhook subscription API, which the operator opens brand by brand. */
const WEBHOOKS_SCOPE = 'webhooks:write' satisfies Scope;

/** Every scope a brand can be given before the operator opens webhook subscriptions to it. */
export const BASIC_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== WEBHOOKS_SCOPE);

/**
 * Signed notifications are offered on request: `webhooks:write` only goes to a brand the operator
 * has allowed (`dlv brands allow-webhooks`), whoever creates the key (the CLI or the account area).
 */
export function assertScopesGrantable(scopes: readonly Scope[], brand: { webhooksAllowed: boolean }): void {
  if (scopes.includes(WEBHOOKS_SCOPE) && !brand.webhooksAllowed) {
    throw fieldProblem('scopes', 'scopes.webhooksClosed');
  }
}
