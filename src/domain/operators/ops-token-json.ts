import type { OpsToken } from './ports.ts';

/** A machine token as `dlv ops-tokens --json` and the operations API show it (never the token). */
export const opsTokenJson = (t: OpsToken) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  scopes: t.scopes,
  created_at: t.createdAt.toISOString(),
  expires_at: t.expiresAt?.toISOString() ?? null,
  revoked_at: t.revokedAt?.toISOString() ?? null,
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
});
