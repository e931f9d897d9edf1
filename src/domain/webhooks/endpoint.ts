import type { WebhookEventType } from './events.ts';

export const ENDPOINT_ID_PATTERN = /^whk_[0-9a-f]{16}$/;
export const DELIVERY_ID_PATTERN = /^whd_[0-9a-f]{16}$/;

/** How long a rotated-out secret keeps signing, so receivers can switch without losing a delivery. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/** `deleted`: an API subscription its brand removed (or whose receiver answered 410 Gone). */
export type EndpointStatus = 'active' | 'disabled' | 'deleted';

/** Who made it: the operator (`dlv webhooks add`) or the brand's tools (the subscription API). */
export type EndpointOrigin = 'operator' | 'api';

/** An endpoint as the operator sees it: never its secrets, which are shown once. */
export interface WebhookEndpoint {
  id: string;
  brandId: string;
  url: string;
  eventTypes: WebhookEventType[];
  origin: EndpointOrigin;
  description: string | null;
  status: EndpointStatus;
  deletedAt: Date | null;
  disabledReason: string | null;
  disabledAt: Date | null;
  firstFailureAt: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EndpointSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign at `now`: the current one, plus the previous one during its 24 h. */
export function signingSecrets(s: EndpointSecrets, now: Date): string[] {
  const previousValid =
    s.previousSecret !== null &&
    s.previousSecretExpiresAt !== null &&
    s.previousSecretExpiresAt.getTime() > now.getTime();
  return previousValid ? [s.secret, s.previousSecret!] : [s.secret];
}

/** The operator's view of an endpoint (`dlv webhooks`): never its secrets. */
interface EndpointJson {
  id: string;
  brand_id: string;
  url: string;
  events: WebhookEventType[];
  origin: EndpointOrigin;
  description: string | null;
  status: EndpointStatus;
  disabled_reason: string | null;
  disabled_at: string | null;
  failing_since: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
}

export function endpointJson(e: WebhookEndpoint): EndpointJson {
  return {
    id: e.id,
    brand_id: e.brandId,
    url: e.url,
    events: e.eventTypes,
    origin: e.origin,
    description: e.description,
    status: e.status,
    disabled_reason: e.disabledReason,
    disabled_at: e.disabledAt?.toISOString() ?? null,
    failing_since: e.firstFailureAt?.toISOString() ?? null,
    previous_secret_expires_at: e.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
  };
}
