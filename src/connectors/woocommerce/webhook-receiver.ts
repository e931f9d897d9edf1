import type { Stores } from '../../db/stores.ts';
import { AppError } from '../../errors.ts';
import { CONNECTION_ID_PATTERN } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import { isValidBodyHmac } from '../signatures.ts';
import type { WooOrder } from './order-mapping.ts';
import type { WooOrderSync } from './order-sync.ts';
import { decodeWooCredentials } from './woo-credentials.ts';

export interface WooDelivery {
  connectionId: string;
  rawBody: Buffer;
  contentType: string | undefined;
  signature: unknown;
  topic: unknown;
}

export type ReceiveOutcome = 'ping' | 'stored' | 'duplicate' | 'ignored';

/** WC_Webhook::deliver_ping(): `webhook_id=N`, form-encoded and unsigned, when a webhook is created. */
const PING = /^webhook_id=\d+$/;

/**
 * A WooCommerce webhook delivery to `/connectors/woocommerce/webhooks/{connection id}`: the creation
 * ping is answered at once; anything else must carry X-WC-Webhook-Signature, the base64
 * HMAC-SHA256 of the exact bytes with the secret we gave that link's webhooks (checked before the
 * body is parsed: PHP's escaping must not be re-encoded). The order is then stored and its
 * processing enqueued in one statement, and the answer goes back at once: WooCommerce never
 * retries, counts every failure, and disables the webhook after a run of them.
 */
export function wooWebhookReceiver(deps: {
  stores: Pick<Stores, 'connections'>;
  connections: ConnectionsService;
  orderSync: WooOrderSync;
}) {
  return {
    async receive(delivery: WooDelivery): Promise<ReceiveOutcome> {
      const text = delivery.rawBody.toString('utf8');
      if (
        (delivery.contentType ?? '').startsWith('application/x-www-form-urlencoded') &&
        PING.test(text.trim())
      )
        return 'ping';
      const connection = CONNECTION_ID_PATTERN.test(delivery.connectionId)
        ? await deps.stores.connections.find(delivery.connectionId)
        : null;
      // Disconnected: our webhooks were deleted; one still delivering fails until WooCommerce disables it.
      if (connection?.platform !== 'woocommerce' || connection.status === 'disconnected')
        throw new AppError('not_found', 'No WooCommerce connection here.');
      const plain = await deps.connections.tokenOf(connection);
      const secret = plain === null ? null : decodeWooCredentials(plain).webhookSecret;
      if (secret === null || !isValidBodyHmac(delivery.rawBody, delivery.signature, secret))
        throw new AppError('unauthorized', 'The request is not signed by the shop (X-WC-Webhook-Signature).');
      const topic = typeof delivery.topic === 'string' ? delivery.topic.slice(0, 100) : '';
      if (!topic.startsWith('order.')) return 'ignored';
      let order: WooOrder;
      try {
        order = JSON.parse(text) as WooOrder;
      } catch {
        throw new AppError('invalid_request', 'The webhook body is not JSON.');
      }
      // A broken link keeps what arrives: the poll after it is linked again would find it anyway.
      return (await deps.orderSync.store(connection, order, text, topic)) ? 'stored' : 'duplicate';
    },
  };
}
