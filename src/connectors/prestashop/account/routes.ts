import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../../errors.ts';
import { idOf, type PageContextOf, SIGNED_IN, sendPage } from '../../../http/account/context.ts';
import { fieldErrors } from '../../../http/account/field-errors.ts';
import { text } from '../../../http/account/form.ts';
import { openRevealed, type RevealCookie, sealForReveal } from '../../../http/account/key-reveal.ts';
import { NEW_SHOP_SECRET_COOKIE } from '../../../http/account/session-cookies.ts';
import type { ShopsKit } from '../../../http/account/shop-part.ts';
import type { FieldErrors } from '../../../http/account/views/form-fields.ts';
import { messagePage, type PageContext } from '../../../http/account/views/layout.ts';
import { PUBLIC_PREFIX, publicServerUrl } from '../../../http/public/server-url.ts';
import { userOf } from '../../../http/shared/principal.ts';
import type { Connection } from '../../connection.ts';
import type { PrestaShopConnector } from '../prestashop-connector.ts';
import {
  PRESTASHOP_CONNECT_FIELDS,
  PRESTASHOP_KEY_FIELDS,
  type PrestaShopFormState,
  prestashopLinkedPage,
  rotateSecretPage,
  secretRotatedPage,
} from './views.ts';

/** A shop's secret on its way to the page that shows it once; sent with the Shops pages only. */
const SECRET_REVEAL: RevealCookie = { name: NEW_SHOP_SECRET_COOKIE, path: '/account/shops' };

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
 * it). A secret is shown after a redirect, on a page of its own (sealForReveal): a reload makes no
 * second link or secret. The same roles as the rest of the page; another brand's link is the 404 page.
 */
export function prestashopAccountRoutes(
  app: FastifyInstance,
  prestashop: PrestaShopConnector,
  kit: ShopsKit,
): void {
  const { signer, context, view, mayManage, mayLink, connections } = kit;
  const redraw = (state: PrestaShopFormState) => ({ form: { platform: 'prestashop' as const, state } });
  // What the module's "API base URL" takes: the service's address, without the API's prefix.
  const apiBaseUrl = publicServerUrl(kit).slice(0, -PUBLIC_PREFIX.length);
  const reveal = { signer, publicBaseUrl: kit.config.publicBaseUrl, cookie: SECRET_REVEAL };

  /**
   * A reveal page's link: the brand's own PrestaShop link (another brand's is the 404 page), and
   * the secret the POST sealed for this page in this session, or the "already shown" page (410).
   */
  async function revealPage(
    request: FastifyRequest,
    reply: FastifyReply,
    page: 'linked' | 'rotated',
    show: (ctx: PageContext, connection: Connection, secret: string) => Promise<string> | string,
  ) {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await connections.get(user.brandId, idOf(request));
    if (connection.platform !== 'prestashop') throw new AppError('not_found', 'No such PrestaShop link.');
    const secret = await openRevealed(request, reply, signer, SECRET_REVEAL, `${page}:${connection.id}`);
    const ctx = await context(request, reply);
    if (secret) return sendPage(reply, await show(ctx, connection, secret));
    const link = { href: '/account/shops', label: ctx.t('shops.back') };
    const title = ctx.t(`shops.prestashop.${page}Title`, { shop: connection.shop });
    return sendPage(reply, messagePage(ctx, title, ctx.t('shops.prestashop.alreadyShown'), link), 410);
  }

  app.post('/shops/prestashop/connect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayLink(user);
    try {
      const linked = await prestashop.linking.link({
        brandId: user.brandId,
        url: text(request, 'ps_url', 300),
        key: text(request, 'ps_key', 100),
      });
      const id = linked.connection.id;
      const location = `/account/shops/${id}/prestashop/linked`;
      return sealForReveal(request, reply, reveal, `linked:${id}`, linked.secret, location);
    } catch (err) {
      const { errors, status } = refusal(err, await context(request, reply), PRESTASHOP_CONNECT_FIELDS);
      // The key is not sent back into the form: it is a secret of the shop. The address is read
      // again (a control character in it is its error, refused at the first read: form.ts).
      return view(request, reply, redraw({ url: text(request, 'ps_url', 300), errors }), status);
    }
  });

  app.post('/shops/:connectionId/prestashop/key', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const id = idOf(request);
    try {
      await prestashop.upkeep.replaceKey(user.brandId, id, text(request, 'ps_new_key', 100));
    } catch (err) {
      // An unreachable shop is said under the key field too: it is the key that was being tried.
      const fields = { ...PRESTASHOP_KEY_FIELDS, url: PRESTASHOP_KEY_FIELDS.key };
      const { errors, status } = refusal(err, await context(request, reply), fields);
      return view(request, reply, redraw({ keyFor: id, errors }), status);
    }
    return reply.redirect(`/account/shops?saved=${id}`, 303);
  });

  app.get('/shops/:connectionId/prestashop/secret', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await connections.get(user.brandId, idOf(request));
    if (connection.platform !== 'prestashop' || connection.status === 'disconnected')
      return reply.redirect('/account/shops', 303);
    return sendPage(reply, rotateSecretPage(await context(request, reply), connection));
  });

  app.post('/shops/:connectionId/prestashop/secret', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const { connection, secret } = await prestashop.upkeep.rotateSecret(user.brandId, idOf(request));
    const location = `/account/shops/${connection.id}/prestashop/secret/new`;
    return sealForReveal(request, reply, reveal, `rotated:${connection.id}`, secret, location);
  });

  // The pages that show a secret once (post/redirect/get): a reload shows it no more and makes nothing.
  app.get('/shops/:connectionId/prestashop/linked', SIGNED_IN, (request, reply) =>
    revealPage(request, reply, 'linked', async (ctx, connection, secret) => {
      const shop = (await prestashop.overview(connection.brandId)).find(
        (p) => p.connectionId === connection.id,
      );
      const pollEnabled = shop?.pollEnabled ?? false;
      return prestashopLinkedPage(ctx, { connection, secret, pollEnabled, apiBaseUrl });
    }),
  );

  app.get('/shops/:connectionId/prestashop/secret/new', SIGNED_IN, (request, reply) =>
    revealPage(request, reply, 'rotated', (ctx, connection, secret) =>
      secretRotatedPage(ctx, connection, secret),
    ),
  );
}
