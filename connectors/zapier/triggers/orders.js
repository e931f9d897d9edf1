'use strict';

const { apiRequest } = require('../lib/api');
const { restHookTrigger } = require('../lib/rest-hook');
const { SAMPLE_ORDER } = require('../lib/samples');

/** The three most recent orders (of one status, if given): what Zapier shows as samples. */
function recentOrders(status) {
  return async (z, bundle) => {
    const query = status ? `?status=${status}&limit=3` : '?limit=3';
    const data = await apiRequest(z, bundle, { method: 'GET', path: `/orders${query}` });
    return data.orders;
  };
}

const newOrder = restHookTrigger({
  key: 'new_order',
  noun: 'Order',
  label: 'New Order',
  description:
    'Triggers when a delivery order is created (by the API, a shop connector or the account area).',
  eventType: 'order.created',
  toRecord: (data) => ({ id: data.order.tracking_ref, ...data.order }),
  list: async (z, bundle) =>
    (await recentOrders()(z, bundle)).map((order) => ({ id: order.tracking_ref, ...order })),
  sample: { id: SAMPLE_ORDER.tracking_ref, ...SAMPLE_ORDER },
});

/**
 * One order changes status several times, so each change is its own record: its id is the order,
 * the new status and the instant of the change (the same formula for deliveries and samples).
 */
const statusChangeId = (order) => `${order.tracking_ref}:${order.status}:${order.updated_at}`;

const orderStatusChanged = restHookTrigger({
  key: 'order_status_changed',
  noun: 'Order',
  label: 'Order Status Changed',
  description: 'Triggers when a delivery order moves to another status (picked up, in transit, delivered…).',
  eventType: 'order.status_changed',
  toRecord: (data) => ({
    id: statusChangeId(data.order),
    ...data.order,
    previous_status: data.previous_status,
  }),
  list: async (z, bundle) =>
    (await recentOrders()(z, bundle)).map((order) => ({
      id: statusChangeId(order),
      ...order,
      previous_status: null,
    })),
  sample: {
    id: statusChangeId({ ...SAMPLE_ORDER, status: 'picked_up' }),
    ...SAMPLE_ORDER,
    status: 'picked_up',
    previous_status: 'pending',
  },
});

const orderDelivered = restHookTrigger({
  key: 'order_delivered',
  noun: 'Order',
  label: 'Order Delivered',
  description: 'Triggers when a delivery order is delivered to its recipient.',
  eventType: 'order.delivered',
  toRecord: (data) => ({ id: data.order.tracking_ref, ...data.order }),
  list: async (z, bundle) =>
    (await recentOrders('delivered')(z, bundle)).map((order) => ({ id: order.tracking_ref, ...order })),
  sample: { id: SAMPLE_ORDER.tracking_ref, ...SAMPLE_ORDER, status: 'delivered' },
});

module.exports = { newOrder, orderStatusChanged, orderDelivered };
