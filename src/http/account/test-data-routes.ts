import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../../domain/accounts/user.ts';
import type { TestData } from '../../domain/test-mode/test-data.ts';
import { authorOf } from '../shared/author.ts';
import { html } from '../shared/html.ts';
import { userOf } from '../shared/principal.ts';
import { type PageContextOf, SIGNED_IN, sendPage } from './context.ts';
import { queryIs } from './form.ts';
import { csrfField, layout, type PageContext, successNote } from './views/layout.ts';

/**
 * Whether the page shows test mode's data (`?mode=test`): read from the raw query, so that the
 * page context and the routes agree without either reading (and refusing) the parameter twice.
 */
export const isTestView = (request: FastifyRequest): boolean => queryIs(request, 'mode', 'test');

/**
 * The signed-in person as the data they are looking at: themselves, or, on test data, the same
 * person over their brand's test twin (whose rows are the brand's test orders and endpoints).
 */
export async function viewedUser(request: FastifyRequest, testData: Pick<TestData, 'twinOf'>): Promise<User> {
  const { user } = userOf(request).session;
  return isTestView(request) ? { ...user, brandId: await testData.twinOf(user.brandId) } : user;
}

/** Finance people read test data (like live data) but do not delete it. */
const mayDelete = (user: User) => user.role !== 'finance';

function confirmPage(ctx: PageContext, error?: string) {
  const { t } = ctx;
  return layout(
    ctx,
    t('testData.deleteTitle'),
    html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<p class="warning">${t('testData.deleteWarning')}</p>
${
  error
    ? ''
    : html`<form method="post" action="/account/test-data/delete?mode=test" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('testData.deleteConfirm')}</button></form>`
}
<a href="/account/orders?mode=test">${t('testData.keep')}</a>`,
  );
}

/** "Delete all test data": a confirmation page, then the POST (CSRF-checked like every form). */
export function testDataRoutes(
  app: FastifyInstance,
  deps: { testData: TestData },
  { context }: { context: PageContextOf },
): void {
  app.get('/test-data/delete', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    const ctx = await context(request, reply);
    if (!mayDelete(user)) return sendPage(reply, confirmPage(ctx, ctx.t('testData.readOnly')), 403);
    return sendPage(reply, confirmPage(ctx));
  });

  app.post('/test-data/delete', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    const ctx = await context(request, reply);
    if (!mayDelete(user)) return sendPage(reply, confirmPage(ctx, ctx.t('testData.readOnly')), 403);
    const deleted = await deps.testData.deleteAll(user.brandId, authorOf(request));
    const note = ctx.t('testData.deleted', {
      orders: String(deleted.orders),
      endpoints: String(deleted.webhookEndpoints),
      deliveries: String(deleted.webhookDeliveries),
    });
    return sendPage(
      reply,
      layout(
        ctx,
        ctx.t('testData.deleteTitle'),
        html`${successNote(note)}
<p><a href="/account/orders?mode=test">${ctx.t('testData.test')}</a></p>`,
      ),
    );
  });
}
