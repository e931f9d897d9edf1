import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Stores, Transact } from '../../db/stores.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import { AppError } from '../../errors.ts';
import { CONNECTION_ID_PATTERN, type Connection } from '../connection.ts';
import type { CredentialCipher } from '../credentials.ts';
import { connectorOrderSync } from '../order-sync.ts';
import {
  mapPrestaShopOrder,
  PUSH_EVENTS,
  type PushEvent,
  type PushedOrder,
  prestashopOrderRef,
} from './order-mapping.ts';
import { openCredentials } from './shop-credentials.ts';

/** A push as the route received it: the headers the module sets and the body's bytes. */
export interface ReceivedPush {
  connectionId: unknown;
  deliveryId: unknown;
  timestamp: unknown;
  signature: unknown;
  rawBody: Buffer | null;
}

const UNSIGNED =
  'The push is not signed for a linked shop (X-Dlv-Connection, X-Dlv-Timestamp, X-Dlv-Signature).';
const REPLAYED =
  'The push is outside the 5-minute window of its X-Dlv-Timestamp, or was received already: it is refused.';
/** How far a push's timestamp may be from our clock, either way. */
const PUSH_WINDOW_S = 5 * 60;
/** Unix seconds, as PHP's time() writes them. */
const TIMESTAMP = /^\d{1,12}$/;
/** Compared against when the connection is unknown, so an unknown id costs the same as a bad signature. */
const DECOY_SECRET = 'decoy-secret-for-unknown-connections';
const DELIVERY_ID = /^[A-Za-z0-9-]{8,100}$/;

const header = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * base64 HMAC-SHA256 of `{timestamp}.{raw body}`, compared in constant time: the decoded signature
 * when it holds, else null. The timestamp is signed so that a captured push cannot be sent again
 * later: the window and the signatures already seen refuse it.
 */
function validSignature(
  rawBody: Buffer,
  timestamp: string,
  given: string | null,
  secret: string,
): Buffer | null {
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const actual = Buffer.from(given ?? '', 'base64');
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? actual : null;
}

/**
 * The module's pushes (`POST /connectors/prestashop/orders`): checked (connection, signature over the
 * timestamp and the raw body, the timestamp's window, not seen before, shape), stored once per delivery id with their processing job enqueued in the same
 * statement, answered at once; then processed by that job. The Webservice poll hands the orders it
 * finds to `handle` too, so both paths create the same one delivery order per shop order.
 */
export function prestashopPushInbox(deps: {
  stores: Pick<Stores, 'connections' | 'connectorSync' | 'brands' | 'prestashopShops'>;
  transact: Transact;
  orders: OrderService;
  cipher: CredentialCipher;
  clock: () => Date;
  /** The job that processes a stored push (src/jobs/prestashop-process-push.ts). */
  processJob: string;
}) {
  const { stores, clock } = deps;
  const sync = stores.connectorSync;
  const shared = connectorOrderSync({ stores, transact: deps.transact, orders: deps.orders, clock });

  /** One shop order event, from a push or from the poll. Returns what was done. */
  async function handle(connection: Connection, event: PushEvent, order: PushedOrder): Promise<string> {
    if (connection.status === 'disconnected') return 'ignored: link disconnected';
    const ref = prestashopOrderRef(order);
    if (ref === null) return 'ignored: no order id';
    if (event === 'order.cancelled') return shared.cancel(connection, ref);
    const mapped = mapPrestaShopOrder(order, connection.orderFilter);
    if (mapped === null) return 'ignored: no order id';
    if (mapped.kind === 'skip') return `skipped: ${mapped.reason}`;
    if (mapped.kind === 'problem')
      return shared.problem(connection, mapped.ref, mapped.problem, mapped.message);
    return shared.create(connection, mapped.ref, mapped.input);
  }

  return {
    handle,

    /**
     * Verifies and stores a push; true when new, false when this delivery id was stored already (the
     * module retrying, signed anew). An unknown or disconnected connection is refused exactly like a
     * bad signature; a timestamp more than 5 minutes off, or a signature already seen, is refused too.
     */
    async receive(push: ReceivedPush): Promise<boolean> {
      const connectionId = header(push.connectionId);
      const known = connectionId !== null && CONNECTION_ID_PATTERN.test(connectionId);
      const connection = known ? await stores.connections.find(connectionId) : null;
      const usable = connection?.platform === 'prestashop' && connection.status !== 'disconnected';
      const credentials = usable ? await openCredentials(stores, deps.cipher, connection.id) : null;
      const rawBody = push.rawBody ?? Buffer.alloc(0);
      const timestamp = header(push.timestamp);
      const stamp = timestamp !== null && TIMESTAMP.test(timestamp) ? timestamp : '';
      const signed = validSignature(
        rawBody,
        stamp,
        header(push.signature),
        credentials?.secret ?? DECOY_SECRET,
      );
      if (!signed || stamp === '' || !credentials || !connection)
        throw new AppError('unauthorized', UNSIGNED);
      const at = clock();
      if (Math.abs(at.getTime() / 1000 - Number(stamp)) > PUSH_WINDOW_S)
        throw new AppError('unauthorized', REPLAYED);

      const deliveryId = header(push.deliveryId);
      if (deliveryId === null || !DELIVERY_ID.test(deliveryId))
        throw new AppError('invalid_request', 'X-Dlv-Delivery-Id: is required (the push’s UUID)');
      let body: { event?: unknown; order?: PushedOrder };
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new AppError('invalid_request', 'The body is not JSON.');
      }
      const event = body?.event;
      if (!PUSH_EVENTS.includes(event as PushEvent))
        throw new AppError('invalid_request', `event: must be one of ${PUSH_EVENTS.join(', ')}`);
      const ref = prestashopOrderRef(body.order);
      if (ref === null) throw new AppError('invalid_request', 'order.id: must be the shop order’s id');
      // Seen by any instance while its timestamp could still pass (twice the window: it may be ahead
      // of our clock as much as behind): a replay. The module signs each attempt anew.
      const forgetBefore = new Date(at.getTime() - 2 * PUSH_WINDOW_S * 1000);
      if (!(await stores.prestashopShops.rememberPushSignature(connection.id, signed, at, forgetBefore)))
        throw new AppError('unauthorized', REPLAYED);
      const id = await sync.receive(
        {
          platform: 'prestashop',
          // Scoped to the connection: one shop's ids can never shadow another's.
          deliveryId: `${connection.id}:${deliveryId}`,
          shop: connection.shop,
          topic: event as string,
          externalOrderId: ref.externalId,
          payload: rawBody.toString('utf8'),
          at,
        },
        deps.processJob,
      );
      return id !== null;
    },

    /** The job's work for one stored push; safe to run twice. */
    async process(inboxId: number): Promise<string> {
      const entry = await sync.findInbox(inboxId);
      if (!entry) return 'gone';
      if (entry.processedAt) return `already processed: ${entry.outcome}`;
      const connectionId = entry.deliveryId.split(':')[0]!;
      const connection = await stores.connections.find(connectionId);
      let outcome: string;
      if (connection?.platform !== 'prestashop') outcome = 'ignored: connection gone';
      else {
        const body = JSON.parse(entry.payload ?? '{}') as { order?: PushedOrder };
        outcome = await handle(connection, entry.topic as PushEvent, body.order ?? {});
      }
      await sync.markProcessed(entry.id, outcome, clock());
      return outcome;
    },
  };
}

export type PrestaShopPushInbox = ReturnType<typeof prestashopPushInbox>;
