import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { ACCOUNT_PATH } from '../../http/account/session-cookies.ts';
import { routeConfig } from '../../http/shared/route-config.ts';
import { CONNECTION_ID_PATTERN } from '../connection.ts';
import type { ReceiverContext } from '../connector.ts';
import type { WooCommerceConnector } from './woocommerce-connector.ts';

export const WOOCOMMERCE_PREFIX = '/connectors/woocommerce';
/** Where the account area asks the signed-in person to confirm a one-click connection (a GET starts nothing). */
const ACCOUNT_CONNECT_PATH = `${ACCOUNT_PATH}/connectors/woocommerce/connect`;

/** An order's REST document with hundreds of lines stays well under this. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const CALLBACK_BODY_LIMIT = 16 * 1024;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * `/connectors/woocommerce`: the bridge's public routes. `connect` is where the plugin's button
 * lands (sent on to the account area, which owns the session); `callback/{state}` receives the keys
 * from the shop's key provisioning; `return` is where the merchant's browser comes back;
 * `webhooks/{connection id}` receives the shop's order webhooks and its creation pings.
 */
export function wooCommerceRoutes(woo: WooCommerceConnector, deps: ReceiverContext) {
  return async (app: FastifyInstance) => {
    // The creation ping is form-encoded (`webhook_id=N`). Added in this plugin only: every other
    // route keeps refusing anything but JSON with 415.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (request, body, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        if (routeConfig(request).rawBody) request.rawBody = Buffer.from(text, 'utf8');
        done(null, text);
      },
    );

    app.get('/connect', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const shopUrl = (request.query as Record<string, unknown>).shop_url;
      if (typeof shopUrl !== 'string' || shopUrl.trim() === '')
        throw new AppError('invalid_request', 'shop_url: is required');
      return reply.redirect(`${ACCOUNT_CONNECT_PATH}?${new URLSearchParams({ shop_url: shopUrl })}`, 303);
    });

    app.post(
      '/callback/:state',
      { config: { auth: 'none' }, schema: { hide: true }, bodyLimit: CALLBACK_BODY_LIMIT },
      async (request, reply) => {
        const { state } = request.params as { state: string };
        const connection = await woo.linking.completeConnect(state, request.body);
        // WooCommerce keeps the key only on exactly 200.
        return reply.code(200).send({ ok: true, connection_id: connection.id });
      },
    );

    app.get('/return', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const id = typeof query.user_id === 'string' ? query.user_id : '';
      const connection = CONNECTION_ID_PATTERN.test(id)
        ? await deps.connections.get(null, id).catch(() => null)
        : null;
      // Only whether it worked is said here: the details are in the account area, behind sign-in.
      const linked = query.success === '1' && connection?.status === 'active';
      const result: Record<string, string> = linked
        ? { connected: connection.shop }
        : { woocommerce_error: query.success === '0' ? 'denied' : 'failed' };
      return reply.redirect(`${ACCOUNT_PATH}/shops?${new URLSearchParams(result)}`, 303);
    });

    app.post(
      '/webhooks/:connectionId',
      { config: { auth: 'none', rawBody: true }, schema: { hide: true }, bodyLimit: WEBHOOK_BODY_LIMIT },
      async (request, reply) => {
        const outcome = await woo.receiver.receive({
          connectionId: (request.params as { connectionId: string }).connectionId,
          rawBody: request.rawBody ?? Buffer.alloc(0),
          contentType: request.headers['content-type'],
          signature: first(request.headers['x-wc-webhook-signature']),
          topic: first(request.headers['x-wc-webhook-topic']),
        });
        return reply.code(200).send({ ok: true, outcome });
      },
    );
  };
}
