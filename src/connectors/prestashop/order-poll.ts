import type { Stores } from '../../db/stores.ts';
import { AppError } from '../../errors.ts';
import type { Connection } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { CredentialCipher } from '../credentials.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import type { PushedOrder } from './order-mapping.ts';
import type { PrestaShopPushInbox } from './push-inbox.ts';
import { openCredentials } from './shop-credentials.ts';
import type { PrestaShopShopHealth } from './shop-health.ts';
import { listOf, oneOf, readShopSettings, type ShopSettings, weightKg } from './shop-settings.ts';
import { shiftWallClock, wallClock } from './wall-clock.ts';
import type { PrestaShopWebservice } from './webservice-client.ts';

const PAGE = 50;
/** Orders read per run at most; the rest next run (the high-water mark keeps the place). */
const MAX_PAGES = 20;
/**
 * The window starts this far before the high-water mark: date_upd is to the second and an order
 * updated in the second the last poll ended may not have been listed yet. Seen twice is harmless.
 */
const OVERLAP_S = 120;

type Row = Record<string, unknown>;

/**
 * The Webservice poll, the safety net for lost pushes (the module pushes once, without retry, and a
 * shop may not be able to push at all): every order updated since the high-water mark, oldest first,
 * rebuilt in the push's shape from orders, addresses, customers, countries, carriers, currencies and
 * products, and handed to the same `handle` as a push. Paid → one delivery order; the shop's
 * cancelled state → cancelled. The mark moves past each order handled, so a failure resumes there.
 */
export function prestashopOrderPoll(deps: {
  stores: Pick<Stores, 'connections' | 'connectorSync' | 'prestashopShops'>;
  connections: ConnectionsService;
  cipher: CredentialCipher;
  ws: PrestaShopWebservice;
  inbox: PrestaShopPushInbox;
  health: PrestaShopShopHealth;
  clock: () => Date;
}) {
  const { stores, ws, clock } = deps;

  /** Reads of one run, each resource id fetched once. */
  function reader(url: string, key: string) {
    const cache = new Map<string, Promise<Row | null>>();
    return (resource: string, singular: string, id: unknown): Promise<Row | null> => {
      const path = `${resource}/${Number(id)}`;
      if (!cache.has(path))
        cache.set(
          path,
          Number(id) > 0
            ? ws.get(url, key, path).then((body) => oneOf(body, resource, singular))
            : Promise.resolve(null),
        );
      return cache.get(path)!;
    };
  }

  async function rebuild(
    order: Row,
    settings: ShopSettings,
    read: ReturnType<typeof reader>,
  ): Promise<PushedOrder> {
    const [address, customer, carrier, currency] = await Promise.all([
      read('addresses', 'address', order.id_address_delivery),
      read('customers', 'customer', order.id_customer),
      read('carriers', 'carrier', order.id_carrier),
      read('currencies', 'currency', order.id_currency),
    ]);
    const country = address ? await read('countries', 'country', address.id_country) : null;
    const rows = ((order.associations as { order_rows?: Row[] } | undefined)?.order_rows ?? []) as Row[];
    const products = await Promise.all(
      rows.map(async (row) => {
        const product = await read('products', 'product', row.product_id);
        return {
          quantity: Number(row.product_quantity),
          weight_kg: product ? weightKg(product.weight, settings.weightUnit) : null,
        };
      }),
    );
    return {
      id: order.id,
      reference: order.reference,
      id_carrier: order.id_carrier,
      carrier_service: settings.serviceOfCarrierRef.get(String(carrier?.id_reference ?? '')) ?? null,
      current_state: order.current_state,
      total_paid_tax_incl: order.total_paid_tax_incl,
      currency: currency?.iso_code ?? null,
      date_upd: order.date_upd,
      customer: customer
        ? { email: customer.email, firstname: customer.firstname, lastname: customer.lastname }
        : null,
      delivery_address: address
        ? {
            company: address.company,
            firstname: address.firstname,
            lastname: address.lastname,
            address1: address.address1,
            address2: address.address2,
            postcode: address.postcode,
            city: address.city,
            country_iso: country?.iso_code ?? null,
            phone: address.phone,
            phone_mobile: address.phone_mobile,
          }
        : null,
      products,
    };
  }

  async function run(
    connection: Connection,
    key: string,
    from: string,
  ): Promise<{ seen: number; through: string | null }> {
    const url = connection.shop;
    const settings = await readShopSettings(ws, url, key);
    const paidStates = new Set(
      listOf(await ws.get(url, key, 'order_states', { display: '[id,paid]' }), 'order_states')
        .filter((s) => s.paid === '1')
        .map((s) => String(s.id)),
    );
    const read = reader(url, key);
    const to = shiftWallClock(wallClock(clock(), settings.timeZone), 24 * 3600);
    let through: string | null = null;
    let seen = 0;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const orders = listOf(
          await ws.get(url, key, 'orders', {
            display: 'full',
            date: '1',
            'filter[date_upd]': `[${shiftWallClock(from, -OVERLAP_S)},${to}]`,
            sort: '[date_upd_ASC]',
            limit: `${page * PAGE},${PAGE}`,
          }),
          'orders',
        );
        for (const order of orders) {
          const state = String(order.current_state);
          if (settings.cancelledStateId !== null && state === String(settings.cancelledStateId))
            await deps.inbox.handle(connection, 'order.cancelled', { id: order.id });
          else if (paidStates.has(state)) {
            const linked = await stores.connectorSync.findLink(connection.id, String(order.id));
            if (!linked)
              await deps.inbox.handle(connection, 'order.paid', await rebuild(order, settings, read));
          }
          seen++;
          if (typeof order.date_upd === 'string') through = order.date_upd;
        }
        if (orders.length < PAGE) break;
      }
    } finally {
      // What was handled stays handled, even when a later order fails.
      await stores.prestashopShops.recordPoll(connection.id, through, clock());
    }
    return { seen, through };
  }

  async function poll(connectionId: string): Promise<string> {
    const connection = await deps.connections.get(null, connectionId);
    if (connection.platform !== 'prestashop' || connection.status !== 'active')
      return `link ${connection.status}: not polled`;
    const shop = await stores.prestashopShops.find(connection.id);
    const key = (await openCredentials(stores, deps.cipher, connection.id))?.key ?? null;
    if (!shop?.pollEnabled || key === null) return 'no Webservice key: not polled';
    const from = shop.polledThrough ?? wallClock(connection.createdAt, shop.timeZone);
    try {
      const { seen, through } = await run(connection, key, from);
      await deps.health.succeeded(connection);
      return `${seen} orders seen, through ${through ?? from}`;
    } catch (err) {
      if (await deps.health.failed(connection, err)) return 'link broken: key refused';
      throw err;
    }
  }

  return {
    /** Active links whose poll is due (not run in the last `everyMs`). */
    due: (everyMs: number, limit = 100) =>
      stores.prestashopShops.duePolls(new Date(clock().getTime() - everyMs), limit),

    /** One run for one shop. Throws a `retry_later` ShopApiError when the shop is down (the job retries). */
    poll,

    /**
     * `dlv connectors resync`: the high-water mark moved back to `since` and one run now; orders
     * already linked are skipped and creation is idempotent, so nothing is made twice. A run reads
     * at most 1,000 orders: the cron's runs carry on from where it stopped.
     */
    async resync(connection: Connection, since: Date): Promise<string> {
      const shop = await stores.prestashopShops.find(connection.id);
      if (!shop?.pollEnabled)
        throw new AppError(
          'invalid_request',
          'This shop has no Webservice key: nothing can be read back from it (add one on the Shops page).',
        );
      if (connection.status !== 'active')
        throw new AppError('invalid_request', `This link is ${connection.status}: it is not polled.`);
      await stores.prestashopShops.rewindPoll(connection.id, wallClock(since, shop.timeZone));
      try {
        return await poll(connection.id);
      } catch (err) {
        if (!isShopApiFailure(err, 'retry_later')) throw err;
        throw new AppError(
          'unavailable',
          `The shop could not be reached (${err.message}); the poll will read from ${wallClock(since, shop.timeZone)} once it can.`,
        );
      }
    },
  };
}
