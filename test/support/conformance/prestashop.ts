import { PRESTASHOP_SYNC_ORDER_SPEC } from '../../../src/connectors/prestashop/jobs/names.ts';
import { startFakePrestaShop } from '../fake-prestashop.ts';
import { startLiveApi } from '../live-api.ts';
import { linkPrestaShop } from '../prestashop.ts';
import type { ConformanceAdapter, ShopUnderTest } from './adapter.ts';

type Order = { id: number };

/** PrestaShop through its fake: the module's signed pushes, the tracking number and order states heard. */
export const prestashopAdapter: ConformanceAdapter = {
  platform: 'prestashop',
  async start(): Promise<ShopUnderTest<Order>> {
    const live = await startLiveApi();
    const fake = await startFakePrestaShop();
    const brandId = (await live.brand()).brandId;
    const linked = await linkPrestaShop(live, fake, brandId);
    const tables = linked.shop.tables;
    return {
      t: live.t,
      brandId,
      connectionId: linked.connection.id,
      newOrder: ({ ours = true } = {}) => ({
        id: fake.createOrder(linked.slug, { carrier: ours ? 'standard' : 'other' }).id,
      }),
      externalId: (order) => String(order.id),
      async send(order, signature = 'valid') {
        const sent = await fake.pushOrder(
          linked.pushUrl,
          { connectionId: linked.connection.id, secret: signature === 'forged' ? 'forged' : linked.secret },
          fake.pushPayload(linked.slug, order.id),
          signature === 'missing' ? { signature: '' } : {},
        );
        return sent.status;
      },
      heard(order) {
        const carrier = tables.order_carriers!.find((oc) => oc.id_order === String(order.id));
        // The first state is the shop's own (payment accepted).
        const states = tables
          .order_histories!.filter((h) => h.id_order === String(order.id))
          .slice(1)
          .map((h) => `state ${h.id_order_state}`);
        return [...(carrier?.tracking_number ? ['tracking number'] : []), ...states];
      },
      walkHeard: ['tracking number', 'state 5'],
      setShop: (mode) => fake.setMode(linked.slug, mode === 'revoked' ? 'unauthorized' : mode),
      syncJob: PRESTASHOP_SYNC_ORDER_SPEC.name,
      async close() {
        await fake.close();
        await live.close();
      },
    };
  },
};
