import type { OrderLinks } from '../../../../domain/orders/order-json.ts';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../../../events/catalogue.ts';
import { eventSamples } from '../../../../events/samples.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';
import { EventTypesResponse } from '../../../shared/schemas/webhook-subscriptions.ts';

/** What the event-types route uses: the links its samples carry. */
interface EventTypesContext {
  links: OrderLinks;
}

/** The event catalogue, for tools that let a person pick a trigger: any key may read it. */
export function eventTypesRoute(app: TypedApp, deps: EventTypesContext): void {
  // Rendered once: the samples depend only on this deployment's links.
  const samples = eventSamples(deps.links);
  const body = {
    ok: true as const,
    event_types: EVENT_TYPES.map((type) => ({
      type,
      description: EVENT_CATALOGUE[type].description,
      sample: samples[type],
    })),
  };
  app.get(
    '/event-types',
    {
      config: { auth: 'any' },
      schema: {
        operationId: 'listEventTypes',
        summary: 'The event types, with a sample of each',
        description:
          'What `POST /webhook-subscriptions` can subscribe to. Each sample is the `data` of a delivery of that type ' +
          '(the body is `{ type, id, created_at, data }`).',
        tags: ['Webhook subscriptions'],
        response: { 200: EventTypesResponse, ...errorResponses([401, 429]) },
      },
    },
    async () => body,
  );
}
