import type { Order } from './order-fields.ts';
import type { OrderStatus } from './state-machine.ts';

export type { Order } from './order-fields.ts';

export interface OrderEvent {
  status: OrderStatus;
  at: Date;
  note: string | null;
}

export interface OrderWithEvents extends Order {
  events: OrderEvent[];
}
