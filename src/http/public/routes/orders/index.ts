import type { Transact } from '../../../../db/stores.ts';
import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { ProofService } from '../../../../domain/proofs/proof-service.ts';
import type { SimulationService } from '../../../../domain/test-mode/simulation.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';
import { cancelOrderRoute } from './cancel-order.ts';
import { createOrderRoute } from './create-order.ts';
import { getOrderRoute } from './get-order.ts';
import { listOrdersRoute } from './list-orders.ts';
import { simulateOrderRoute } from './simulate-order.ts';
import { updateOrderRoute } from './update-order.ts';

/** What the order routes use. */
interface OrdersRouteContext {
  orders: OrderService;
  proofs: Pick<ProofService, 'forOrder'>;
  simulation: SimulationService;
  idempotentRequests: IdempotentRequests;
  transact: Transact;
}

/** Orders: create, list, track, complete, cancel (in the OpenAPI document's order). */
export function orderRoutes(app: TypedApp, deps: OrdersRouteContext): void {
  createOrderRoute(app, deps);
  listOrdersRoute(app, deps);
  getOrderRoute(app, deps);
  updateOrderRoute(app, deps);
  cancelOrderRoute(app, deps);
  simulateOrderRoute(app, deps);
}
