import type { SelfServiceStores } from '../domain/recipients/self-service-ports.ts';
import type { UnitOfWork } from '../domain/shared/stores.ts';
import type { OutboxEvent } from '../events/outbox.ts';
import { appendEvents } from './outbox-sql.ts';
import { type Pool, type Queryable, withTransaction } from './pool.ts';
import { ordersRepository } from './repositories/orders-repository.ts';
import { recipientSelfServiceRepository } from './repositories/recipient-self-service-repository.ts';
import { roundsRepository } from './repositories/rounds-repository.ts';

/** The stores of the tracking page's self-service, on one connection. */
export function selfServiceStoresOn(db: Queryable): SelfServiceStores {
  return {
    orders: ordersRepository(db),
    selfService: recipientSelfServiceRepository(db),
    rounds: roundsRepository(db),
    outbox: { append: (...events: OutboxEvent[]) => appendEvents(db, events) },
  };
}

export function selfServiceTransact(pool: Pool): UnitOfWork<SelfServiceStores> {
  return (work) => withTransaction(pool, (client) => work(selfServiceStoresOn(client)));
}
