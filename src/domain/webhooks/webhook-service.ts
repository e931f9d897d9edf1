import { AppError, invalidField } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditEntry, AuditStore } from '../audit/ports.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { prefixedId } from '../ids.ts';
import { MESSAGE_LOG_SETTING, retentionCutoff } from '../privacy/retention-periods.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import type { WebhookDelivery } from './delivery.ts';
import {
  DELIVERY_ID_PATTERN,
  ENDPOINT_ID_PATTERN,
  PREVIOUS_SECRET_TTL_MS,
  type WebhookEndpoint,
} from './endpoint.ts';
import { parseEventTypes } from './events.ts';
import type { DestinationGuard } from './outbound.ts';
import type { WebhookStore } from './ports.ts';
import { generateWebhookSecret } from './secrets.ts';

export interface WebhookServiceDeps {
  repository: WebhookStore;
  /** Each change of the operator's with its audit entry, in one transaction. */
  transact: UnitOfWork<{ webhooks: WebhookStore; audit: AuditStore }>;
  brands: BrandService;
  clock: Clock;
  /** The SSRF guard (WEBHOOKS_ALLOW_INSECURE allows http and loopback receivers, for development). */
  destinations: DestinationGuard;
  /** Told when a subscription changes here, so this instance's listener cache need not wait for its poll. */
  onSubscriptionsChanged?: () => void;
  /**
   * Days events and their deliveries are kept (MESSAGE_LOG_RETENTION_DAYS): an event older than
   * that is deleted, or about to be, so it is not replayed.
   */
  retentionDays: number;
}

const DEFAULT_DELIVERY_LIMIT = 50;
const MAX_DELIVERY_LIMIT = 1000;

/** A new endpoint or a new secret: the only time the secret is shown. */
interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/**
 * The operator's webhook endpoints (`dlv webhooks`, the operations API) and their deliveries. Each
 * change is recorded in the audit trail with `by`, in the change's transaction (never a secret).
 */
export interface WebhookService {
  /** Returns the new endpoint with its secret, the only time the secret is shown. */
  add(
    input: { brandId: string; url: string; events?: string | string[] },
    by: Author,
  ): Promise<EndpointWithSecret>;
  list(brandId: string | null): Promise<WebhookEndpoint[]>;
  get(id: string): Promise<WebhookEndpoint>;
  disable(id: string, by: Author, reason?: string): Promise<WebhookEndpoint>;
  /** Deliveries exhausted while it was disabled are not resent: `replay --since` does that. */
  enable(id: string, by: Author): Promise<WebhookEndpoint>;
  /** A new secret; the old one keeps signing beside it for 24 h. */
  rotateSecret(id: string, by: Author): Promise<EndpointWithSecret>;
  deliveries(endpointId: string, limit?: number): Promise<WebhookDelivery[]>;
  /**
   * Sends one delivery's event again, with the same webhook-id, as a new delivery; refused once the
   * event is older than the retention (its payload is deleted then).
   */
  replayDelivery(deliveryId: string, by: Author): Promise<WebhookDelivery>;
  /**
   * Sends every event since `since` again to every active endpoint subscribed to it (or only
   * `endpointId`), including events missed while an endpoint was disabled. Receivers already
   * holding one deduplicate it by its webhook-id. A `since` before the retention is refused: the
   * events before it are gone, and a replay that silently left them out would look complete.
   */
  replaySince(since: Date, endpointId: string | null, by: Author): Promise<string[]>;
}

/** An endpoint's audit entry: its URL and events are the brand's settings, the secret never shown. */
function endpointEntry(
  action: AuditEntry['action'],
  by: Author,
  endpoint: WebhookEndpoint,
  changes: AuditEntry['changes'],
  details?: AuditEntry['details'],
): AuditEntry {
  return {
    action,
    by,
    object: { type: 'webhook_endpoint', id: endpoint.id },
    brandId: endpoint.brandId,
    changes,
    details: details ?? null,
  };
}

/** The operator's webhook administration (SPEC §8): endpoints, the delivery log, replays. */
export function webhookService(deps: WebhookServiceDeps): WebhookService {
  const { repository, clock, transact } = deps;
  const kept = `events and their deliveries are kept ${deps.retentionDays} days (${MESSAGE_LOG_SETTING})`;

  async function endpoint(id: string): Promise<WebhookEndpoint> {
    const found = ENDPOINT_ID_PATTERN.test(id) ? await repository.findEndpoint(id) : null;
    if (!found) throw new AppError('not_found', `no webhook endpoint with id "${id}"`);
    return found;
  }

  /** One the operator may still change: a subscription its brand deleted is only kept for its log. */
  async function live(id: string): Promise<WebhookEndpoint> {
    const found = await endpoint(id);
    if (found.status === 'deleted') {
      throw new AppError('invalid_request', `endpoint ${id} was deleted (by its brand, or after a 410 Gone)`);
    }
    return found;
  }

  return {
    async add(input: { brandId: string; url: string; events?: string | string[] }, by: Author) {
      const brand = await deps.brands.get(input.brandId);
      const eventTypes = parseEventTypes(input.events);
      const url = deps.destinations.validate(input.url.trim());
      // Checked again on every attempt (DNS changes); refusing here tells the operator at once.
      await deps.destinations.assertPublic(url);
      const secret = generateWebhookSecret();
      const created = await transact(async (tx) => {
        const endpoint = await tx.webhooks.insertEndpoint({
          id: prefixedId('whk'),
          brandId: brand.id,
          url: url.href,
          eventTypes,
          secret,
          at: clock(),
        });
        await tx.audit.record(
          endpointEntry('webhook.endpoint_added', by, endpoint, {
            url: { before: null, after: endpoint.url },
            events: { before: null, after: endpoint.eventTypes },
            status: { before: null, after: endpoint.status },
          }),
        );
        return endpoint;
      });
      deps.onSubscriptionsChanged?.();
      return { endpoint: created, secret };
    },

    list(brandId: string | null): Promise<WebhookEndpoint[]> {
      return repository.listEndpoints(brandId);
    },

    get: endpoint,

    async disable(id: string, by: Author, reason = 'disabled by the operator'): Promise<WebhookEndpoint> {
      const before = await live(id);
      return transact(async (tx) => {
        const endpoint = (await tx.webhooks.setEndpointStatus(id, {
          status: 'disabled',
          reason,
          at: clock(),
        }))!;
        if (before.status !== 'disabled')
          await tx.audit.record(
            endpointEntry(
              'webhook.endpoint_disabled',
              by,
              endpoint,
              { status: { before: before.status, after: endpoint.status } },
              { reason },
            ),
          );
        return endpoint;
      });
    },

    async enable(id: string, by: Author): Promise<WebhookEndpoint> {
      const before = await live(id);
      return transact(async (tx) => {
        const endpoint = (await tx.webhooks.setEndpointStatus(id, {
          status: 'active',
          reason: null,
          at: clock(),
        }))!;
        if (before.status !== 'active')
          await tx.audit.record(
            endpointEntry('webhook.endpoint_enabled', by, endpoint, {
              status: { before: before.status, after: endpoint.status },
            }),
          );
        return endpoint;
      });
    },

    async rotateSecret(id: string, by: Author) {
      await live(id);
      const now = clock();
      const secret = generateWebhookSecret();
      const previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS);
      const updated = await transact(async (tx) => {
        const endpoint = (await tx.webhooks.rotateSecret(id, { secret, previousExpiresAt, at: now }))!;
        await tx.audit.record(
          endpointEntry(
            'webhook.secret_rotated',
            by,
            endpoint,
            { secret: 'changed' },
            { previous_secret_until: previousExpiresAt.toISOString() },
          ),
        );
        return endpoint;
      });
      return { endpoint: updated, secret };
    },

    async deliveries(endpointId: string, limit = DEFAULT_DELIVERY_LIMIT): Promise<WebhookDelivery[]> {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIMIT) {
        throw invalidField('limit', `must be an integer from 1 to ${MAX_DELIVERY_LIMIT}`);
      }
      await endpoint(endpointId);
      return repository.listDeliveries(endpointId, limit);
    },

    async replayDelivery(deliveryId: string, by: Author): Promise<WebhookDelivery> {
      const original = DELIVERY_ID_PATTERN.test(deliveryId)
        ? await repository.findDelivery(deliveryId)
        : null;
      if (!original) {
        throw new AppError(
          'not_found',
          `no webhook delivery with id "${deliveryId}" (${kept}; an older one is deleted)`,
        );
      }
      const horizon = retentionCutoff(clock(), deps.retentionDays);
      if (original.eventCreatedAt < horizon) {
        throw new AppError(
          'invalid_request',
          `delivery ${original.id} is of event ${original.eventId} of ${original.eventCreatedAt.toISOString()}, ` +
            `past the retention: ${kept}, so it can no longer be replayed`,
        );
      }
      const target = await endpoint(original.endpointId);
      if (target.status !== 'active') {
        throw new AppError(
          'invalid_request',
          target.status === 'deleted'
            ? `endpoint ${target.id} was deleted`
            : `endpoint ${target.id} is disabled; enable it first (dlv webhooks enable ${target.id})`,
        );
      }
      const id = await transact(async (tx) => {
        const replay = (await tx.webhooks.replayDelivery(original.id, clock()))!;
        await tx.audit.record(
          endpointEntry('webhook.replayed', by, target, null, {
            delivery_id: original.id,
            event_id: original.eventId,
            replay_id: replay,
          }),
        );
        return replay;
      });
      return (await repository.findDelivery(id))!;
    },

    async replaySince(since: Date, endpointId: string | null, by: Author): Promise<string[]> {
      const now = clock();
      if (Number.isNaN(since.getTime())) throw invalidField('since', 'is not a valid time');
      if (since.getTime() > now.getTime()) throw invalidField('since', 'is in the future');
      const horizon = retentionCutoff(now, deps.retentionDays);
      if (since < horizon) {
        throw invalidField(
          'since',
          `${since.toISOString()} is past the retention: ${kept}; the earliest time that can be replayed is ${horizon.toISOString()}`,
        );
      }
      if (endpointId !== null) {
        const target = await endpoint(endpointId);
        if (target.status !== 'active') {
          throw new AppError('invalid_request', `endpoint ${target.id} is ${target.status}; enable it first`);
        }
      }
      return transact(async (tx) => {
        const ids = await tx.webhooks.replaySince(since, endpointId, now);
        await tx.audit.record({
          action: 'webhook.replayed',
          by,
          object: { type: 'webhook_endpoint', id: endpointId ?? '*' },
          details: { since: since.toISOString(), deliveries: ids.length },
        });
        return ids;
      });
    },
  };
}
