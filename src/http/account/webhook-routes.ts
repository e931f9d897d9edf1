import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../domain/accounts/user.ts';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import type { TestData } from '../../domain/test-mode/test-data.ts';
import type { WebhookRequests } from '../../domain/webhooks/webhook-requests.ts';
import type { WebhookService } from '../../domain/webhooks/webhook-service.ts';
import type { WebhookSubscriptions } from '../../domain/webhooks/webhook-subscriptions.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { list, query, text } from './form.ts';
import { isTestView, viewedUser } from './test-data-routes.ts';
import { type RequestForm, webhooksPage } from './views/webhooks-page.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };
const LAST_DELIVERIES = 20;

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const REQUEST_FIELDS = {
  url: { name: 'url', label: 'webhooks.url' },
  events: { name: 'events', label: 'webhooks.events' },
  message: { name: 'message', label: 'webhooks.message' },
} as const;

/** What the webhook pages use. */
interface WebhookRoutesContext {
  webhooks: WebhookService;
  webhookRequests: WebhookRequests;
  brands: BrandService;
  subscriptions: WebhookSubscriptions;
  testData: Pick<TestData, 'twinOf'>;
}

/**
 * `/account/webhooks` (owner and developer): the operator's endpoints and the subscriptions the
 * brand's tools made through the API, with their last deliveries (only the latter can be deleted
 * here), and the form that requests access (an endpoint set up by the operator, or the API).
 */
export function webhookRoutes(
  app: FastifyInstance,
  deps: WebhookRoutesContext,
  { context }: { context: PageContextOf },
): void {
  /** `user` is the viewer, `viewed` whose endpoints the page shows (the brand or its test twin). */
  async function pageData(user: User, viewed: User) {
    deps.webhookRequests.mayUse(user);
    // The operator's endpoints and the API subscriptions of the brand's tools, one model; a deleted
    // subscription is gone for the brand.
    const endpoints = (await deps.webhooks.list(viewed.brandId)).filter(
      (e) => e.brandId === viewed.brandId && e.status !== 'deleted',
    );
    return {
      subscriptionsAllowed: (await deps.brands.get(user.brandId)).webhooksAllowed,
      endpoints: await Promise.all(
        endpoints.map(async (endpoint) => ({
          endpoint,
          deliveries: await deps.webhooks.deliveries(endpoint.id, LAST_DELIVERIES),
        })),
      ),
      requests: await deps.webhookRequests.list(user),
    };
  }

  async function view(
    request: FastifyRequest,
    reply: FastifyReply,
    state: Parameters<typeof webhooksPage>[2] = {},
    status = 200,
  ) {
    const { session } = userOf(request);
    const data = await pageData(session.user, await viewedUser(request, deps.testData));
    return sendPage(reply, webhooksPage(await context(request, reply), data, state), status);
  }

  app.get('/webhooks', SIGNED_IN, (request, reply) =>
    view(request, reply, { sent: query(request, 'requested', 10) === '1' }),
  );

  app.post('/webhooks/requests', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typed = (): RequestForm => ({
      url: text(request, 'url', 2001),
      events: list(request, 'events'),
      message: text(request, 'message', 2001),
    });
    try {
      await deps.webhookRequests.request(session.user, typed());
    } catch (err) {
      const errors = fieldErrors(err, await context(request, reply), REQUEST_FIELDS);
      return view(request, reply, { values: typed(), errors }, 400);
    }
    return reply.redirect('/account/webhooks?requested=1', 303);
  });

  // Deletes a subscription the brand's tools made (never the operator's endpoints: those are 404,
  // like another brand's). CSRF-checked like every account form.
  app.post('/webhooks/:endpointId/delete', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    deps.webhookRequests.mayUse(session.user);
    await deps.subscriptions.delete(
      (await viewedUser(request, deps.testData)).brandId,
      (request.params as { endpointId: string }).endpointId,
    );
    return reply.redirect(isTestView(request) ? '/account/webhooks?mode=test' : '/account/webhooks', 303);
  });
}
