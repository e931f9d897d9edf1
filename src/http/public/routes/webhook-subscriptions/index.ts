import type { Static } from '@sinclair/typebox';
import type { WebhookSubscriptions } from '../../../../domain/webhooks/webhook-subscriptions.ts';
import { MAX_SUBSCRIPTIONS, subscriptionJson } from '../../../../domain/webhooks/webhook-subscriptions.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { absentBodyIsEmpty } from '../../../shared/optional-body.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { IdempotencyHeaders } from '../../../shared/schemas/orders.ts';
import { errorResponses, NoBody } from '../../../shared/schemas/shared.ts';
import {
  SubscriptionCreatedResponse,
  SubscriptionCreateRequest,
  SubscriptionDeletedResponse,
  SubscriptionIdParams,
  SubscriptionListResponse,
  SubscriptionResponse,
} from '../../../shared/schemas/webhook-subscriptions.ts';
import { idempotencyScope, markReplayed } from '../../idempotency-key.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';

/** Every route here needs the scope, on a brand the operator opened webhook subscriptions to. */
const GATED = { auth: 'webhooks:write', brandFeature: 'webhooks' } as const;

const FORBIDDEN =
  'The brand cannot use webhook subscriptions yet (`webhooks_not_enabled`, the message says how to request access), ' +
  'or the API key lacks the `webhooks:write` scope (`insufficient_scope`).';

/** What the subscription routes use. */
interface SubscriptionsRouteContext {
  subscriptions: WebhookSubscriptions;
  idempotentRequests: IdempotentRequests;
}

/**
 * The subscription API of automation tools (REST hooks: subscribe when a workflow is turned on,
 * unsubscribe when it is turned off). Deliveries are those of every webhook (Standard Webhooks).
 */
export function webhookSubscriptionRoutes(app: TypedApp, deps: SubscriptionsRouteContext): void {
  app.post(
    '/webhook-subscriptions',
    {
      config: GATED,
      schema: {
        operationId: 'createWebhookSubscription',
        summary: 'Subscribe a URL to events',
        description:
          'Events of the chosen types are POSTed to `url`, signed per Standard Webhooks with the returned `secret` ' +
          '(shown only in this answer), retried for about 42 hours, and the subscription is disabled after 5 days of ' +
          'failures; a `410 Gone` answer deletes it. Several subscriptions may listen to the same event type; a brand ' +
          `holds at most ${MAX_SUBSCRIPTIONS} (400 beyond). Opened to a brand by the operator, on request. ` +
          'Send an `Idempotency-Key` to retry safely (a tool turning a workflow on twice): the first response, ' +
          'its `secret` included, is replayed with `Idempotent-Replayed: true` and no second subscription is made.',
        tags: ['Webhook subscriptions'],
        headers: IdempotencyHeaders,
        body: SubscriptionCreateRequest,
        response: {
          201: SubscriptionCreatedResponse,
          ...errorResponses([400, 401, 403, 409, 413, 415, 422, 429], { 403: FORBIDDEN }),
        },
      },
    },
    async (request, reply) => {
      const brandId = principalOf(request).brand.id;
      const scope = idempotencyScope(request, 'POST /webhook-subscriptions', request.body);
      const result = await deps.idempotentRequests.run(
        scope,
        // The URL resolved and checked before the key's transaction opens.
        () => deps.subscriptions.prepareCreate(brandId, request.body),
        async (tx, prepared) => {
          const { subscription, secret } = await deps.subscriptions.insertPrepared(prepared, tx ?? undefined);
          return {
            statusCode: 201,
            body: { ok: true, subscription: subscriptionJson(subscription), secret },
          };
        },
      );
      // Committed now: this instance's listeners see the new subscription at once.
      if (scope.key !== null && !result.replayed) deps.subscriptions.subscriptionsChanged();
      markReplayed(reply, result);
      return reply.code(201).send(result.body as Static<typeof SubscriptionCreatedResponse>);
    },
  );

  app.get(
    '/webhook-subscriptions',
    {
      config: GATED,
      schema: {
        operationId: 'listWebhookSubscriptions',
        summary: "List the brand's webhook subscriptions",
        tags: ['Webhook subscriptions'],
        response: {
          200: SubscriptionListResponse,
          ...errorResponses([401, 403, 429], { 403: FORBIDDEN }),
        },
      },
    },
    async (request) => {
      const list = await deps.subscriptions.list(principalOf(request).brand.id);
      return { ok: true as const, subscriptions: list.map(subscriptionJson) };
    },
  );

  app.get(
    '/webhook-subscriptions/:subscriptionId',
    {
      config: GATED,
      schema: {
        operationId: 'getWebhookSubscription',
        summary: 'One webhook subscription',
        tags: ['Webhook subscriptions'],
        params: SubscriptionIdParams,
        response: {
          200: SubscriptionResponse,
          ...errorResponses([400, 401, 403, 404, 429], { 403: FORBIDDEN }),
        },
      },
    },
    async (request) => {
      const { brand } = principalOf(request);
      const subscription = await deps.subscriptions.get(brand.id, request.params.subscriptionId);
      return { ok: true as const, subscription: subscriptionJson(subscription) };
    },
  );

  app.delete(
    '/webhook-subscriptions/:subscriptionId',
    {
      config: GATED,
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'deleteWebhookSubscription',
        summary: 'Unsubscribe',
        description:
          'Nothing more is delivered to it, pending retries included. Idempotent: deleting it again answers 200; ' +
          'an id the brand never had is a 404. No body (or `{}`; a field is a 400).',
        tags: ['Webhook subscriptions'],
        params: SubscriptionIdParams,
        body: NoBody,
        response: {
          200: SubscriptionDeletedResponse,
          ...errorResponses([400, 401, 403, 404, 413, 415, 429], { 403: FORBIDDEN }),
        },
      },
    },
    async (request) => {
      const { brand } = principalOf(request);
      await deps.subscriptions.delete(brand.id, request.params.subscriptionId);
      return { ok: true as const, deleted: true as const };
    },
  );
}
