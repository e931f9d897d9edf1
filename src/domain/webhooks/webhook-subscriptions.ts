import { AppError, fieldProblem, invalidField, validateAll } from '../../errors.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import { ENDPOINT_ID_PATTERN, type EndpointOrigin, type WebhookEndpoint } from './endpoint.ts';
import { parseEventTypes } from './events.ts';
import type { DestinationGuard } from './outbound.ts';
import { generateWebhookSecret } from './secrets.ts';

/** Subscriptions (not deleted) a brand may hold at once. */
export const MAX_SUBSCRIPTIONS = 25;
export const MAX_SUBSCRIPTION_DESCRIPTION = 500;

interface SubscriptionInput {
  url: string;
  event_types: string[];
  description?: string | null;
}

/** The public shape of a subscription: never its secret, shown once at creation. */
interface SubscriptionJson {
  id: string;
  url: string;
  event_types: WebhookEndpoint['eventTypes'];
  description: string | null;
  status: 'active' | 'disabled';
  origin: EndpointOrigin;
  created_at: string;
}

export function subscriptionJson(e: WebhookEndpoint): SubscriptionJson {
  return {
    id: e.id,
    url: e.url,
    event_types: e.eventTypes,
    description: e.description,
    // A deleted subscription is never served (404), so its status is one of these two.
    status: e.status === 'active' ? 'active' : 'disabled',
    origin: e.origin,
    created_at: e.createdAt.toISOString(),
  };
}

/** A subscription checked (its URL resolved and found public) and its secret drawn: nothing written. */
interface PreparedSubscription {
  brandId: string;
  url: string;
  eventTypes: WebhookEndpoint['eventTypes'];
  description: string | null;
  secret: string;
}

/** A brand's own subscriptions (`/webhook-subscriptions`). */
export interface WebhookSubscriptions {
  /** Returns the subscription with its secret, the only time the secret is shown. */
  create(
    brandId: string,
    input: SubscriptionInput,
  ): Promise<{ subscription: WebhookEndpoint; secret: string }>;
  /**
   * What `create` checks (the SSRF guard resolves the URL) before anything is written, so a caller
   * writing inside its own transaction (an Idempotency-Key's) holds no connection meanwhile.
   */
  prepareCreate(brandId: string, input: SubscriptionInput): Promise<PreparedSubscription>;
  /**
   * Writes a prepared subscription (`stores`: inside the caller's transaction, when it has one):
   * 400 past MAX_SUBSCRIPTIONS. This instance's listener cache is told at once; call
   * `subscriptionsChanged` again once the caller's transaction committed.
   */
  insertPrepared(
    prepared: PreparedSubscription,
    stores?: Pick<Stores, 'webhookSubscriptions'>,
  ): Promise<{ subscription: WebhookEndpoint; secret: string }>;
  /** Tells this instance's listener cache that subscriptions changed (after a caller's transaction). */
  subscriptionsChanged(): void;
  list(brandId: string): Promise<WebhookEndpoint[]>;
  get(brandId: string, id: string): Promise<WebhookEndpoint>;
  /** Idempotent: deleting one already deleted is done; an id the brand never had is a 404. */
  delete(brandId: string, id: string): Promise<void>;
}

/**
 * The brand's own webhook subscriptions (the REST hooks of Zapier, n8n, Make): the same endpoints,
 * deliveries, signatures and retries as the operator's (`origin: 'api'` is the difference), opened
 * to a brand by the operator (the routes check it). Another brand's subscription, or the
 * operator's endpoints, are "not found", like an id that exists nowhere.
 */
export function webhookSubscriptions(deps: {
  stores: Pick<Stores, 'webhookSubscriptions'>;
  transact: Transact;
  destinations: DestinationGuard;
  clock: Clock;
  /** Told when a subscription changes here, so this instance's listener cache need not wait for its poll. */
  onSubscriptionsChanged?: () => void;
}): WebhookSubscriptions {
  const repository = deps.stores.webhookSubscriptions;
  const notFound = (id: string) => new AppError('not_found', `No webhook subscription with id "${id}".`);

  async function find(brandId: string, id: string): Promise<WebhookEndpoint | null> {
    return ENDPOINT_ID_PATTERN.test(id) ? repository.find(brandId, id) : null;
  }

  const service: WebhookSubscriptions = {
    async create(brandId: string, input: SubscriptionInput) {
      return service.insertPrepared(await service.prepareCreate(brandId, input));
    },

    async prepareCreate(brandId: string, input: SubscriptionInput) {
      const checked = validateAll({
        url: () => deps.destinations.validate(input.url.trim()),
        eventTypes: () => {
          // Empty would mean "every event" to parseEventTypes; a tool subscribes to what it uses.
          if (input.event_types.length === 0)
            throw invalidField('event_types', 'give at least one event type');
          return parseEventTypes(input.event_types, 'event_types');
        },
        description: () => {
          const description = input.description?.trim() || null;
          if (description !== null && description.length > MAX_SUBSCRIPTION_DESCRIPTION)
            throw fieldProblem('description', 'length.atMost', { max: MAX_SUBSCRIPTION_DESCRIPTION });
          return description;
        },
      });
      // The SSRF guard, as for the operator's endpoints; checked again on every attempt.
      await deps.destinations.assertPublic(checked.url);
      return {
        brandId,
        url: checked.url.href,
        eventTypes: checked.eventTypes,
        description: checked.description,
        secret: generateWebhookSecret(),
      };
    },

    async insertPrepared(prepared: PreparedSubscription, stores?: Pick<Stores, 'webhookSubscriptions'>) {
      const { secret, ...row } = prepared;
      const insert = (tx: Pick<Stores, 'webhookSubscriptions'>) =>
        tx.webhookSubscriptions.insertWithin(
          { id: prefixedId('whk'), ...row, secret, at: deps.clock() },
          MAX_SUBSCRIPTIONS,
        );
      // Its count is checked under a lock taken for the transaction: one of its own without the caller's.
      const created = await (stores ? insert(stores) : deps.transact(insert));
      if (!created) {
        throw new AppError(
          'invalid_request',
          `A brand can hold at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete one you no longer use ` +
            '(DELETE /webhook-subscriptions/{id}) before adding another.',
        );
      }
      service.subscriptionsChanged();
      return { subscription: created, secret };
    },

    subscriptionsChanged: () => deps.onSubscriptionsChanged?.(),

    list: (brandId: string) => repository.list(brandId),

    async get(brandId: string, id: string): Promise<WebhookEndpoint> {
      const found = await find(brandId, id);
      if (!found || found.status === 'deleted') throw notFound(id);
      return found;
    },

    async delete(brandId: string, id: string): Promise<void> {
      if (!(await find(brandId, id))) throw notFound(id);
      if (await repository.delete(brandId, id, deps.clock())) deps.onSubscriptionsChanged?.();
    },
  };
  return service;
}
