import type { Deps } from '../../../../deps.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { cancelOrderRoute } from './cancel-order.ts';
import { createOrderRoute } from './create-order.ts';
import { getOrderRoute } from './get-order.ts';
import { listOrdersRoute } from './list-orders.ts';
import { updateOrderRoute } from './update-order.ts';

/** Orders: create, list, track, complete, cancel (in the OpenAPI document's order). */
export function orderRoutes(app: TypedApp, deps: Deps): void {
  createOrderRoute(app, deps);
  listOrdersRoute(app, deps);
  getOrderRoute(app, deps);
  updateOrderRoute(app, deps);
  cancelOrderRoute(app, deps);
}
