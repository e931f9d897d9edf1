import type { Brand } from './brand.ts';

/** A brand as the operator sees it: `dlv brands --json` and the operations API. */
export const brandJson = (b: Brand) => ({
  id: b.id,
  name: b.name,
  default_pickup_address: b.defaultPickupAddress,
  created_at: b.createdAt.toISOString(),
  disabled_at: b.disabledAt?.toISOString() ?? null,
  webhooks_allowed: b.webhooksAllowed,
});
