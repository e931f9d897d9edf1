import { Type } from '@sinclair/typebox';
import {
  MAX_SUBSCRIPTION_DESCRIPTION,
  MAX_SUBSCRIPTIONS,
} from '../../../domain/webhooks/webhook-subscriptions.ts';
import { EVENT_TYPES } from '../../../events/catalogue.ts';
import { MAX_URL_LENGTH } from '../../../infra/http/url-guard.ts';
import { NullableString, PATH_PARAM_MAX_LENGTH, PrefixedId, StringEnum, Timestamp } from './shared.ts';

const EventTypeSchema = StringEnum(EVENT_TYPES, {
  description: 'An event type (`GET /event-types` describes each, with a sample).',
});

export const SubscriptionCreateRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description:
        'Where to POST the events: `https`, resolving only to public addresses (checked now and on every attempt).',
      examples: ['https://hooks.zapier.com/hooks/standard/1234567/abcdef/'],
    }),
    event_types: Type.Array(EventTypeSchema, {
      minItems: 1,
      maxItems: EVENT_TYPES.length,
      description: 'The events to receive; several subscriptions may share an event type.',
    }),
    description: Type.Optional(
      NullableString({
        maxLength: MAX_SUBSCRIPTION_DESCRIPTION,
        description: 'A note for people (e.g. the workflow that made it); shown in the account area.',
        examples: ['Zapier: New order → Google Sheets'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const SubscriptionSchema = Type.Object(
  {
    id: PrefixedId('whk', 16, { examples: ['whk_5e6f7a8b9c0d1e2f'] }),
    url: Type.String({ maxLength: MAX_URL_LENGTH }),
    event_types: Type.Array(EventTypeSchema, { maxItems: EVENT_TYPES.length }),
    description: NullableString({ maxLength: MAX_SUBSCRIPTION_DESCRIPTION }),
    status: StringEnum(['active', 'disabled'] as const, {
      description:
        '`disabled`: failing for 5 days, or closed by the operator; it receives nothing (delete it and subscribe again).',
    }),
    origin: StringEnum(['operator', 'api'] as const, {
      description:
        'Who made it: `api` (this API). Endpoints set up by the operator (`operator`) share the model but are not listed here.',
    }),
    created_at: Timestamp(),
  },
  { $id: 'WebhookSubscription', title: 'WebhookSubscription' },
);

export const SubscriptionCreatedResponse = Type.Object(
  {
    ok: Type.Literal(true),
    subscription: Type.Ref(SubscriptionSchema),
    secret: Type.String({
      pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
      maxLength: 50,
      description:
        'The Standard Webhooks signing secret: shown only now. Verify each delivery’s `webhook-signature` with it.',
    }),
  },
  { description: 'The subscription, and its secret (shown once).' },
);

export const SubscriptionResponse = Type.Object(
  { ok: Type.Literal(true), subscription: Type.Ref(SubscriptionSchema) },
  { description: 'The subscription.' },
);

export const SubscriptionListResponse = Type.Object(
  {
    ok: Type.Literal(true),
    subscriptions: Type.Array(Type.Ref(SubscriptionSchema), {
      maxItems: MAX_SUBSCRIPTIONS,
      description: `The brand's subscriptions, oldest first (at most ${MAX_SUBSCRIPTIONS}).`,
    }),
  },
  { description: "The brand's subscriptions." },
);

export const SubscriptionDeletedResponse = Type.Object(
  { ok: Type.Literal(true), deleted: Type.Literal(true) },
  { description: 'Deleted (also when it already was): it receives nothing more.' },
);

export const SubscriptionIdParams = Type.Object({
  subscriptionId: Type.String({
    maxLength: PATH_PARAM_MAX_LENGTH,
    description: 'The subscription id (`whk_…`). Any id that names no subscription of the brand is a 404.',
  }),
});

export const EventTypesResponse = Type.Object(
  {
    ok: Type.Literal(true),
    event_types: Type.Array(
      Type.Object({
        type: EventTypeSchema,
        description: Type.String({ maxLength: 500 }),
        sample: Type.Object(
          {},
          {
            additionalProperties: true,
            description:
              'A sample `data` of this event (the `webhooks` section of this document gives its schema).',
          },
        ),
      }),
      { maxItems: EVENT_TYPES.length },
    ),
  },
  { description: 'Every event type, with its description and a sample of its `data`.' },
);
