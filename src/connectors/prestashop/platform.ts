import { defineConnector } from '../connector.ts';
import { prestashopAccountRoutes } from './account/routes.ts';
import { prestashopConnectCard, prestashopHealthRows, prestashopLinkForms } from './account/views.ts';
import { PRESTASHOP_PROCESS_PUSH_SPEC, PRESTASHOP_SYNC_ORDER_SPEC } from './jobs/names.ts';
import { PRESTASHOP_POLL, PRESTASHOP_POLL_SHOP } from './jobs/poll.ts';
import { PRESTASHOP_PROCESS_PUSH } from './jobs/process-push.ts';
import { PRESTASHOP_SYNC_ORDER } from './jobs/sync-order.ts';
import { prestashopConnector } from './prestashop-connector.ts';
import { PRESTASHOP_PREFIX, prestashopRoutes } from './receivers.ts';
import { PRESTASHOP_WORDING } from './wording.ts';

/** PrestaShop: always on, each shop brings its own secret (our module signs its pushes) and Webservice key. */
export const PRESTASHOP = defineConnector({
  platform: 'prestashop',
  label: 'PrestaShop',
  isOn: () => true,
  wording: PRESTASHOP_WORDING,
  account: {
    cardOrder: 2,
    connectCard: (ctx, _on, state) => prestashopConnectCard(ctx, state),
    polled: true,
    // What the page shows of a link beside its health: its poll and the module's pushes.
    cardInfo: async (prestashop, brandId) =>
      new Map((await prestashop.overview(brandId)).map((p) => [p.connectionId, p])),
    healthRows: prestashopHealthRows,
    linkForms: prestashopLinkForms,
    routes: prestashopAccountRoutes,
  },
  offNotice: 'off',
  create: (ctx) =>
    prestashopConnector({
      stores: ctx.stores,
      transact: ctx.transact,
      orders: ctx.orders,
      connections: ctx.connections,
      cipher: ctx.cipher,
      guard: ctx.shopGuard,
      request: ctx.shopRequest,
      clock: ctx.clock,
      // A published service keeps no shop credentials under a key stored beside them (config.ts).
      refusal: ctx.credentialRefusal,
      onChanged: ctx.directory.forget,
      processJob: PRESTASHOP_PROCESS_PUSH_SPEC.name,
    }),
  receivers: { prefix: PRESTASHOP_PREFIX, routes: (prestashop) => prestashopRoutes(prestashop) },
  syncBack: {
    events: ['order.created', 'order.status_changed'],
    job: PRESTASHOP_SYNC_ORDER_SPEC.name,
    queuePrefix: 'prestashop',
  },
  resync: (prestashop) => async (connection, since) => {
    const from = since ?? connection.createdAt;
    return { outcome: await prestashop.poll.resync(connection, from), from };
  },
  jobs: [PRESTASHOP_PROCESS_PUSH, PRESTASHOP_SYNC_ORDER, PRESTASHOP_POLL, PRESTASHOP_POLL_SHOP],
});
