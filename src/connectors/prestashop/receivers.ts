import type { FastifyInstance } from 'fastify';
import type { PrestaShopConnector } from './prestashop-connector.ts';

export const PRESTASHOP_PREFIX = '/connectors/prestashop';

/** An order with hundreds of lines stays well under this. */
const PUSH_BODY_LIMIT = 512 * 1024;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * `/connectors/prestashop`: where our PrestaShop module pushes paid and cancelled orders. Each push
 * names its link (X-Dlv-Connection) and is signed with that link's secret (X-Dlv-Signature, base64
 * HMAC-SHA256 of `{X-Dlv-Timestamp}.{raw body}`), checked before anything else is read; a timestamp
 * more than 5 minutes off or a signature seen before is refused (no replays); it is stored and
 * answered at once, and processed by a job.
 */
export function prestashopRoutes(prestashop: PrestaShopConnector) {
  return async (app: FastifyInstance) => {
    app.post(
      '/orders',
      { config: { auth: 'none', rawBody: true }, schema: { hide: true }, bodyLimit: PUSH_BODY_LIMIT },
      async (request, reply) => {
        const stored = await prestashop.inbox.receive({
          connectionId: first(request.headers['x-dlv-connection']),
          deliveryId: first(request.headers['x-dlv-delivery-id']),
          timestamp: first(request.headers['x-dlv-timestamp']),
          signature: first(request.headers['x-dlv-signature']),
          rawBody: request.rawBody,
        });
        return reply.code(200).send({ ok: true, duplicate: !stored });
      },
    );
  };
}
