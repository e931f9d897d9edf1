import { orderLinks } from '../../../../domain/orders/order-json.ts';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../../../events/catalogue.ts';
import { eventSamples } from '../../../../events/samples.ts';
import { WEBHOOKS_NOT_ENABLED_MESSAGE } from '../../plugins/auth.ts';
import { errorExample, IDEMPOTENCY_KEY_REUSED, type OperationExamples } from './types.ts';

const SUBSCRIPTION = {
  id: 'whk_5e6f7a8b9c0d1e2f',
  url: 'https://hooks.zapier.com/hooks/standard/1234567/abcdef/',
  event_types: ['order.created'],
  description: 'Zapier: New order → Google Sheets',
  status: 'active',
  origin: 'api',
  created_at: '2026-11-24T09:12:00.000Z',
};

const FORBIDDEN = {
  webhooks_not_enabled: {
    summary: 'Webhook subscriptions are not open to this brand yet',
    value: errorExample('webhooks_not_enabled', WEBHOOKS_NOT_ENABLED_MESSAGE),
  },
  insufficient_scope: {
    summary: 'The key lacks webhooks:write',
    value: errorExample('insufficient_scope', 'This API key lacks the "webhooks:write" scope needed here.'),
  },
};

const NOT_FOUND = {
  unknown: {
    summary: 'No such subscription for this brand',
    value: errorExample('not_found', 'No webhook subscription with id "whk_5e6f7a8b9c0d1e2f".'),
  },
};

/** The committed document's links (its server is the production placeholder). */
const SAMPLES = eventSamples(orderLinks('https://api.livraison-dlv.fr'));

export const SUBSCRIPTION_EXAMPLES: Record<string, OperationExamples> = {
  createWebhookSubscription: {
    request: {
      zapier: {
        summary: 'A Zap turned on',
        value: {
          url: SUBSCRIPTION.url,
          event_types: ['order.created'],
          description: SUBSCRIPTION.description,
        },
      },
    },
    responses: {
      201: {
        created: {
          summary: 'Subscribed; the secret is shown only now',
          value: {
            ok: true,
            subscription: SUBSCRIPTION,
            secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7fSCHdOVVDo=',
          },
        },
      },
      400: {
        limit: {
          summary: 'The brand already holds 25 subscriptions',
          value: errorExample(
            'invalid_request',
            'A brand can hold at most 25 webhook subscriptions; delete one you no longer use (DELETE /webhook-subscriptions/{id}) before adding another.',
          ),
        },
        private: {
          summary: 'A URL that is not on the internet',
          value: errorExample(
            'invalid_request',
            'url: 10.0.0.5 is not an allowed address; webhooks are only delivered to public addresses',
            [
              {
                field: 'url',
                message:
                  '10.0.0.5 is not an allowed address; webhooks are only delivered to public addresses',
              },
            ],
          ),
        },
      },
      403: FORBIDDEN,
    },
    unprocessable: { idempotency_key_reused: IDEMPOTENCY_KEY_REUSED },
  },
  listWebhookSubscriptions: {
    responses: {
      200: {
        list: { summary: "The brand's subscriptions", value: { ok: true, subscriptions: [SUBSCRIPTION] } },
      },
      403: FORBIDDEN,
    },
  },
  getWebhookSubscription: {
    responses: {
      200: { one: { summary: 'A subscription', value: { ok: true, subscription: SUBSCRIPTION } } },
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
  deleteWebhookSubscription: {
    request: { none: { summary: 'No body is needed; `{}` is the same', value: {} } },
    responses: {
      200: { deleted: { summary: 'Unsubscribed', value: { ok: true, deleted: true } } },
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
  listEventTypes: {
    responses: {
      200: {
        catalogue: {
          summary: 'Every event type',
          value: {
            ok: true,
            event_types: EVENT_TYPES.map((type) => ({
              type,
              description: EVENT_CATALOGUE[type].description,
              sample: SAMPLES[type],
            })),
          },
        },
      },
    },
  },
};
