import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { User } from '../../domain/accounts/user.ts';
import { AppError, isAppError } from '../../errors.ts';
import { PUBLIC_PREFIX, publicServerUrl } from '../public/index.ts';
import { userOf } from '../shared/principal.ts';
import { fieldErrors } from './field-errors.ts';
import { text } from './form.ts';
import type { PageContextOf } from './index.ts';
import { idOf, SIGNED_IN, sendPage } from './shop-routes.ts';
import type { FieldErrors } from './views/form-fields.ts';
import type { ShopsPageState } from './views/shops-page.ts';
import {
  PRESTASHOP_CONNECT_FIELDS,
  PRESTASHOP_KEY_FIELDS,
  prestashopLinkedPage,
  rotateSecretPage,
  secretRotatedPage,
} from './views/shops-prestashop.ts';

type ShopsView = (
  request: FastifyRequest,
  reply: FastifyReply,
  state?: ShopsPageState,
  status?: number,
) => Promise<unknown>;

/**
 * A shop the bridge could not reach is `unavailable` with the field it is about: shown on the form
 * like a refusal (the brand retries there), with a 502.
 */
function refusal(
  err: unknown,
  ctx: Awaited<ReturnType<PageContextOf>>,
  fields: Parameters<typeof fieldErrors>[2],
): { errors: FieldErrors; status: number } {
  if (isAppError(err) && err.code === 'unavailable' && err.details?.length)
    return {
      errors: fieldErrors(new AppError('invalid_request', err.message, err.details), ctx, fields),
      status: 502,
    };
  return { errors: fieldErrors(err, ctx, fields), status: 400 };
}

/**
 * The Shops page's PrestaShop part: linking a shop (the bridge's `linking.link`, the same as
 * `dlv connectors prestashop link`) with the connection id and secret shown once, a Webservice key
 * added or replaced, and a new shop secret (confirmed first: the module's pushes stop until it has
 * it). The same roles as the rest of the page; another brand's link is the 404 page.
 */
export function prestashopShopRoutes(
  app: FastifyInstance,
  deps: Deps,
  page: {
    context: PageContextOf;
    view: ShopsView;
    mayManage: (user: User) => void;
    mayLink: (user: User) => void;
  },
): void {
  const { context, view, mayManage, mayLink } = page;
  // What the module's "API base URL" takes: the service's address, without the API's prefix.
  const apiBaseUrl = publicServerUrl(deps).slice(0, -PUBLIC_PREFIX.length);

  app.post('/shops/prestashop/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayLink(user);
    try {
      const linked = await deps.prestashop.linking.link({
        brandId: user.brandId,
        url: text(request, 'ps_url', 300),
        key: text(request, 'ps_key', 100),
      });
      return sendPage(reply, prestashopLinkedPage(await context(request, reply), { ...linked, apiBaseUrl }));
    } catch (err) {
      const { errors, status } = refusal(err, await context(request, reply), PRESTASHOP_CONNECT_FIELDS);
      // The key is not sent back into the form: it is a secret of the shop. The address is read
      // again (a control character in it is its error, refused at the first read: form.ts).
      return view(request, reply, { prestashop: { url: text(request, 'ps_url', 300), errors } }, status);
    }
  });

  app.post('/shops/:connectionId/prestashop/key', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const id = idOf(request);
    try {
      await deps.prestashop.upkeep.replaceKey(user.brandId, id, text(request, 'ps_new_key', 100));
    } catch (err) {
      // An unreachable shop is said under the key field too: it is the key that was being tried.
      const fields = { ...PRESTASHOP_KEY_FIELDS, url: PRESTASHOP_KEY_FIELDS.key };
      const { errors, status } = refusal(err, await context(request, reply), fields);
      return view(request, reply, { prestashop: { keyFor: id, errors } }, status);
    }
    return reply.redirect(`/account/shops?saved=${id}`, 303);
  });

  app.get('/shops/:connectionId/prestashop/secret', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await deps.connections.get(user.brandId, idOf(request));
    if (connection.platform !== 'prestashop' || connection.status === 'disconnected')
      return reply.redirect('/account/shops', 303);
    return sendPage(reply, rotateSecretPage(await context(request, reply), connection));
  });

  app.post('/shops/:connectionId/prestashop/secret', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const { connection, secret } = await deps.prestashop.upkeep.rotateSecret(user.brandId, idOf(request));
    return sendPage(reply, secretRotatedPage(await context(request, reply), connection, secret));
  });
}
