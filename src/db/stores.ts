import type { Stores as DomainStores, UnitOfWork } from '../domain/shared/stores.ts';
import type { OutboxEvent } from '../events/outbox.ts';
import { type JobQueue, jobQueueOn } from '../infra/queue/job-queue.ts';
import { appendEvents } from './outbox-sql.ts';
import { type Pool, type Queryable, withTransaction } from './pool.ts';
import { apiKeysRepository } from './repositories/api-keys-repository.ts';
import { auditRepository } from './repositories/audit-repository.ts';
import { brandsRepository } from './repositories/brands-repository.ts';
import { type ConnectionsRepository, connectionsRepository } from './repositories/connections-repository.ts';
import {
  type ConnectorSyncRepository,
  connectorSyncRepository,
} from './repositories/connector-sync-repository.ts';
import { couriersRepository } from './repositories/couriers-repository.ts';
import { creditNotesRepository } from './repositories/credit-notes-repository.ts';
import { documentBuyersRepository } from './repositories/document-buyers-repository.ts';
import { einvoicesRepository } from './repositories/einvoices-repository.ts';
import { fleetRepository } from './repositories/fleet-repository.ts';
import { type IdempotencyRepository, idempotencyRepository } from './repositories/idempotency-repository.ts';
import { invoicesRepository } from './repositories/invoices-repository.ts';
import { labelPrintsOn } from './repositories/labels-repository.ts';
import { operatorsRepository } from './repositories/operators-repository.ts';
import { opsTokensRepository } from './repositories/ops-tokens-repository.ts';
import { ordersRepository } from './repositories/orders-repository.ts';
import { pickupsRepository } from './repositories/pickups-repository.ts';
import {
  type PrestaShopShopsRepository,
  prestashopShopsRepository,
} from './repositories/prestashop-shops-repository.ts';
import { priceGridsRepository } from './repositories/price-grids-repository.ts';
import { roundsRepository } from './repositories/rounds-repository.ts';
import { scansRepository } from './repositories/scans-repository.ts';
import { sessionsRepository } from './repositories/sessions-repository.ts';
import { teamInvitationsRepository } from './repositories/team-invitations-repository.ts';
import { testDataRepository } from './repositories/test-data-repository.ts';
import { usersRepository } from './repositories/users-repository.ts';
import { webhookDeliveriesRepository } from './repositories/webhook-deliveries-repository.ts';
import { webhookRequestsRepository } from './repositories/webhook-requests-repository.ts';
import { webhookSubscriptionsRepository } from './repositories/webhook-subscriptions-repository.ts';
import { webhooksRepository } from './repositories/webhooks-repository.ts';

/**
 * Every store (repository) of the service, on one connection: the pool, or a transaction's client.
 * The domain's stores (domain/shared/stores.ts), and those only the connectors, the HTTP layer and
 * the jobs use.
 */
export interface Stores extends DomainStores {
  connections: ConnectionsRepository;
  connectorSync: ConnectorSyncRepository;
  idempotencyKeys: IdempotencyRepository;
  jobQueue: JobQueue;
  prestashopShops: PrestaShopShopsRepository;
}

export function storesOn(db: Queryable): Stores {
  return {
    apiKeys: apiKeysRepository(db),
    audit: auditRepository(db),
    brands: brandsRepository(db),
    connections: connectionsRepository(db),
    connectorSync: connectorSyncRepository(db),
    couriers: couriersRepository(db),
    creditNotes: creditNotesRepository(db),
    documentBuyers: documentBuyersRepository(db),
    einvoices: einvoicesRepository(db),
    idempotencyKeys: idempotencyRepository(db),
    invoices: invoicesRepository(db),
    jobQueue: jobQueueOn(db),
    labelPrints: labelPrintsOn(db),
    operators: operatorsRepository(db),
    opsTokens: opsTokensRepository(db),
    fleet: fleetRepository(db),
    orders: ordersRepository(db),
    outbox: { append: (...events: OutboxEvent[]) => appendEvents(db, events) },
    pickups: pickupsRepository(db),
    prestashopShops: prestashopShopsRepository(db),
    priceGrids: priceGridsRepository(db),
    rounds: roundsRepository(db),
    scans: scansRepository(db),
    sessions: sessionsRepository(db),
    teamInvitations: teamInvitationsRepository(db),
    testData: testDataRepository(db),
    users: usersRepository(db),
    webhookDeliveries: webhookDeliveriesRepository(db),
    webhooks: webhooksRepository(db),
    webhookRequests: webhookRequestsRepository(db),
    webhookSubscriptions: webhookSubscriptionsRepository(db),
  };
}

/**
 * A unit of work over the stores `on` builds for a transaction's client: for a service whose stores
 * are not all in `Stores` (the recipients' settings, the sort codes), with the audit trail's beside.
 */
export function transactWith<S>(pool: Pool, on: (client: Queryable) => S): UnitOfWork<S> {
  return (work) => withTransaction(pool, (client) => work(on(client)));
}

/** The unit of work (domain/shared/stores.ts) on every store. */
export type Transact = UnitOfWork<Stores>;

export function transactOn(pool: Pool): Transact {
  return (work) => withTransaction(pool, (client) => work(storesOn(client)));
}
